/**
 * The environments' compositions, registered with the core's registry (video/env-compositions.ts).
 * Imported for its effect by every module that builds scenes (the painter, its planning, the
 * text plan), so each thread that builds one has them, whichever loads first.
 */
import { registerEnvComposition } from "../video/env-compositions.ts";
import { CROPS_GROUP, CROPS_ROLLOUT, cropsGroup, cropsRollout } from "./crops/video/composition.ts";

registerEnvComposition(CROPS_ROLLOUT, cropsRollout);
registerEnvComposition(CROPS_GROUP, cropsGroup);
