import { defineConfig } from "vitest/config";
import { failOnUnhandled } from "./test/known-races.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/slow/**", "node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores: renders and browsers are heavy; keep files from fighting over them.
    fileParallelism: false,
    // A third party's known race is ignored; any other unhandled error fails the run.
    onUnhandledError: failOnUnhandled,
  },
});
