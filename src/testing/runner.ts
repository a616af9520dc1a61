/**
 * The test functions the suites register with: node:test's unless the caller passes its runner's own (vitest,
 * jest, mocha: anything with `describe` and `it` that runs an `it` body returning a promise).
 */
import * as nodeTest from 'node:test';

export interface TestRunner {
  describe(name: string, body: () => void): unknown;
  it(name: string, body: () => Promise<void>): unknown;
}

let current: TestRunner = { describe: nodeTest.describe, it: nodeTest.it };

/** Makes `runner` the one the suites register with from now on (runners collect tests synchronously). */
export function useRunner(runner: TestRunner | undefined): void {
  if (runner) current = runner;
}

export function describe(name: string, body: () => void): void {
  current.describe(name, body);
}

export function it(name: string, body: () => Promise<void>): void {
  current.it(name, body);
}
