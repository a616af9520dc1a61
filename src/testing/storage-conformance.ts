/**
 * The storage conformance suite. A store passes when `runStorageConformance` registers no failing test:
 *
 *   runStorageConformance('my store', async () => createMyStore(...));
 *
 * `makeStore` is called once per test and must return an empty store; the suite closes it afterwards. The tests
 * register with node:test, or with `runner` (`{ describe, it }` of another test runner).
 */
import { describe, useRunner, type TestRunner } from './runner.js';
import { changeTokenTests } from './conformance/change-token.js';
import { claimTests } from './conformance/claims.js';
import { conditionTests } from './conformance/conditions.js';
import { orderingTests } from './conformance/ordering.js';
import { randomisedTests } from './conformance/randomised.js';
import { recordTests } from './conformance/records.js';
import { termListTests } from './conformance/term-lists.js';
import type { MakeStore } from './conformance/support.js';
import { transactionTests } from './conformance/transactions.js';
import { writtenSinceTests } from './conformance/written-since.js';

export function runStorageConformance(name: string, makeStore: MakeStore, runner?: TestRunner): void {
  useRunner(runner);
  describe(`storage conformance: ${name}`, () => {
    recordTests(makeStore);
    conditionTests(makeStore);
    orderingTests(makeStore);
    transactionTests(makeStore);
    claimTests(makeStore);
    changeTokenTests(makeStore);
    writtenSinceTests(makeStore);
    randomisedTests(makeStore);
    termListTests(makeStore);
  });
}
