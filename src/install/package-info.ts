/** The georeplay checkout/install folder (holds video/ and node_modules), found from this module's own location. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "georeplay") return dir;
      } catch {
        /* keep walking */
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("georeplay package root not found above " + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** The installed georeplay's version (its package.json), recorded in batch manifests and printed by --version. */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * The Remotion entry point. Compiled (an installed package, or `npm run build` in a checkout):
 * dist/video/remotion/index.js, which imports only what the package ships (dist/replay). From the
 * TypeScript sources (tests, Studio): video/remotion/index.ts.
 */
export function videoEntryPoint(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".js")) {
    const compiled = join(dirname(dirname(here)), "..", "video", "remotion", "index.js");
    if (existsSync(compiled)) return compiled;
  }
  return join(packageRoot(), "video", "remotion", "index.ts");
}
