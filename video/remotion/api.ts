/**
 * `georeplay/video/remotion`: every environment's compositions (GeoGuesser's `Rollout`, `Compare`
 * and `Group`, crops' `CropsRollout` and `CropsGroup`), to register in another Remotion project
 * (needs remotion and react installed): `<RemotionRoot />` registers them all, or
 * `<Composition component={compositionComponent("Rollout")} … />` one, with props written by
 * `georeplay frames` (a timeline.json or props.json), its frame files in your public dir.
 */
import "../../envs/compositions.ts";
import "../../envs/studio.ts";

export { RemotionRoot, compositionComponent } from "./Root.tsx";
