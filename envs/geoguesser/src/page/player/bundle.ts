/**
 * The player's script: envs/geoguesser/src/page/player/main.ts bundled on its own (esbuild,
 * recorded by `npm run build` like the page client) and wrapped in a
 * function, so a page nobody plays only parses it: nothing of it runs until
 * the first play calls `grPlayerLoad()`. Inlined before the client, under
 * the same CSP hash.
 */
import { join } from "node:path";
import { bundledScript, bundleFile, type BundleEntry } from "../../../../../src/page/script-bundle.ts";

export const PLAYER_BUNDLE: BundleEntry = {
  entry: join("envs", "geoguesser", "src", "page", "player", "main.ts"),
  file: bundleFile("player.bundle.json"),
  globalName: "grPlayerImpl",
  minify: true,
  alias: { zod: "./src/page/player/zod-stub.ts" },
};

export function playerScript(): string {
  return `window.grPlayerLoad=function(){${bundledScript(PLAYER_BUNDLE)}\nreturn grPlayerImpl;};`;
}
