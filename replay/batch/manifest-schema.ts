/**
 * `manifest.json` of a batch folder: every video written there, what it was
 * made from (inputs and their digest), how (options), what it shows (episodes,
 * verification) and the sha256 of the file. A rerun skips a video whose entry
 * has the same inputs digest and options and whose file still has that sha256.
 */
import { z } from "zod";

export const MANIFEST_VERSION = 1;

export const VIDEO_FORMATS = ["mp4", "webm", "gif", "webp"] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

export const ManifestInput = z.object({
  /** record: one episode's line (sha256 of its validated content); tasks / panorama / image / ground_truth (a crops dataset's gt.jsonl): a file (size and mtime). */
  role: z.enum(["record", "tasks", "panorama", "image", "ground_truth"]),
  path: z.string(),
  line: z.number().int().nullable(),
  bytes: z.number().int().nullable(),
  mtime_ms: z.number().int().nullable(),
  sha256: z.string().nullable(),
});
export type ManifestInput = z.infer<typeof ManifestInput>;

/** The options that shape the file: a change re-renders it. */
export const ManifestOptions = z.object({
  format: z.enum(VIDEO_FORMATS),
  width: z.number().int(),
  height: z.number().int(),
  fps: z.number().int(),
  unverified: z.boolean(),
  max_mb: z.number().nullable(),
  poster_frame: z.number().int().nullable(),
  backend: z.string(),
  generator: z.string(),
});
export type ManifestOptions = z.infer<typeof ManifestOptions>;

export const ManifestSide = z.object({
  episode_id: z.string(),
  arm: z.string(),
  pass: z.number().nullable(),
  source: z.enum(["replay", "slideshow"]),
  verified: z.boolean(),
  views: z.object({ checked: z.number().int(), match: z.number().int(), resolved: z.number().int(), mismatch: z.number().int() }).nullable(),
});
export type ManifestSide = z.infer<typeof ManifestSide>;

export const ManifestVideo = z.object({
  file: z.string(),
  kind: z.enum(["rollout", "compare"]),
  episode_ids: z.array(z.string()),
  task: z.object({ split: z.string(), index: z.number(), delta: z.number() }).nullable(),
  inputs: z.object({ digest: z.string(), files: z.array(ManifestInput) }),
  options: ManifestOptions,
  sides: z.array(ManifestSide),
  /** Frames, rate and size of the written file (a GIF/WebP fitted to --max-mb may have fewer than the render). */
  frames: z.number().int(),
  fps: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  duration_s: z.number(),
  bytes: z.number().int(),
  sha256: z.string(),
  poster: z.object({ file: z.string(), frame: z.number().int(), sha256: z.string() }).nullable(),
  /** What the writer changed to fit (fps and size lowered for --max-mb), or could not. */
  notes: z.array(z.string()),
  rendered_at: z.string(),
  render_s: z.number(),
});
export type ManifestVideo = z.infer<typeof ManifestVideo>;

export const ManifestFailure = z.object({
  file: z.string(),
  kind: z.enum(["drift", "input", "render"]),
  message: z.string(),
  at: z.string(),
});
export type ManifestFailure = z.infer<typeof ManifestFailure>;

export const BatchManifestSchema = z.object({
  version: z.literal(MANIFEST_VERSION),
  /** Sorted by file. */
  videos: z.array(ManifestVideo),
  /** The last run's failures (a later success removes its entry). */
  failures: z.array(ManifestFailure),
});
export type BatchManifest = z.infer<typeof BatchManifestSchema>;
