/** Remotion entry point (bundled by `render --engine remotion`, `npx remotion studio` and `npx remotion render`). */
import { registerRoot } from "remotion";
import { RemotionRoot } from "./Root.tsx";

registerRoot(RemotionRoot);
