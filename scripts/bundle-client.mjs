// `npm run build`, after tsc: bundles GeoGuesser's page client (envs/geoguesser/src/page/client/*.ts) and its in-page player
// (envs/geoguesser/src/page/player/main.ts), and the crops page's client and player, with esbuild into dist/src/page/*.bundle.json, so the installed package
// needs no esbuild at run time.
import { writeBundle } from "../dist/src/page/script-bundle.js";
import { CLIENT_BUNDLE } from "../dist/envs/geoguesser/src/page/view/client.js";
import { PLAYER_BUNDLE } from "../dist/envs/geoguesser/src/page/player/bundle.js";
import { CROPS_CLIENT_BUNDLE } from "../dist/envs/crops/src/page/client-bundle.js";
import { CROPS_PLAYER_BUNDLE } from "../dist/envs/crops/src/page/player-bundle.js";

for (const file of [writeBundle(CLIENT_BUNDLE), writeBundle(PLAYER_BUNDLE), writeBundle(CROPS_CLIENT_BUNDLE), writeBundle(CROPS_PLAYER_BUNDLE)])
  process.stderr.write(`bundled ${file}\n`);
