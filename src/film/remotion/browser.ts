/**
 * Which Chromium renders the video. Remotion would otherwise download Chrome
 * Headless Shell at render time, which fails offline; so the browser is
 * always given explicitly: $GEOREPLAY_CHROMIUM, then Debian's /usr/bin/chromium.
 */
import { statSync } from "node:fs";
import { GeoreplayError } from "../../../replay/io/errors.ts";

export const BROWSER_ENV = "GEOREPLAY_CHROMIUM";
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";
/** Every browser-opening call gets this mode (`--headless=new`; works with Debian's Chromium). */
export const CHROME_MODE = "chrome-for-testing" as const;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function resolveBrowser(env: NodeJS.ProcessEnv = process.env, systemPaths: string[] = [SYSTEM_CHROMIUM]): string {
  const fromEnv = env[BROWSER_ENV];
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!isFile(fromEnv))
      throw new GeoreplayError(`${BROWSER_ENV}=${fromEnv}: no such file; point it at a Chromium or Chrome binary, or unset it to use ${SYSTEM_CHROMIUM}`);
    return fromEnv;
  }
  for (const p of systemPaths) if (isFile(p)) return p;
  throw new GeoreplayError(
    `no Chromium found to render the video (looked at $${BROWSER_ENV} and ${systemPaths.join(", ")}). ` +
      `Install Debian's: apt-get install chromium (or set ${BROWSER_ENV} to a Chromium/Chrome binary)`,
  );
}
