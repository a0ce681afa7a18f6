// Lint: typescript-eslint's recommended rules everywhere; Remotion's own config for the
// composition (video/), which adds React, hooks and Remotion's rules (no network fetches in
// frames, staticFile, composition ids). Formatting is prettier's job, not eslint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { makeConfig } from "@remotion/eslint-config-flat";

const VIDEO = ["video/**/*.{ts,tsx}"];
const NODE = ["src/**/*.ts", "replay/**/*.ts", "envs/**/*.ts", "test/**/*.{ts,mjs}", "bench/**/*.ts", "scripts/**/*.{js,mjs}", "*.ts", "*.js"];
// Remotion's config brings its own typescript-eslint: it applies to video/ only, ours to the rest.
const remotion = makeConfig({ remotionDir: VIDEO[0] }).map((c) => ({ ...c, files: c.files ?? VIDEO }));
const scoped = (configs) => configs.map((c) => ({ ...c, files: c.files ?? NODE }));

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "out/**", "public/**", "bench/.cache/**", "scratch/**", "test/fixtures/**", "**/*.d.ts"] },
  js.configs.recommended,
  ...scoped(tseslint.configs.recommended),
  {
    files: NODE,
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        performance: "readonly",
        structuredClone: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        queueMicrotask: "readonly",
        document: "readonly",
        window: "readonly",
        location: "readonly",
        history: "readonly",
        navigator: "readonly",
        localStorage: "readonly",
        matchMedia: "readonly",
        requestAnimationFrame: "readonly",
        IntersectionObserver: "readonly",
        HTMLElement: "readonly",
        Event: "readonly",
        KeyboardEvent: "readonly",
        getComputedStyle: "readonly",
        CSS: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Empty catch blocks carry a comment saying why the failure is fine.
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    // Tests read loosely typed JSON reports and fixtures.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
  ...remotion,
);
