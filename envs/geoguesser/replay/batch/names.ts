/**
 * Output names of a batch: `<episode_id>` for one episode, `<split>-<index>-<A>-vs-<B>`
 * for a two-up video. Every part comes from a trace (ids, split names, arms are model
 * names): untrusted text, so each is reduced by slugFor to [A-Za-z0-9_-] and never used
 * as a path of its own.
 */
import { slugFor } from "../frames/output.ts";

export { uniqueStems } from "../../../../replay/batch/names.ts";

export type StemOf = { kind: "rollout"; episodeId: string } | { kind: "compare"; split: string; index: number; a: string; b: string };

export function videoStem(v: StemOf): string {
  if (v.kind === "rollout") return slugFor(v.episodeId);
  const idx = Number.isSafeInteger(v.index) ? String(v.index) : slugFor(String(v.index));
  return `${slugFor(v.split)}-${idx}-${slugFor(v.a)}-vs-${slugFor(v.b)}`;
}
