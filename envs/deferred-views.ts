/**
 * The native painter's deferred views by the environment that deferred them (DeferredImage.env):
 * each environment's maker of their pixels, loaded only on a thread that makes some (the painter's,
 * for a view the ring missed, and the one reprojecting ahead of it). An environment whose videos
 * defer no views has none here.
 */
import { GeoreplayError } from "../replay/io/errors.ts";
import type { DeferredViews } from "../src/film/shared/encode-options.ts";

const MAKERS: Record<string, () => Promise<DeferredViews>> = {
  geoguesser: async () => (await import("./geoguesser/src/film/view-pixels.ts")).panoramaViews as DeferredViews,
};

export async function deferredViewsOf(env: string): Promise<DeferredViews> {
  if (!Object.hasOwn(MAKERS, env)) throw new GeoreplayError(`a deferred view of ${JSON.stringify(env)}, an environment that defers none`);
  return MAKERS[env]();
}
