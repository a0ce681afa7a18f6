import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/slow/**", "node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores: renders and browsers are heavy; keep files from fighting over them.
    fileParallelism: false,
  },
});
