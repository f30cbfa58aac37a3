/**
 * How many cases a heavy property tries. `npm test` runs the quick count, with a fast-check seed
 * that is new on every run, so runs together cover far more than any one; `npm run test:deep`
 * (TEST_DEPTH=deep) runs the full count. A failure prints its seed with the counterexample
 * (fast-check's `{ seed: …, path: … }`); `PROPERTY_SEED=<seed> npx vitest run <file>` replays it
 * (tests/support/vitest-setup.ts hands the seed to every property).
 */
export const DEEP = process.env.TEST_DEPTH === "deep";

export function propertyRuns(counts: { quick: number; deep: number }): number {
  return DEEP ? counts.deep : counts.quick;
}
