/**
 * Episode ids as folder names, pure (no node:path): the page's player plans
 * `frames`'s timeline in the browser and names the same frames folder.
 */

/** A file-system safe folder name from an episode id (trace text is never trusted as a path). */
export function slugFor(episodeId: string): string {
  const s = episodeId
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return s || "episode";
}

/**
 * `framesDir` of `frames`'s default output (public/rollouts/<slug>, Remotion's
 * public dir "public"): what framesDirFor gives for it, without node:path.
 */
export function defaultFramesDir(episodeId: string): string {
  return `rollouts/${slugFor(episodeId)}/frames`;
}
