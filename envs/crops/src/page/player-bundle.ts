/**
 * The crops player's script: envs/crops/src/page/player/main.ts bundled on its own, as the
 * GeoGuesser player is (envs/geoguesser/src/page/player/bundle.ts: minified, zod replaced by the inert stub,
 * recorded by `npm run build`), and wrapped in a function so a page nobody plays only parses it.
 * Inlined before the crops client, under the same CSP hash.
 */
import { join } from "node:path";
import { bundledScript, bundleFile, type BundleEntry } from "../../../../src/page/script-bundle.ts";

export const CROPS_PLAYER_BUNDLE: BundleEntry = {
  entry: join("envs", "crops", "src", "page", "player", "main.ts"),
  file: bundleFile("crops-player.bundle.json"),
  globalName: "grCropsPlayerImpl",
  minify: true,
  alias: { zod: "./src/page/player/zod-stub.ts" },
};

export function cropsPlayerScript(): string {
  return `window.grCropsPlayerLoad=function(){${bundledScript(CROPS_PLAYER_BUNDLE)}\nreturn grCropsPlayerImpl;};`;
}
