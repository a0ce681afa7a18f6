/**
 * A video as data (which composition, its validated props) and what follows
 * from the props alone: its length, rate and size. Apart from the scenes
 * (compositions.ts) so that an encoder's or a player's arithmetic loads no
 * scene code.
 */
import type { RolloutProps } from "../envs/geoguesser/video/rollout/props.ts";
import type { CompareProps } from "../envs/geoguesser/video/compare/props.ts";
import { outputSize } from "./scene/output-size.ts";
import { compareClock } from "../envs/geoguesser/video/compare/clock.ts";
import type { GroupProps } from "../envs/geoguesser/video/group/props.ts";
import { groupClock } from "../envs/geoguesser/video/group/clock.ts";
import { sameScene } from "./scene/same-scene.ts";
import { envComposition, type EnvVideo } from "./env-compositions.ts";

export type VideoSpec =
  { composition: "Rollout"; props: RolloutProps } | { composition: "Compare"; props: CompareProps } | { composition: "Group"; props: GroupProps } | EnvVideo;

/** The clock of a video of several episodes (a two-up's or a group's); null for one episode. */
function sharedClock(v: VideoSpec) {
  return v.composition === "Compare" ? compareClock(v.props) : v.composition === "Group" ? groupClock(v.props) : null;
}

export function videoFrames(v: VideoSpec): number {
  if (v.composition === "Env") return envComposition(v.env).frames(v.props);
  return v.composition === "Rollout" ? v.props.totalFrames : sharedClock(v)!.totalFrames;
}

export function videoFps(v: VideoSpec): number {
  if (v.composition === "Env") return envComposition(v.env).fps(v.props);
  return v.composition === "Rollout" ? v.props.fps : sharedClock(v)!.fps;
}

export function videoSize(v: VideoSpec): { width: number; height: number } {
  if (v.composition === "Env") return envComposition(v.env).size(v.props);
  return outputSize(v.props);
}

/** Fields of a spec no scene reads: the keyframes' hashes (test/spec-alike.test.ts holds it). */
const UNPAINTED = new Set(["sha256"]);

/**
 * Whether two specs paint the same frames: equal but for what no scene
 * reads. A painter that laid out a provisional spec (the timeline before its
 * views were verified, when the keyframes' hashes are not known) keeps that
 * layout for the final spec when this holds, and lays it out again when not.
 */
export function paintsAlike(a: VideoSpec, b: VideoSpec): boolean {
  return sameScene(a, b, UNPAINTED);
}
