/** What a GeoGuesser rollout's first turn showed the model: the determinism contract's input (replay/groups/determinism.ts). */
import type { Episode } from "../schema/episode.ts";
import type { FirstView } from "../../../../replay/groups/determinism.ts";

/** The first view of an episode: its first recorded turn (the reset). */
export function firstViewOf(ep: Episode): FirstView {
  const first = ep.turns.reduce<Episode["turns"][number] | undefined>((a, t) => (a === undefined || t.turn < a.turn ? t : a), undefined);
  if (!first) return { hash: null, camera: null, prompt: null };
  const c = first.camera_after ?? null;
  const prompt = (first as { prompt?: unknown }).prompt;
  return {
    hash: first.image_sha256 ? first.image_sha256.toLowerCase() : null,
    camera: c ? `heading ${c.heading_deg} pitch ${c.pitch_deg} fov ${c.fov_deg} frame ${c.frame_index}` : null,
    prompt: typeof prompt === "string" ? prompt : null,
  };
}
