/** The post records the storage benchmarks load: the same shape and the same (seeded) dates in every run. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NewRecord, StoragePort } from '../../src/ports/storage.js';
import { sqliteStorage, type SqliteStorage } from '../../src/storage/sqlite/index.js';

let dateSeed = 1;

/** A date within ten years from 2015, from a fixed pseudo-random sequence. */
export function nextDate(): string {
  dateSeed = (dateSeed * 48_271) % 2_147_483_647;
  return new Date(Date.UTC(2015, 0, 1) + (dateSeed % (10 * 365 * 86_400)) * 1000).toISOString().slice(0, 19);
}

export function benchPost(index: number): NewRecord {
  return {
    type: index % 5 === 0 ? 'page' : 'post',
    status: index % 7 === 0 ? 'draft' : 'publish',
    author: 1 + (index % 9),
    date: nextDate(),
    modified: nextDate(),
    title: `Post number ${index}`,
    slug: `post-number-${index}`,
    content: 'Lorem ipsum dolor sit amet. '.repeat(20),
    categories: [1 + (index % 4)],
    tags: [],
    sticky: false,
  };
}

/** Loads `count` bench posts in transactions of a thousand, as an import would. */
export async function loadPosts(store: StoragePort, count: number): Promise<void> {
  for (let first = 0; first < count; first += 1000) {
    await store.transaction(async (tx) => {
      for (let index = first; index < Math.min(count, first + 1000); index++) await tx.insert('posts', benchPost(index));
    });
  }
}

/** Runs `work` on a SQLite store in a file of a temporary folder, closed and deleted afterwards. */
export async function onSqliteFile<T>(work: (store: SqliteStorage) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(path.join(tmpdir(), 'quire-bench-'));
  try {
    const store = sqliteStorage({ path: path.join(folder, 'bench.db') });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
