/**
 * The page's one script: the modules under ../client/ (ordinary TypeScript,
 * typed from the page model), bundled by esbuild into one IIFE that the page
 * inlines and pins by its hash in the CSP.
 *
 * When bundling happens: `npm run build` bundles once (scripts/bundle-client.mjs)
 * into dist/src/page/client.bundle.json, with the sha256 of every input file,
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
import { writeFileAtomic } from "../../../replay/io/atomic.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
/** The recorded bundle: beside the compiled page writer (dist/src/page/), absent in the sources. */
const BUNDLE_FILE = join(HERE, "..", "client.bundle.json");
const ENTRY = join("src", "page", "client", "main.ts");

interface ClientBundle {
  /** esbuild's version, for the record. */
  esbuild: string;
  /** Every input file (relative to the repository root) and its sha256. */
  inputs: Record<string, string>;
  script: string;
}

/** The repository root holding the client sources: src/page/view -> ../../.., dist/src/page/view -> ../../../.. */
function sourceRoot(): string | null {
  for (const up of [
    ["..", "..", ".."],
    ["..", "..", "..", ".."],
  ]) {
    const root = join(HERE, ...up);
    if (existsSync(join(root, ENTRY))) return root;
  }
  return null;
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Bundles the client sources with esbuild (a dev dependency: loaded only here); `globalName` makes the IIFE return the entry's exports into that variable. */
export function bundleClient(root: string, entry = ENTRY, opts: Pick<BundleEntry, "globalName" | "minify" | "alias"> = {}): ClientBundle {
  const require = createRequire(import.meta.url);
  let esbuild: typeof import("esbuild");
  try {
    esbuild = require("esbuild");
  } catch {
    throw new Error("the page client is not bundled: run `npm run build` (or install esbuild, a dev dependency)");
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
  if (/<\/script|<!--/i.test(script)) throw new Error("the bundled page client contains </script or <!--");
  const inputs: Record<string, string> = {};
  for (const p of Object.keys(r.metafile.inputs).sort()) inputs[p] = sha256(join(root, p));
  return { esbuild: esbuild.version, inputs, script };
}

function recordedBundle(file: string): ClientBundle | null {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8")) as ClientBundle;
}

/** The recorded bundle still matches these sources (every input present and unchanged). */
function isCurrent(b: ClientBundle, root: string): boolean {
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

const CLIENT: BundleEntry = { entry: ENTRY, file: BUNDLE_FILE };
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
  else script = bundleClient(root, b.entry, b).script;
  cached.set(b.file, script);
  return script;
}

/** The page file's own bundle path for a name (dist/src/page/<name> when compiled). */
export const bundleFile = (name: string): string => join(HERE, "..", name);

/** The script's text as inlined into the page (its hash goes into the CSP). */
export function clientScript(): string {
  return bundledScript(CLIENT);
}

/** `npm run build`'s bundling step: records a bundle (default: the page client) beside the compiled page writer. */
export function writeClientBundle(b: BundleEntry = CLIENT): string {
  const root = sourceRoot();
  if (root === null) throw new Error("the page client sources (src/page/client) are not there to bundle");
  const out = bundleClient(root, b.entry, b);
  writeFileAtomic(b.file, JSON.stringify(out) + "\n");
  return b.file;
}
