import { defineConfig } from "vitest/config";
import { failOnUnhandled } from "./test/known-races.ts";

/**
 * The fast tiers, one folder each (test/unit/architecture.test.ts holds every test file to one):
 *   unit   pure: nothing built, no browser, no ffmpeg (seconds: `npm run test:unit`)
 *   integration  the engine and the built CLI (dist/) on real fixtures: renders, reads, runs
 *   media  Chromium and ffmpeg (one launcher: test/browser.ts)
 * test/slow/ has its own config (vitest.slow.config.ts). A test in the wrong tier fails loudly:
 * runCli and launchChromium refuse in the tiers that must not need them, and the unit tier's
 * ffmpeg is a path that does not exist.
 */
const tier = (name: "unit" | "integration" | "media", env: Record<string, string> = {}) => ({
  extends: true as const,
  // Unit tests are light: both cores at once. The others share the machine with a browser or ffmpeg.
  test: { name, include: [`test/${name}/**/*.test.ts`], env: { GEOREPLAY_TEST_TIER: name, ...env }, fileParallelism: name === "unit" },
});

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores: renders and browsers are heavy; keep files from fighting over them.
    fileParallelism: false,
    // A third party's known race is ignored; any other unhandled error fails the run.
    onUnhandledError: failOnUnhandled,
    projects: [tier("unit", { GEOREPLAY_FFMPEG: "/nonexistent/the-unit-tier-runs-no-ffmpeg" }), tier("integration"), tier("media")],
  },
});
