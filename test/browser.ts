/**
 * The one Chromium launcher every page test uses: Debian's /usr/bin/chromium, headless, no
 * network chatter. `webgl: true` gives the software GL (SwiftShader) the players draw with;
 * without it the GPU is off, as a page without a player needs.
 */
import { chromium, type Browser } from "playwright-core";

const QUIET = [
  "--headless",
  "--no-sandbox",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const NO_GPU = [...QUIET, "--disable-gpu"];
const SOFTWARE_GL = [...QUIET, "--use-angle=swiftshader", "--enable-unsafe-swiftshader"];

export const CHROMIUM = "/usr/bin/chromium";

export function launchChromium(opts: { webgl?: boolean; args?: string[] } = {}): Promise<Browser> {
  const tier = process.env.GEOREPLAY_TEST_TIER;
  if (tier === "unit" || tier === "integration") throw new Error(`test/${tier}/ starts no browser: a test that launches Chromium belongs in test/media/`);
  return chromium.launch({ executablePath: CHROMIUM, args: [...(opts.webgl ? SOFTWARE_GL : NO_GPU), ...(opts.args ?? [])] });
}
