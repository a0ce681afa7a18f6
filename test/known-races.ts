/**
 * Unhandled errors the test runs may ignore, each a third party's known race
 * and nothing of ours. Matched narrowly (by message), so anything else still
 * fails the run.
 *
 * Remotion's renderer (@remotion/renderer, the Studio and `--engine
 * remotion` path): when a page closes, its connection rejects the CDP calls
 * still pending on it with "Target closed", and one of them can be left with
 * nobody awaiting it (seen once in CI on 2026-12-04, in remotion-parity's
 * refused-props test: every test passed, the run failed). Remotion's own
 * cleanup treats "Target closed" as benign.
 */
const REMOTION_TARGET_CLOSED = /^Protocol error \([A-Za-z.]+\): Target closed\. https:\/\/www\.remotion\.dev\/docs\/target-closed/;

/** For vitest's onUnhandledError: false ignores the error. */
export function failOnUnhandled(error: { message?: string }): boolean {
  return !REMOTION_TARGET_CLOSED.test(error.message ?? "");
}
