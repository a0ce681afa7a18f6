/** The crops page's one script (src/page/crops/client/), bundled like the core page client (src/page/script-bundle.ts). */
import { join } from "node:path";
import { bundledScript, bundleFile, type BundleEntry } from "../script-bundle.ts";

export const CROPS_CLIENT_BUNDLE: BundleEntry = { entry: join("src", "page", "crops", "client", "main.ts"), file: bundleFile("crops-client.bundle.json") };

export const cropsClientScript = (): string => bundledScript(CROPS_CLIENT_BUNDLE);
