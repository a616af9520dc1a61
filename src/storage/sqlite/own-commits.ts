import type { StoredWrite } from '../../ports/storage.js';
import { copyJsonOut, freezeJson } from '../json.js';
import { WriteLog } from '../write-log.js';
import type { DataVersion } from './data-version.js';
import type { WalHeader } from './wal-header.js';

/** Tokens remembered for `writtenSince`, the most recent ones. */
const TOKENS_REMEMBERED = 64;
/** Steps of the store's own commits remembered (`headerWatch`). */
const STEPS_REMEMBERED = 256;
/** Most writes of a commit whose records are kept as written (`asWritten`): a larger one's are read again. */
const MOST_KEPT_WRITES = 64;

/** Tells whether anyone but the store has committed since a mark taken earlier. */
export interface OthersWatch {
  mark(): unknown;
  /** `asRead`: as of the state the watch last read (the caller has just read it), without reading it again. */
  unchangedSince(mark: unknown, asRead?: boolean): boolean;
  /** Notes how one of the store's own commits moved the database, null when that is not known. */
  step(step: { from: string; to: string } | null): void;
}

/**
 * Where the store writes on the main thread: the writing connection's `PRAGMA data_version`, which moves only
 * when another connection or process commits.
 */
export function versionWatch(writerVersion: DataVersion): OthersWatch {
  return {
    mark: () => writerVersion.current(),
    unchangedSince: (mark) => writerVersion.current() === mark,
    step: () => {},
  };
}

/**
 * Where the store writes on its own thread: the WAL-index header (wal-header.ts), read here, and the steps by
 * which the store's own commits moved it. Nobody else committed since a mark while the store's steps lead from
 * that header to the one now; a step not known breaks the way, and so does any other commit.
 */
export function headerWatch(header: WalHeader): OthersWatch {
  const steps = new Map<string, string>();
  return {
    mark: () => header.read(),
    unchangedSince(mark, asRead = false) {
      if (typeof mark !== 'string') return false;
      const now = asRead ? header.latest() : header.read();
      let at: string | undefined = mark;
      for (let taken = 0; at !== now; taken++) {
        at = taken < steps.size ? steps.get(at!) : undefined;
        if (at === undefined) return false;
      }
      return true;
    },
    step(step) {
      if (!step || step.from === step.to) return;
      steps.delete(step.from);
      steps.set(step.from, step.to);
      if (steps.size > STEPS_REMEMBERED) steps.delete(steps.keys().next().value!);
    },
  };
}

export type OwnCommits = ReturnType<typeof ownCommits>;

/**
 * This store's own commits, for `writtenSince`: what each wrote, numbered, and for each state of the data seen
 * (the reading connection's version, data-version.ts), the number of the last commit then and a mark of the others'
 * commits (`OthersWatch`). The log answers for a token only while no one else has committed since; a token is
 * noted after the first read of it, so it may stand for fewer commits than it saw (more writes named, never fewer).
 */
export function ownCommits(others: OthersWatch) {
  const log = new WriteLog();
  const tokens = new Map<string, { commit: number; others: unknown }>();
  let commit = 0;
  let mark: unknown = null;
  let underWay = 0;
  const seenWith = (state: string, othersMark: unknown) => {
    if (tokens.has(state)) return;
    tokens.set(state, { commit, others: othersMark });
    if (tokens.size > TOKENS_REMEMBERED) tokens.delete(tokens.keys().next().value!);
  };
  return {
    /** A write on the main thread's connection starts: until it is noted, its commit may be seen unnamed. */
    begin() {
      underWay++;
    },
    end() {
      underWay--;
    },
    /**
     * Notes a commit before its writer hands out what it wrote (see `asWritten`); `unshared`: no one else holds its
     * records (a transaction's commit answers them anew).
     */
    committed(written: readonly StoredWrite[], step: { from: string; to: string } | null = null, unshared = false) {
      others.step(step);
      if (written.length > 0) log.add(++commit, asWritten(written, unshared));
    },
    look() {
      mark = others.mark();
    },
    knows(state: string): boolean {
      return tokens.has(state);
    },
    /** Notes a state read after the last `look`. */
    seen(state: string) {
      seenWith(state, mark);
    },
    /** Notes a state with a mark of the others' commits taken no later than the state was read. */
    seenWith,
    /** `asRead`: as of the state just read (see `OthersWatch.unchangedSince`). */
    since(state: string, asRead = false): StoredWrite[] | null {
      const noted = tokens.get(state);
      if (!noted || underWay > 0 || !others.unchangedSince(noted.others, asRead)) return null;
      return log.since(noted.commit);
    },
  };
}

/**
 * A commit's writes, each record written frozen, as a copy of its own where the writer's answer shares it with the
 * caller (who may change it). The reading connection's record cache takes a frozen one as what the row now holds
 * (record-cache.ts), sparing a read of it; a larger commit's records stay as they are, and are read again.
 */
function asWritten(written: readonly StoredWrite[], unshared: boolean): readonly StoredWrite[] {
  if (written.length > MOST_KEPT_WRITES) return written;
  if (unshared) {
    for (const write of written) freezeJson(write.after);
    return written;
  }
  return written.map((write) => (write.after === null ? write : { ...write, after: freezeJson(copyJsonOut(write.after)) }));
}
