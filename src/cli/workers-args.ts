import { availableParallelism } from 'node:os';
import type { Refuse } from './log-args.js';

/** More server processes than this is a typing mistake, not a machine. */
export const MAX_WORKERS = 256;

/**
 * How many server processes `--workers` asks for: a whole number, or `auto` for one per core. Several processes
 * need a store they all see; memory is each process's own.
 */
export function workersOf(value: string | undefined, inMemory: boolean, refuse: Refuse): number {
  if (value === undefined) return 1;
  const count = value === 'auto' ? availableParallelism() : /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(count >= 1 && count <= MAX_WORKERS)) refuse(`--workers must be a whole number from 1 to ${MAX_WORKERS}, or auto, not '${value}'`);
  if (count > 1 && inMemory) {
    refuse('--workers above 1 needs a store every process shares (a SQLite file or PostgreSQL): memory is not shared');
  }
  return count;
}
