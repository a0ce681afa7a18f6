/**
 * Registers GeoGuesser's compositions alone, for what paints only GeoGuesser's videos and should
 * carry no other environment's scenes: the public `georeplay/video` API and the page's player
 * (whose bundle would otherwise hold every environment's). The seam (envs/compositions.ts)
 * registers the same ones, with every other environment's, for the engines.
 */
import { registerEnvComposition } from "../../../video/env-compositions.ts";
import { GEOGUESSER_COMPOSITIONS } from "./composition.ts";

for (const [id, c] of Object.entries(GEOGUESSER_COMPOSITIONS)) registerEnvComposition(id, c);
