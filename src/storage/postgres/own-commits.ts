import type { StoredWrite } from '../../ports/storage.js';
import { WriteLog } from '../write-log.js';
import type { PostgresCommit } from './session.js';

/**
 * This store's own commits, for `writtenSince`. The database numbers its states: the generation goes up by one in
 * every transaction that writes records, whoever commits it (schema.ts). Each own commit is noted under the
 * generation it made, read inside the transaction; a generation not noted is another connection's or process's.
 * The writes since a token are told only when every generation after it, up to the newest this store handed out
 * as a token, is an own commit noted: a token handed out is the newest state any caller can have read next, so a
 * commit by anyone else that a caller may have seen is never passed over.
 */
export class OwnCommits {
  readonly #log = new WriteLog();
  /** The newest generation handed out as a token. */
  #newestSeen = 0;

  /** Notes a token handed out. */
  seen(token: string): void {
    const generation = Number(token);
    if (generation > this.#newestSeen) this.#newestSeen = generation;
  }

  /** Notes a commit of this store; one whose generation it could not tell makes everything before it unknown. */
  committed({ generation, written }: PostgresCommit): void {
    if (written.length === 0) return;
    if (generation === null) this.#log.forget();
    else this.#log.add(generation, written);
  }

  since(token: string): StoredWrite[] | null {
    if (!/^[1-9][0-9]{0,15}$/.test(token)) return null;
    const generation = Number(token);
    if (generation > this.#newestSeen || this.#newestSeen > Math.max(this.#log.last, generation)) return null;
    return generation >= this.#log.last ? [] : this.#log.since(generation);
  }
}
