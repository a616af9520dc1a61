/**
 * Errors that escape every handler (an 'error' event nobody listens to, a rejected promise nobody awaits) would
 * end a server process. While a fuzz run lasts they are caught here and charged to the case being sent.
 */
export class CrashWatch {
  readonly #caught: unknown[] = [];
  readonly #waiting = new Set<() => void>();
  readonly #onCrash = (error: unknown) => {
    this.#caught.push(error);
    for (const wake of this.#waiting) wake();
  };

  start(): void {
    process.on('uncaughtException', this.#onCrash);
    process.on('unhandledRejection', this.#onCrash);
  }

  stop(): void {
    process.off('uncaughtException', this.#onCrash);
    process.off('unhandledRejection', this.#onCrash);
  }

  /** The errors caught since the last call. */
  take(): unknown[] {
    return this.#caught.splice(0);
  }

  /**
   * Waits for `work`, but no longer than `limitMs` and no longer than until a crash: a request whose parser died
   * in an event handler never answers.
   */
  async race<T>(work: Promise<T>, limitMs: number): Promise<{ value: T } | { crashed: true } | { hung: true }> {
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    try {
      return await Promise.race([
        work.then((value) => ({ value })),
        new Promise<{ crashed: true }>((resolve) => {
          wake = () => resolve({ crashed: true });
          this.#waiting.add(wake);
        }),
        new Promise<{ hung: true }>((resolve) => { timer = setTimeout(() => resolve({ hung: true }), limitMs); }),
      ]);
    } finally {
      clearTimeout(timer);
      if (wake) this.#waiting.delete(wake);
    }
  }
}
