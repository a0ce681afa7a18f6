/** Remotion entry point (bundled by `render --engine remotion`, `npx remotion studio` and `npx remotion render`). */
import { registerRoot } from "remotion";
// Every environment's compositions and their Studio parts, registered before the root lists them.
import "../../envs/compositions.ts";
import "../../envs/studio.ts";
import { RemotionRoot } from "./Root.tsx";

registerRoot(RemotionRoot);
