import { defineConfig } from "vitest/config";
import { failOnUnhandled } from "./test/known-races.ts";

// Slow tests: large generated runs, interruptions of real processes, full renders.
export default defineConfig({
  test: {
    include: ["test/slow/**/*.test.ts"],
    testTimeout: 900_000,
    hookTimeout: 1_200_000,
    fileParallelism: false,
    passWithNoTests: false,
    // A third party's known race is ignored; any other unhandled error fails the run.
    onUnhandledError: failOnUnhandled,
  },
});
