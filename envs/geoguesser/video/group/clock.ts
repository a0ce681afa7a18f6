/**
 * A group's shared clock (envs/geoguesser/replay/timeline/align.ts: every sibling's turn n
 * starts together), computed once per props object. Apart from the scene so
 * that what only needs a video's length loads no scene code.
 */
import { alignClock, type SharedClock } from "../../replay/timeline/align.ts";
import type { GroupProps } from "./props.ts";

const clocks = new WeakMap<GroupProps, SharedClock>();

export function groupClock(p: GroupProps): SharedClock {
  let c = clocks.get(p);
  if (!c) clocks.set(p, (c = alignClock(p.siblings.map((s) => s.timeline))));
  return c;
}
