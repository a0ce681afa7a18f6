/**
 * The environments' compositions, registered with the core's registry (video/env-compositions.ts).
 * Imported for its effect by every module that builds scenes (the painter, its planning, the
 * text plan, the page's player, the Remotion entry), so each thread that builds one has them,
 * whichever loads first.
 */
import { registerEnvComposition } from "../video/env-compositions.ts";
import { GEOGUESSER_COMPOSITIONS } from "./geoguesser/video/composition.ts";
import { CROPS_GROUP, CROPS_ROLLOUT, cropsGroup, cropsRollout } from "./crops/video/composition.ts";

for (const [id, c] of Object.entries(GEOGUESSER_COMPOSITIONS)) registerEnvComposition(id, c);
registerEnvComposition(CROPS_ROLLOUT, cropsRollout);
registerEnvComposition(CROPS_GROUP, cropsGroup);
