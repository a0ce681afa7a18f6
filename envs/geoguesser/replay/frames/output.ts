/**
 * Where one episode's frames go, and the skeleton every frames run shares
 * (replay and slideshow alike): open the folder (an old timeline goes first,
 * so an interrupted run never leaves one pointing at changed frames), sweep
 * temp files on abort, read the previous manifest, let the caller write the
 * frame files, then write the manifest, remove stale frames, and write
 * `timeline.json` last, atomically.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { GeoreplayError, errorMessage } from "../../../../replay/io/errors.ts";
import { onAbort } from "../../../../replay/io/abort.ts";
import { isTempName, writeAtomic } from "../../../../replay/io/atomic.ts";
import type { Timeline } from "../timeline/timeline-schema.ts";
import type { DeferredFrame, FramesResult, FramesStats } from "./frames-types.ts";
import { sha256 } from "../render/frame-file.ts";
import { slugFor } from "./slug.ts";
export { slugFor };

const MANIFEST_VERSION = 1;

export interface ManifestEntry {
  sha256: string;
  key: string;
}

export interface Manifest {
  version: number;
  files: Record<string, ManifestEntry>;
}

/** Where one episode's output goes. */
export interface OutputPaths {
  slug: string;
  publicDir: string;
  outDir: string;
  framesPath: string;
  timelinePath: string;
  manifestPath: string;
}

/** `framesDir` for the timeline: relative to Remotion's public dir when `out` is inside it, else "frames". */
export function framesDirFor(outDir: string, publicDir: string): string {
  const rel = relative(resolve(publicDir), resolve(outDir, "frames"));
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return "frames";
  return rel.split(sep).join("/");
}

export function fileSha(path: string): string | null {
  try {
    return sha256(readFileSync(path));
  } catch {
    return null;
  }
}

function readManifest(path: string): Manifest {
  try {
    const m = JSON.parse(readFileSync(path, "utf8")) as Manifest;
    if (m && m.version === MANIFEST_VERSION && m.files && typeof m.files === "object") return m;
  } catch {
    /* missing or unreadable: start over */
  }
  return { version: MANIFEST_VERSION, files: {} };
}

export function manifestText(files: Map<string, ManifestEntry>): string {
  const sorted = [...files.keys()].sort();
  return JSON.stringify({ version: MANIFEST_VERSION, files: Object.fromEntries(sorted.map((k) => [k, files.get(k)])) }, null, 1) + "\n";
}

/** Removes temp files of frame writes (`.NNNNNN.jpg.tmp-*`, `.manifest.json.tmp-*`) left by an interrupted run. */
export function sweepTemps(framesPath: string): void {
  let names: string[];
  try {
    names = readdirSync(framesPath);
  } catch {
    return;
  }
  for (const name of names) if (isTempName(name)) rmSync(join(framesPath, name), { force: true });
}

/** Where one episode's output goes (nothing is created). */
export function outputPaths(opts: { out?: string; publicDir?: string }, episodeId: string): OutputPaths {
  const slug = slugFor(episodeId);
  const publicDir = resolve(opts.publicDir ?? join(process.cwd(), "public"));
  const outDir = resolve(opts.out ?? join(publicDir, "rollouts", slug));
  const framesPath = join(outDir, "frames");
  return { slug, publicDir, outDir, framesPath, timelinePath: join(outDir, "timeline.json"), manifestPath: join(framesPath, "manifest.json") };
}

/** Creates the output folder; an old timeline goes first, so an interrupted run never leaves one that points at changed frames. */
function openOutput(opts: { out?: string; publicDir?: string }, episodeId: string): OutputPaths {
  const out = outputPaths(opts, episodeId);
  const { outDir, framesPath, timelinePath } = out;
  try {
    mkdirSync(framesPath, { recursive: true });
  } catch (e) {
    throw new GeoreplayError(`--out ${opts.out ?? outDir}: cannot create ${framesPath} (${errorMessage(e)})`);
  }
  rmSync(timelinePath, { force: true });
  return out;
}

/** Frames of an older, longer plan and temp files of interrupted runs are removed. */
function removeStale(framesPath: string, manifest: Map<string, unknown>): void {
  for (const name of readdirSync(framesPath)) {
    const stale = (/^\d{6}\.jpg$/.test(name) && !manifest.has(name)) || isTempName(name);
    if (stale) rmSync(join(framesPath, name), { force: true });
  }
}

/** The frame files written so far and what the previous run left. */
export interface FrameFiles {
  out: OutputPaths;
  /** This run's manifest: file -> sha256 and the key that produced it. */
  manifest: Map<string, ManifestEntry>;
  /** The previous run's entry for `file`, when it is still on disk unchanged and was made with `key`. */
  reusable(file: string, key: string): ManifestEntry | null;
  /** True when the previous run wrote exactly these bytes (by sha256) to `file` and they are still there. */
  unchanged(file: string, sha: string): boolean;
  /** Saves the manifest now (serialised; failures ignored: the final save reports). */
  saveSoon(): void;
}

/**
 * The shared skeleton. `write` writes the frame files and returns the
 * timeline; the manifest, stale-file removal and the timeline file follow.
 */
export async function withFrameOutput<T extends { timeline: Timeline }>(
  opts: { out?: string; publicDir?: string; signal?: AbortSignal },
  episodeId: string,
  write: (files: FrameFiles) => Promise<T>,
): Promise<T & { out: OutputPaths }> {
  const out = openOutput(opts, episodeId);
  const offSweep = onAbort(opts.signal, () => sweepTemps(out.framesPath));
  try {
    const old = readManifest(out.manifestPath);
    const manifest = new Map<string, ManifestEntry>();
    let saving: Promise<void> = Promise.resolve();
    const files: FrameFiles = {
      out,
      manifest,
      reusable(file, key) {
        const prev = old.files[file];
        return prev && prev.key === key && fileSha(join(out.framesPath, file)) === prev.sha256 ? prev : null;
      },
      unchanged(file, sha) {
        return old.files[file]?.sha256 === sha && fileSha(join(out.framesPath, file)) === sha;
      },
      saveSoon() {
        saving = saving.then(() => writeAtomic(out.manifestPath, manifestText(manifest))).catch(() => undefined);
      },
    };
    const result = await write(files);
    await saving;
    await writeAtomic(out.manifestPath, manifestText(manifest));
    removeStale(out.framesPath, manifest);
    await writeAtomic(out.timelinePath, JSON.stringify(result.timeline, null, 1) + "\n");
    return { ...result, out };
  } finally {
    offSweep();
  }
}

/** What a frames run returns, from its output and its counts: one shape for replays and slideshows. */
export function framesResult(
  done: { timeline: Timeline; out: OutputPaths },
  stats: FramesStats,
  warnings: string[],
  deferred: DeferredFrame[] = [],
): FramesResult {
  return { timelinePath: done.out.timelinePath, timeline: done.timeline, slug: done.out.slug, outDir: done.out.outDir, stats, warnings, deferred };
}
