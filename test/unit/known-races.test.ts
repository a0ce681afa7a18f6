/** The unhandled errors a test run may ignore: only Remotion's "Target closed" race, and both configs use the rule. */
import { describe, expect, it } from "vitest";
import { failOnUnhandled } from "../known-races.ts";
import fast from "../../vitest.config.ts";
import slow from "../../vitest.slow.config.ts";

describe("unhandled errors in a test run", () => {
  it("ignores Remotion's rejection of a CDP call on a page that closed, whatever the call", () => {
    for (const method of ["Target.closeTarget", "Runtime.callFunctionOn", "Page.close"])
      expect(failOnUnhandled(new Error(`Protocol error (${method}): Target closed. https://www.remotion.dev/docs/target-closed`))).toBe(false);
  });

  it("fails on anything else, a closed target elsewhere included", () => {
    expect(failOnUnhandled(new Error("Protocol error (Target.closeTarget): Target closed."))).toBe(true);
    expect(failOnUnhandled(new Error("Protocol error (Target.closeTarget): No target with given id found"))).toBe(true);
    expect(failOnUnhandled(new Error("the frame painter failed: Target closed. https://www.remotion.dev/docs/target-closed"))).toBe(true);
    expect(failOnUnhandled(new TypeError("x is undefined"))).toBe(true);
    expect(failOnUnhandled({})).toBe(true);
  });

  it("is the rule of the fast and the slow test runs", () => {
    expect(fast.test?.onUnhandledError).toBe(failOnUnhandled);
    expect(slow.test?.onUnhandledError).toBe(failOnUnhandled);
  });
});
