/**
 * The page's data layer: turns one verified episode into what the page shows
 * (episode header, list-row fields, one entry per turn, maps) plus the numbers
 * the run summary aggregates. No HTML here; every string stays raw and is
 * escaped by the view layer where it is written.
 */
import { basename, relative, sep } from "node:path";
import { readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import type { ErroredEpisodeInfo, VerifiedEpisode, ViewOutcome } from "../../replay/verify/verify.ts";
import type { Episode, Turn } from "../../replay/schema/episode.ts";
import type { RecordFormat } from "../../replay/formats/records.ts";
import type { TrainInfo } from "../../replay/formats/train.ts";
import { mapSpec, TURN_BADGE_BOX, type MapSpec } from "../../../../src/page/geo.ts";
import type { Rect } from "../../../../video/map/labels.ts";
import { pinsFrame, revealFrame, type LatLon } from "../../../../video/map/frame.ts";
import { numOrNull, toolCall, turnFailed, turnGuessed } from "../../replay/rules/turns.ts";
import { geoevalReward } from "../../replay/rules/reward.ts";
import { guessFromActions } from "../../replay/frames/build-timeline.ts";

/** The shared tool-call rule, re-exported for the page's users. */
export { toolCall };
import type { EpisodeStats } from "./stats.ts";

/** A view turn's camera on an embedded panorama: the browser reprojects it (approximate; the exact bytes were verified at build). */
export interface PanoRef {
  /** Index into the page's panorama table. */
  pano: number;
  /** Absolute heading (camera heading + the frame's compass angle), pitch and fov, degrees. */
  heading: number;
  pitch: number;
  fov: number;
}

/** A verified view's status, or "recorded" for an example-rollout image shown as recorded (nothing to verify). */
export type CheckStatus = ViewOutcome["status"] | "recorded";

export interface PageTurn {
  turn: number;
  status: string;
  /** The turn never reached the environment (or was rejected): it repeats the previous observation. */
  failed: boolean;
  kind: "view" | "map" | "none";
  /** Index into the page's image table, or null (map turns, unrecoverable views). */
  image: number | null;
  check: CheckStatus | null;
  /** Why a view shows no image or a mismatch badge (digest prefixes, renderer error). */
  checkNote: string | null;
  /** A mismatch: the recorded digest and the re-render's, in full (the record holds only the hash, never the image). */
  hashes?: { recorded: string; rendered: string | null };
  /** Example-rollout rows recorded only heading and fov. */
  camera: { heading: number | null; pitch: number | null; fov: number | null; frame: number | null } | null;
  /** Example-rollout: the recorded image file was overwritten by a later episode of the same task. */
  overwritten: boolean;
  call: string | null;
  stepsLeft: number | null;
  cost: number | null;
  movedM: number | null;
  feedback: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyS: number | null;
  errors: string[];
  reply: string | null;
  reasoning: string | null;
  finish: string | null;
  map: MapSpec | null;
  reward: number | null;
  /** The prompt the environment gave the model this turn (its observation text). */
  prompt: string | null;
  /** Board pages: the view's camera on an embedded panorama (the browser reprojects it). */
  pano?: PanoRef | null;
  /** Board pages: the turn's map in its task chunk's map table (each distinct map stored once there). */
  mapRef?: number | null;
  /** Board pages cut replies and reasoning: their full lengths. */
  replyChars?: number;
  reasoningChars?: number;
  promptChars?: number;
}

export interface PageEpisode {
  id: string;
  format: RecordFormat;
  /** Training rollouts: the run and step they came from, and whether they guessed. */
  train: { run: string; step: number; guessed: boolean | null } | null;
  model: string;
  source: string; // file:line
  split: string;
  index: number;
  /** task.task_id, when recorded. */
  taskId: string | null;
  sample: number | null;
  country: string | null;
  recordedAt: string | null;
  mode: string | null;
  verdict: string | null;
  /** The environment's stored outcome.reward ("env reward"); null = unscored, left out of geoeval's report. */
  reward: number | null;
  /** geoeval's recomputed reward (envs/geoguesser/replay/rules/reward.ts): what every mean-of-k averages. */
  score: number;
  distanceKm: number | null;
  guess: LatLon | null;
  truth: LatLon | null;
  guessCountry: string | null;
  cost: number | null;
  turnsUsed: number;
  /**
   * Filterable states: mismatch, view-error, forced-guess, no-guess, unparseable, provider-error, invalid-action,
   * overwritten-images, errored (the environment failed: no turns); clean when none of them.
   */
  flags: string[];
  views: { match: number; resolved: number; mismatch: number; error: number };
  credit: { creator: string | null; licence: string | null; source: string | null };
  errors: string[];
  /** The episode's `config` as recorded (mode, prompt_version, max_turns, ...): scalar values only. */
  config: Record<string, string | number | boolean | null> | null;
  /** The model's settings as recorded (`model`: provider, model, temperature, max_tokens, thinking, ...): scalar values only. */
  settings: Record<string, string | number | boolean | null> | null;
  /** Over the episode: tokens and model latency (outcome's totals, else the turns' sums); null when not recorded. */
  tokensIn: number | null;
  tokensOut: number | null;
  latencyS: number | null;
  outcomeMap: MapSpec | null;
  turns: PageTurn[];
  /** Board pages and folder run pages: what the browser plans this episode's video from (absent: it does not play). */
  play?: PlayRecord;
}

/** Resolves a rendered view to its image-table index (stored once per distinct digest). */
export type ImageIndexer = (digest: string, jpeg: Buffer) => Promise<number>;

function errorText(e: unknown): string {
  if (typeof e === "string") return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** The map after the guess: the only turn whose map may show the truth. */
function isRevealTurn(t: Turn, ep: Episode): boolean {
  return turnGuessed(t) && Boolean(ep.outcome?.guess && ep.outcome?.truth);
}

function turnMap(t: Turn, ep: Episode, paths: boolean): MapSpec | null {
  if (t.image_kind !== "map") return null;
  const pins = (t.pins ?? []) as LatLon[];
  // The turn's badge sits over the map's top left corner: no name or pin goes under it.
  if (isRevealTurn(t, ep)) return outcomeMap(ep, pins, [TURN_BADGE_BOX], paths);
  const frame = pinsFrame(pins) ?? { center: [20, 0] as [number, number], halfWidthDeg: 80 };
  return mapSpec(frame, pins, null, null, [TURN_BADGE_BOX], paths);
}

/** What an episode's outcome map marks: the last turn's pins, its guess and the truth. */
export function outcomeMarks(ep: Episode): { pins: LatLon[]; guess: LatLon | null; truth: LatLon | null } {
  const pins = (ep.turns[ep.turns.length - 1]?.pins ?? []) as LatLon[];
  return { pins, guess: (ep.outcome?.guess as LatLon | undefined) ?? null, truth: (ep.outcome?.truth as LatLon | undefined) ?? null };
}

function outcomeMap(ep: Episode, pins: LatLon[] = [], keepClear: Rect[] = [], paths = true): MapSpec | null {
  const g = ep.outcome?.guess;
  const t = ep.outcome?.truth;
  if (!t) return null;
  if (!g) return mapSpec({ center: [t[0], t[1]], halfWidthDeg: 12 }, pins, null, t, keepClear, paths);
  return mapSpec(revealFrame(g, t), pins, g, t, keepClear, paths);
}

/**
 * How a page names a record's file: its path relative to the input folder it
 * was found under (a board's files are all called episodes.jsonl), else its
 * name; never a local absolute path (pages get shared).
 */
export function sourceName(file: string, inputs: readonly string[]): string {
  for (const root of inputs) {
    const rel = relative(root, file);
    if (rel && !rel.startsWith("..") && !rel.startsWith(sep) && rel !== file) return rel.split(sep).join("/");
  }
  return basename(file);
}

function scalarConfig(c: unknown): PageEpisode["config"] {
  if (typeof c !== "object" || c === null) return null;
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(c as Record<string, unknown>)) {
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
    else out[k] = JSON.stringify(v);
  }
  return out;
}

export async function pageEpisode(
  v: VerifiedEpisode,
  imageFor: ImageIndexer,
  inputs: readonly string[] = [],
  /** false: maps without their land and borders (a page that cuts them from its cells: geo.ts sharedGeometry), not computed at all. */
  mapPaths = true,
): Promise<{ page: PageEpisode; stats: EpisodeStats }> {
  const ep = v.episode;
  const byTurn = new Map<number, ViewOutcome>();
  for (const o of v.views) byTurn.set(o.turn, o);
  const views = { match: 0, resolved: 0, mismatch: 0, error: 0 };
  const flags = new Set<string>();
  let modelErrors = 0;

  const recordedByTurn = new Map(v.images.map((r) => [r.turn, r]));
  let recorded = 0;

  const turns: PageTurn[] = [];
  for (const t of ep.turns) {
    const o = byTurn.get(t.turn) ?? null;
    const rec = recordedByTurn.get(t.turn) ?? null;
    let image: number | null = null;
    let hashes: PageTurn["hashes"];
    let checkNote: string | null = null;
    if (rec) {
      // Example-rollout folders: the image file is the record, shown as it is (downscaled like every view).
      try {
        const bytes = await readFile(rec.path);
        image = await imageFor(`rec:${createHash("sha256").update(bytes).digest("hex")}`, bytes);
        recorded++;
      } catch {
        checkNote = "the recorded image file is missing or unreadable (see the episode's errors)";
      }
      if (!rec.trustworthy) {
        flags.add("overwritten-images");
        checkNote = `a later episode of task ${ep.task.index} overwrote this file: the image shows that episode's turn ${t.turn}, not this one's`;
      }
    } else if (o) {
      if (o.status === "resolved") views.resolved++;
      if (o.status === "match" || o.status === "resolved") views.match++;
      else if (o.status === "mismatch") views.mismatch++;
      else views.error++;
      if (o.jpeg && o.rendered) image = await imageFor(o.rendered, o.jpeg);
      if (o.status === "mismatch") {
        checkNote = `recorded ${o.recorded.slice(0, 12)}…, re-rendered ${(o.rendered ?? "").slice(0, 12)}…: this is not the image the model saw`;
        hashes = { recorded: o.recorded, rendered: o.rendered ?? null };
      }
      if (o.status === "error") checkNote = o.error ?? "the view could not be rendered";
    } else if (t.image_kind === "view") {
      checkNote = t.image_sha256 ? "not checked (see the episode's errors)" : "no recorded hash: the view cannot be verified";
    }
    const m = t.model ?? null;
    const errors = (m?.errors ?? []).map(errorText);
    if (t.status === "provider_error" || errors.length) modelErrors++;
    if (t.status === "unparseable") flags.add("unparseable");
    if (t.status === "provider_error") flags.add("provider-error");
    if (t.status.startsWith("invalid_action")) flags.add("invalid-action");
    const rc = (t as { recorded_camera?: { heading_deg?: number | null; fov_deg?: number | null } | null }).recorded_camera ?? null;
    const cam = t.camera_after
      ? { heading: t.camera_after.heading_deg, pitch: t.camera_after.pitch_deg, fov: t.camera_after.fov_deg, frame: t.camera_after.frame_index }
      : rc
        ? { heading: numOrNull(rc.heading_deg), pitch: null, fov: numOrNull(rc.fov_deg), frame: null }
        : null;
    turns.push({
      turn: t.turn,
      status: t.status,
      failed: turnFailed(t),
      kind: t.image_kind ?? "none",
      image,
      check: rec ? "recorded" : (o?.status ?? null),
      checkNote,
      ...(hashes ? { hashes } : {}),
      camera: cam,
      overwritten: rec ? !rec.trustworthy : false,
      call: toolCall(t.action as Record<string, unknown> | null | undefined),
      stepsLeft: numOrNull(t.steps_remaining),
      cost: numOrNull(t.action_cost),
      movedM: numOrNull(t.moved_meters),
      feedback: t.feedback ?? null,
      tokensIn: numOrNull(m?.tokens?.input),
      tokensOut: numOrNull(m?.tokens?.output),
      latencyS: numOrNull(m?.latency_s),
      errors,
      reply: m?.reply ?? null,
      reasoning: m?.reasoning ?? null,
      finish: m?.finish_reason ?? null,
      map: rec && image !== null ? null : turnMap(t, ep, mapPaths), // a recorded map image beats a redrawn one
      reward: numOrNull(t.reward),
      prompt: typeof (t as { prompt?: unknown }).prompt === "string" ? (t as { prompt: string }).prompt : null,
    });
  }

  const out = ep.outcome ?? null;
  if (views.mismatch) flags.add("mismatch");
  if (views.error || v.errors.length) flags.add("view-error");
  if (out?.forced_guess) flags.add("forced-guess");
  if (!out || out.parsed_ok === false || out.distance_km == null) flags.add("no-guess");
  // Clean: nothing to look at: every view verified, every turn reached the environment, the model guessed itself.
  if (flags.size === 0) flags.add("clean");

  const sumTurns = (f: (t: PageTurn) => number | null): number | null => {
    const xs = turns.map(f).filter((x): x is number => x !== null);
    return xs.length ? xs.reduce((a, b) => a + b, 0) : null;
  };
  const turnsUsed = numOrNull(out?.turns_used) ?? Math.max(0, ep.turns.length - 1);
  const credit = ep.task.attribution ?? v.task?.attribution ?? null;

  const train = (ep as { train?: TrainInfo }).train ?? null;
  const page: PageEpisode = {
    id: ep.episode_id,
    format: v.format,
    train: train ? { run: train.run, step: train.step, guessed: train.guessed } : null,
    model: ep.model_name,
    source: `${sourceName(v.file, inputs)}:${v.line}`,
    split: ep.task.split,
    index: ep.task.index,
    taskId: ep.task.task_id ?? null,
    sample: numOrNull(ep.task.sample),
    country: ep.task.country ?? v.task?.country ?? null,
    recordedAt: ep.recorded_at ?? null,
    mode: ep.config?.mode ?? null,
    verdict: out?.verdict ?? null,
    reward: numOrNull(out?.reward),
    score: geoevalReward(out as { distance_km?: number | null; action_cost?: number | null } | null),
    distanceKm: numOrNull(out?.distance_km),
    // Training and example recordings keep the guess in their submit_guess action only, not in the outcome.
    guess: out?.guess ?? (v.format === "eval" ? null : guessFromActions(ep)),
    truth: out?.truth ?? null,
    guessCountry: out?.guess_country ?? null,
    cost: numOrNull(out?.action_cost),
    turnsUsed,
    flags: [...flags].sort(),
    views,
    credit: { creator: credit?.creator_username ?? null, licence: credit?.licence ?? null, source: credit?.source ?? null },
    errors: v.errors,
    config: scalarConfig(ep.config),
    settings: scalarConfig(ep.model),
    tokensIn: numOrNull(out?.tokens_in) ?? sumTurns((t) => t.tokensIn),
    tokensOut: numOrNull(out?.tokens_out) ?? sumTurns((t) => t.tokensOut),
    latencyS: numOrNull(out?.model_latency_s) ?? sumTurns((t) => t.latencyS),
    outcomeMap: outcomeMap(ep, outcomeMarks(ep).pins, [], mapPaths),
    turns,
  };
  const stats: EpisodeStats = {
    model: page.model,
    reward: page.reward,
    score: page.score,
    distanceKm: page.distanceKm,
    turns: turnsUsed,
    tokensIn: page.tokensIn,
    tokensOut: page.tokensOut,
    latencyS: page.latencyS,
    errors: modelErrors,
    match: views.match,
    resolved: views.resolved,
    mismatch: views.mismatch,
    viewErrors: views.error,
    recorded,
  };
  return { page, stats };
}

/**
 * An episode the environment failed (a record with `error` and no turns) as the page lists it:
 * under its arm and task, flagged "errored", its error as its text (search finds its id and
 * error), no turns. geoeval's report reads it as unscored (no env reward): not counted.
 */
export function erroredPageEpisode(e: ErroredEpisodeInfo, inputs: readonly string[] = []): PageEpisode {
  return {
    id: e.episodeId,
    format: "eval",
    train: null,
    model: e.modelName ?? "?",
    source: `${sourceName(e.file, inputs)}:${e.line}`,
    split: e.task?.split ?? "?",
    index: e.task?.index ?? -1,
    taskId: null,
    sample: e.task?.sample ?? null,
    country: null,
    recordedAt: null,
    mode: null,
    verdict: "errored",
    reward: null,
    score: geoevalReward(null),
    distanceKm: null,
    guess: null,
    truth: null,
    guessCountry: null,
    cost: null,
    turnsUsed: 0,
    flags: ["errored"],
    views: { match: 0, resolved: 0, mismatch: 0, error: 0 },
    credit: { creator: null, licence: null, source: null },
    errors: [`errored in the environment, no turns: ${e.error}`],
    config: null,
    settings: null,
    tokensIn: null,
    tokensOut: null,
    latencyS: null,
    outcomeMap: null,
    turns: [],
  };
}

/**
 * What a board page's chunk adds to an episode so the browser can plan its
 * video with `frames`'s own code (planEpisode + buildTimeline): the fields
 * planning reads that the page's turns do not already say, compactly. The
 * page's turns give status, camera, steps, cost, feedback, tokens, errors and
 * the reply (cut at the board's text cap; the hold uses the recorded length).
 */
export interface PlayRecord {
  /** Parallel to the page's turns. */
  turns: PlayTurn[];
  /** The recorded outcome's fields the timeline reads; null when none was recorded. */
  outcome: Record<string, unknown> | null;
  /** The task row's task_id, when the record itself has none. */
  taskId?: string;
  /** Task frame index -> [panorama table index, compass angle]: the panoramas in-between frames are reprojected from. */
  frames: Record<string, [number, number]>;
}

export interface PlayTurn {
  /** The recorded image digest, numbered per episode in order of appearance (planning only compares digests). */
  d?: number;
  /** A keyframe's sha256 as `frames` writes it: the verified bytes' digest, null when they drifted. */
  s?: string | null;
  /** total_moved_meters, when recorded. */
  m?: number;
  /** The pins after the turn, when recorded. */
  p?: [number, number][];
  /** The parsed action, as recorded. */
  a?: Record<string, unknown>;
  /** The environment's done flag. */
  done?: boolean;
}
