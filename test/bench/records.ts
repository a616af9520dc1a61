/** The post records the storage benchmarks load: the same shape and the same (seeded) dates in every run. */
import type { NewRecord } from '../../src/ports/storage.js';

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
