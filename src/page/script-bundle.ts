/**
 * A browser script bundled from one entry module by esbuild, inlined into
 * pages and pinned by its hash in the CSP (the page client, view/client.ts;
 * the player, player/bundle.ts).
 *
 * When bundling happens: `npm run build` bundles once (scripts/bundle-client.mjs)
 * into dist/src/page/<name>.bundle.json, with the sha256 of every input file,
 * so the installed package needs no esbuild at run time. A checkout whose
 * sources differ from the recorded inputs (or runs from sources, e.g. vitest
 * or tsx) bundles them afresh with esbuild, a dev dependency. Same sources,
 * same esbuild version, same bytes either way.
 */
import { existsSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../../replay/io/atomic.ts";

const HERE = dirname(fileURLToPath(import.meta.url));

export interface ScriptBundle {
  /** esbuild's version, for the record. */
  esbuild: string;
  /** Every input file (relative to the repository root) and its sha256. */
  inputs: Record<string, string>;
  script: string;
}

/** The repository root holding the page sources: src/page -> ../.., dist/src/page -> ../../.. (none in an installed package). */
function sourceRoot(): string | null {
  for (const up of [
    ["..", ".."],
    ["..", "..", ".."],
  ]) {
    const root = join(HERE, ...up);
    if (existsSync(join(root, "src", "page", "script-bundle.ts"))) return root;
  }
  return null;
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Bundles an entry's sources with esbuild (a dev dependency: loaded only here); `globalName` makes the IIFE return the entry's exports into that variable. */
export function bundleScript(root: string, entry: string, opts: Pick<BundleEntry, "globalName" | "minify" | "alias"> = {}): ScriptBundle {
  const require = createRequire(import.meta.url);
  let esbuild: typeof import("esbuild");
  try {
    esbuild = require("esbuild");
  } catch {
    throw new Error(`${entry} is not bundled: run \`npm run build\` (or install esbuild, a dev dependency)`);
  }
  const r = esbuild.buildSync({
    absWorkingDir: root,
    entryPoints: [entry],
    ...(opts.globalName ? { globalName: opts.globalName } : {}),
    ...(opts.alias ? { alias: opts.alias } : {}),
    minify: opts.minify ?? false,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    charset: "ascii",
    legalComments: "none",
    // Module comments name node_modules where the checkout has it, not where a symlinked node_modules really lives: same bytes from any checkout.
    preserveSymlinks: true,
    logLevel: "silent",
  });
  // markdown-it's HTML patterns hold "<!--" in template literals: \x3C is the same character in a string,
  // template or regular expression, and keeps the HTML parser from reading a comment start (esbuild leaves
  // such text only in those places: comments are dropped and code never contains it).
  const script = r.outputFiles[0].text
    .trimEnd()
    .replace(/<!--/g, "\\x3C!--")
    .replace(/<\/script/gi, "\\x3C/script");
  // The script sits inline in the page: it must not be able to end its own element.
  if (/<\/script|<!--/i.test(script)) throw new Error(`the bundled ${entry} contains </script or <!--`);
  const inputs: Record<string, string> = {};
  for (const p of Object.keys(r.metafile.inputs).sort()) inputs[p] = sha256(join(root, p));
  return { esbuild: esbuild.version, inputs, script };
}

function recordedBundle(file: string): ScriptBundle | null {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8")) as ScriptBundle;
}

/** The recorded bundle still matches these sources (every input present and unchanged). */
function isCurrent(b: ScriptBundle, root: string): boolean {
  return Object.entries(b.inputs).every(([p, h]) => existsSync(join(root, p)) && sha256(join(root, p)) === h);
}

/** A script bundled from one entry: recorded by `npm run build` beside the compiled page writer, else bundled afresh. */
export interface BundleEntry {
  /** Entry module, relative to the repository root. */
  entry: string;
  /** Recorded bundle's file name in dist/src/page/. */
  file: string;
  globalName?: string;
  /** Minified (the player's bundle carries the video's scene code, zod and d3-geo: 1 MB as written). */
  minify?: boolean;
  /** Packages replaced by a module of the repository (relative path), e.g. the player's inert zod. */
  alias?: Record<string, string>;
}

const cached = new Map<string, string>();

/** The script's text of an entry (recorded bundle when current, else bundled from the sources). */
export function bundledScript(b: BundleEntry): string {
  const hit = cached.get(b.file);
  if (hit !== undefined) return hit;
  const recorded = recordedBundle(b.file);
  const root = sourceRoot();
  let script: string;
  if (recorded && (root === null || isCurrent(recorded, root))) script = recorded.script;
  else if (root === null) throw new Error(`the page bundle ${b.file} is missing: reinstall georeplay`);
  else script = bundleScript(root, b.entry, b).script;
  cached.set(b.file, script);
  return script;
}

/** The page writer's own bundle path for a name (dist/src/page/<name> when compiled, absent in the sources). */
export const bundleFile = (name: string): string => join(HERE, name);

/** `npm run build`'s bundling step: records a bundle beside the compiled page writer. */
export function writeBundle(b: BundleEntry): string {
  const root = sourceRoot();
  if (root === null) throw new Error("the page sources (src/page) are not there to bundle");
  const out = bundleScript(root, b.entry, b);
  writeFileAtomic(b.file, JSON.stringify(out) + "\n");
  return b.file;
}
