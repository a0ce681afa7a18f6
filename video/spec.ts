/**
 * A video as data (which composition, its validated props) and what follows
 * from the props alone: its length, rate and size, as its composition (registered
 * by its environment, env-compositions.ts) says. Apart from the scenes
 * (compositions.ts) so that an encoder's arithmetic reads no scene code.
 */
import { sameScene } from "./scene/same-scene.ts";
import { envComposition, type EnvVideo } from "./env-compositions.ts";

export type VideoSpec = EnvVideo;

export function videoFrames(v: VideoSpec): number {
  return envComposition(v.composition).frames(v.props);
}

export function videoFps(v: VideoSpec): number {
  return envComposition(v.composition).fps(v.props);
}

export function videoSize(v: VideoSpec): { width: number; height: number } {
  return envComposition(v.composition).size(v.props);
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
