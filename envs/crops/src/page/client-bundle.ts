/** The crops page's one script (envs/crops/src/page/client/), bundled like the core page client (src/page/script-bundle.ts). */
import { join } from "node:path";
import { bundledScript, bundleFile, type BundleEntry } from "../../../../src/page/script-bundle.ts";

export const CROPS_CLIENT_BUNDLE: BundleEntry = {
  entry: join("envs", "crops", "src", "page", "client", "main.ts"),
  file: bundleFile("crops-client.bundle.json"),
};

export const cropsClientScript = (): string => bundledScript(CROPS_CLIENT_BUNDLE);
