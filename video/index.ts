/** Remotion entry point (bundled by `georeplay render`, `npx remotion studio` and `npx remotion render`). */
import { registerRoot } from "remotion";
import { RemotionRoot } from "./Root.tsx";

registerRoot(RemotionRoot);
