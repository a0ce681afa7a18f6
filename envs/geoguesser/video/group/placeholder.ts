/**
 * Group's default props when none are given: the Rollout placeholder as a
 * group of two (Root's props from `georeplay render --group` replace it).
 */
import type { GroupProps } from "./props.ts";
import { PLACEHOLDER } from "../rollout/placeholder.ts";

export const GROUP_PLACEHOLDER: GroupProps = {
  version: 1,
  group: { run: "pass --props with a group", step: 0, split: "-", index: 0, groupId: null, scaleRewards: "group", mean: 0, std: 0, zeroStd: true },
  siblings: [
    { timeline: PLACEHOLDER, reward: 0, advantage: 0, rollout: "(georeplay render --group)" },
    { timeline: PLACEHOLDER, reward: 0, advantage: 0, rollout: "(georeplay render --group)" },
  ],
};
