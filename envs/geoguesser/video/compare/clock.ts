/**
 * A pair's shared clock (envs/geoguesser/replay/timeline/align.ts), computed once per props
 * object. Apart from the scene so that what only needs a video's length
 * (an encoder's arguments, a player's controls) loads no scene code.
 */
import { alignTimelines, type CompareClock } from "../../replay/timeline/align.ts";
import type { CompareProps } from "./props.ts";

const clocks = new WeakMap<CompareProps, CompareClock>();

/** The shared clock of a pair (computed once per props object). */
export function compareClock(p: CompareProps): CompareClock {
  let c = clocks.get(p);
  if (!c) clocks.set(p, (c = alignTimelines(p.a.timeline, p.b.timeline)));
  return c;
}
