/**
 * Schema `pattern` and `patternProperties` matching with the reference's semantics: a PCRE regex in UTF-8 mode
 * (which in PHP also makes `\w`, `\d`, `\s`, `\b` and POSIX classes Unicode-aware), unanchored. PCRE syntax is
 * rewritten into JS where the two differ: `$` also matching before a final newline, `.` only excluding `\n`,
 * `\A`/`\z`/`\Z`, POSIX classes, `\pL`, `\x{…}`, `(?P<name>…)`, escapes of any punctuation, literal braces and
 * brackets, and leading inline flags. A pattern that cannot be compiled matches nothing, as in the reference.
 */

const compiled = new Map<string, RegExp | null>();

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string has no lone surrogates, i.e. would be valid UTF-8. */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

export function matchesPattern(pattern: string, subject: string): boolean {
  const regex = compilePattern(withoutOuterWildcards(pattern));
  if (!regex || !isWellFormedText(subject)) return false;
  return regex.test(subject);
}

/**
 * A search for `.*X.*` finds a match exactly when a search for `X` does (`.*` may match nothing), but it tries
 * every start and runs to the end from each: `.*\S.*` on 400,000 spaces took seconds. So a leading `.*` and a
 * trailing one are left off for the yes-or-no test (not after a backslash, nor before another quantifier).
 */
function withoutOuterWildcards(pattern: string): string {
  let core = pattern;
  if (core.startsWith('.*') && !/^\.\*[?+*{]/.test(core)) core = core.slice(2);
  if (core.endsWith('.*') && !core.endsWith('\\.*')) core = core.slice(0, -2);
  return core;
}

export function compilePattern(pattern: string): RegExp | null {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex = tryCompile(pattern);
    if (compiled.size > 500) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

function tryCompile(pattern: string): RegExp | null {
  for (const unicode of [true, false]) {
    const { source, flags } = translatePcre(pattern, unicode);
    try {
      return new RegExp(source, unicode ? `${flags}u` : flags);
    } catch {
      // Retried without the `u` flag, whose syntax is stricter than PCRE's.
    }
  }
  return null;
}

/** In UTF mode PHP also turns on Unicode properties for the shorthand and POSIX classes. */
const UNICODE_POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{L}',
  digit: '\\p{Nd}',
  alnum: '\\p{L}\\p{N}',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  space: '\\p{Z}\\t\\n\\v\\f\\r',
  word: '\\p{L}\\p{N}_',
};

const WORD = '\\p{L}\\p{N}_';
const SPACE = '\\p{Z}\\t\\n\\v\\f\\r';

const POSIX_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\t\\n\\v\\f\\r ',
  blank: '\\t ',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
  cntrl: '\\x00-\\x1f\\x7f',
  print: ' -~',
  graph: '!-~',
};

const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));
const QUANTIFIER = /^\{\d+(?:,\d*)?\}/;

