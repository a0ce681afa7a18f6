/**
 * The environments' Remotion Studio parts (props' schemas, placeholders, previews), registered
 * with the core's registry (video/env-compositions.ts) by the Remotion entry alone: they load the
 * validators, which the painter's threads (envs/compositions.ts) do not.
 */
import { registerStudioComposition } from "../video/env-compositions.ts";
import { GEOGUESSER_STUDIO } from "./geoguesser/video/studio.ts";

for (const [id, s] of Object.entries(GEOGUESSER_STUDIO)) registerStudioComposition(id, s);
