/**
 * The page's one script: the modules under ../client/ (ordinary TypeScript,
 * typed from the page model), bundled by esbuild into one IIFE that the page
 * inlines and pins by its hash in the CSP (how and when: ../script-bundle.ts).
 */
import { join } from "node:path";
import { bundledScript, bundleFile, type BundleEntry } from "../../../../../src/page/script-bundle.ts";

export const CLIENT_BUNDLE: BundleEntry = { entry: join("envs", "geoguesser", "src", "page", "client", "main.ts"), file: bundleFile("client.bundle.json") };

/** The script's text as inlined into the page (its hash goes into the CSP). */
export function clientScript(): string {
  return bundledScript(CLIENT_BUNDLE);
}