/** Rewrites a PCRE pattern into an equivalent JS pattern (for the features listed above). */
export function translatePcre(pattern: string, unicode = true): { source: string; flags: string } {
  let rest = pattern;
  let flags = '';
  const leading = /^\(\?([imsx]+)\)/.exec(rest);
  if (leading && !leading[1]!.includes('x')) {
    flags = [...new Set(leading[1]!.split(''))].join('');
    rest = rest.slice(leading[0].length);
  }
  const dotAll = flags.includes('s');
  const multiline = flags.includes('m');
  let out = '';
  let inClass = false;
  for (let index = 0; index < rest.length; index++) {
    const char = rest[index]!;
    if (char === '\\') {
      const next = rest[index + 1];
      if (next === undefined) {
        out += '\\\\';
        continue;
      }
      index++;
      out += translateEscape(rest, index, inClass, unicode, (skip) => (index += skip));
      continue;
    }
    if (inClass) {
      if (char === '[' && rest[index + 1] === ':') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(rest.slice(index));
        const ranges = posix ? ((unicode ? UNICODE_POSIX_CLASSES[posix[2]!] : undefined) ?? POSIX_CLASSES[posix[2]!]) : undefined;
        if (posix && ranges && posix[1] === '') {
          out += ranges;
          index += posix[0].length - 1;
          continue;
        }
      }
      if (char === ']') inClass = false;
      out += char === '[' ? '\\[' : char;
      continue;
    }
    switch (char) {
      case '[': {
        inClass = true;
        out += '[';
        // A `]` right after `[` or `[^` is a literal in PCRE.
        if (rest[index + 1] === '^') {
          out += '^';
          index++;
        }
        if (rest[index + 1] === ']') {
          out += '\\]';
          index++;
        }
        break;
      }
      case '$':
        out += multiline ? '$' : '(?=\\n?$)';
        break;
      case '.':
        out += dotAll ? '[\\s\\S]' : '[^\\n]';
        break;
      case '{': {
        const quantifier = QUANTIFIER.exec(rest.slice(index));
        if (quantifier) {
          out += quantifier[0];
          index += quantifier[0].length - 1;
        } else {
          out += '\\{';
        }
        break;
      }
      case '}':
      case ']':
        out += `\\${char}`;
        break;
      case '(': {
        const named = /^\(\?P(?:<([A-Za-z_]\w*)>|=([A-Za-z_]\w*)\))/.exec(rest.slice(index));
        if (named?.[1]) {
          out += `(?<${named[1]}>`;
          index += named[0].length - 1;
        } else if (named?.[2]) {
          out += `\\k<${named[2]}>`;
          index += named[0].length - 1;
        } else {
          out += '(';
        }
        break;
      }
      default:
        out += char;
    }
  }
  return { source: out, flags: flags.replace('x', '') };
}

function translateEscape(
  pattern: string,
  index: number,
  inClass: boolean,
  unicode: boolean,
  advance: (count: number) => void,
): string {
  const next = pattern[index]!;
  if (!inClass) {
    if (next === 'A') return '^';
    if (next === 'z') return '$';
    if (next === 'Z') return '(?=\\n?$)';
  }
  if (next === 'e') return '\\x1b';
  if (next === 'a') return '\\x07';
  if (next === 'x' && pattern[index + 1] === '{') {
    const braced = /^\{([0-9A-Fa-f]+)\}/.exec(pattern.slice(index + 1));
    if (braced) {
      advance(braced[0].length);
      return unicode ? `\\u{${braced[1]}}` : `\\u${braced[1]!.padStart(4, '0').slice(-4)}`;
    }
  }
  if (next === 'p' || next === 'P') {
    const braced = /^\{\^?[A-Za-z_&]+\}/.exec(pattern.slice(index + 1));
    if (braced) {
      advance(braced[0].length);
      return braced[0].startsWith('{^') ? `\\${next === 'p' ? 'P' : 'p'}{${braced[0].slice(2)}` : `\\${next}${braced[0]}`;
    }
    if (/^[A-Za-z]$/.test(pattern[index + 1] ?? '')) {
      advance(1);
      return `\\${next}{${pattern[index + 1]}}`;
    }
  }
  if (unicode) {
    const property = unicodeShorthand(next, inClass);
    if (property) return property;
  }
  if (/[A-Za-z0-9]/.test(next)) return `\\${next}`;
  if (JS_SYNTAX.has(next) || (inClass && next === '-')) return `\\${next}`;
  if (!unicode) return `\\${next}`;
  const codePoint = pattern.codePointAt(index) ?? 0;
  if (codePoint > 0xffff) advance(1);
  return `\\u{${codePoint.toString(16)}}`;
}

/** Unicode-aware forms of `\\w \\d \\s \\b` and their negations, where JS can express them. */
function unicodeShorthand(letter: string, inClass: boolean): string | undefined {
  switch (letter) {
    case 'w':
      return inClass ? WORD : `[${WORD}]`;
    case 'd':
      return '\\p{Nd}';
    case 'D':
      return '\\P{Nd}';
    case 's':
      return inClass ? SPACE : `[${SPACE}]`;
    case 'W':
      return inClass ? undefined : `[^${WORD}]`;
    case 'S':
      return inClass ? undefined : `[^${SPACE}]`;
    case 'b':
      return inClass ? undefined : `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`;
    case 'B':
      return inClass ? undefined : `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`;
    default:
      return undefined;
  }
}
