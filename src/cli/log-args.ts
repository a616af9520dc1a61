/** The log options of `quire serve`: `--log-format`, `--log-level`, `--quiet`. */

export type LogFormat = 'json' | 'pretty';
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogChoice {
  format: LogFormat;
  level: LogLevel;
}

/** Throws the command line's usage error with this message. */
export type Refuse = (message: string) => never;

export function logChoiceOf(format: string | undefined, level: string | undefined, quiet: boolean, refuse: Refuse): LogChoice {
  if (format !== undefined && format !== 'json' && format !== 'pretty') refuse(`--log-format must be json or pretty, not '${format}'`);
  if (level !== undefined && !(LOG_LEVELS as readonly string[]).includes(level)) {
    refuse(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not '${level}'`);
  }
  if (quiet && level !== undefined) refuse('--quiet cannot be combined with --log-level');
  return { format: (format as LogFormat | undefined) ?? 'json', level: quiet ? 'warn' : (level as LogLevel | undefined) ?? 'info' };
}
