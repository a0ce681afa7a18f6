/**
 * Compare's default props when none are given: the Rollout placeholder on
 * both sides (Root's calculateMetadata swaps in two timelines of one task
 * from the public dir when there are some, e.g. the ones `npm run demo` writes).
 */
import type { CompareProps } from "./props.ts";
import { PLACEHOLDER } from "../rollout/placeholder.ts";

export const COMPARE_PLACEHOLDER: CompareProps = {
  version: 1,
  a: { timeline: PLACEHOLDER, arm: "pass --props with two timelines", pass: null, label: "A" },
  b: { timeline: PLACEHOLDER, arm: "(georeplay render --versus)", pass: null, label: "B" },
};
