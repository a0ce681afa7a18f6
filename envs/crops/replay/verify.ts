/**
 * `verifyCrops`: for every crops record, re-render every view and thumbnail and compare sha256,
 * re-apply every action to the recorded state before it, recompute shaping and the outcome;
 * for training runs recompute each GRPO group's mean and advantages and check that siblings
 * share their first view. Records stream in; renders overlap with the next records' checks;
 * findings come out in input order. Bad input throws a one-line GeoreplayError (file, line, field).
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { GeoreplayError, throwIfAborted } from "../../../replay/io/errors.ts";
import { readJsonl } from "../../../replay/io/jsonl.ts";
import { checkRecord, type Finding, type RecordCounts } from "./check-record.ts";
import { ImageCache, openDataset, taskOf, type Dataset } from "./dataset.ts";
import { fitSize, THUMB_LONG, VIEW_LONG } from "./geometry.ts";
import { datasetFor, recordEnv, runFiles } from "./inputs.ts";
import { groupAdvantages, type GtObject } from "./score.ts";
import { CropsRecordSchema, parseOrThrow, type CropsRecord, type CropsTask } from "./schema.ts";
import { ViewHashes } from "./views.ts";
import type { CropsMismatch, CropsVerifyReport } from "./verify-schema.ts";

export type { Finding, FindingKind } from "./check-record.ts";

export interface CropsVerifyOptions {
  /** Run folders, episodes.jsonl or rollouts*.jsonl files. */
  inputs: string[];
  /** The dataset folder (tasks.jsonl, gt.jsonl, images/); default: the run folder's parent. */
  dataset?: string;
  /** Check only the i-th of n slices of the records (1-based), by position. */
  shard?: { index: number; count: number };
  /** Stop checking after n records (groups are still read whole for their advantages). */
  limit?: number;
  signal?: AbortSignal;
  onProgress?: (p: { episodes: number; views: number; mismatch: number; fraction: number }) => void;
  /** Each distinct view and thumbnail rendered, its JPEG bytes once (the page shows these, never a file a trace names). */
  onImage?: (sha256: string, jpeg: Buffer) => void;
  /** Each checked record once its pixels are checked, in input order, with what its turns re-rendered to and its findings. */
  onRecord?: (seen: CropsRecordSeen) => void | Promise<void>;
}

/** A checked record as a page shows it: the record, its dataset rows, each turn's re-rendered hashes, its findings. */
export interface CropsRecordSeen {
  rec: CropsRecord;
  file: string;
  line: number;
  task: CropsTask;
  /** The image's ground truth, in file order (gt.jsonl). */
  gt: GtObject[];
  /** Per turn, in order: the sha256 of the re-rendered view and thumbnail. */
  rendered: { view: string; thumb: string }[];
  findings: CropsMismatch[];
}

export type { CheckedCount, CropsMismatch, CropsVerifyReport } from "./verify-schema.ts";

interface GroupMember {
  file: string;
  line: number;
  episode_id: string;
  split: string;
  index: number;
  sibling: number;
  score: number;
  reward: number | undefined;
  advantage: number | undefined;
  firstView: string;
  firstThumb: string;
  checked: boolean;
}

const CONCURRENT_RECORDS = 24;

export async function verifyCrops(opts: CropsVerifyOptions): Promise<CropsVerifyReport> {
  const files = runFiles(opts.inputs);
  const dsDir = datasetFor(files, opts.dataset);
  const ds = await openDataset(dsDir);
  const report = emptyReport(dsDir, opts.shard);
  const counts: RecordCounts = {
    box_mappings: 0,
    box_mappings_ok: 0,
    transitions: 0,
    transitions_ok: 0,
    shaping: 0,
    shaping_ok: 0,
    outcomes: 0,
    outcomes_ok: 0,
  };
  const images = new ImageCache();
  const hashes = new ViewHashes(undefined, opts.onImage);
  const totalBytes = files.reduce((n, f) => n + fileSize(f), 0);
  let readBytes = 0;
  let ordinal = 0;
  // Records in flight, settled in input order.
  const inFlight: Promise<{ found: CropsMismatch[]; seen: Omit<CropsRecordSeen, "findings"> }>[] = [];
  const settle = async (keep: number) => {
    while (inFlight.length > keep) {
      const { found, seen } = await inFlight.shift()!;
      report.mismatches.push(...found);
      await opts.onRecord?.({ ...seen, findings: found });
    }
    opts.onProgress?.({
      episodes: report.episodes,
      views: report.checked,
      mismatch: report.mismatches.length,
      fraction: totalBytes ? readBytes / totalBytes : 1,
    });
  };
  for (const file of files) {
    const groups = new Map<string, GroupMember[]>();
    for await (const item of readJsonl(file)) {
      throwIfAborted(opts.signal);
      readBytes += item.bytes;
      if (item.kind === "error") throw new GeoreplayError(`${file}:${item.line}: ${item.message}`);
      recordEnv(item.value, file, item.line);
      const rec = parseOrThrow(CropsRecordSchema, item.value, file, item.line);
      ordinal++;
      const inShard = !opts.shard || (ordinal - 1) % opts.shard.count === opts.shard.index - 1;
      const underLimit = opts.limit === undefined || report.episodes < opts.limit;
      // Past --limit an eval run is done; a training run is read on for its groups' advantages.
      if (!underLimit && rec.group_id === undefined && groups.size === 0) break;
      const check = inShard && underLimit;
      if (!inShard) report.skipped.other_shards++;
      if (rec.group_id !== undefined) {
        const members = groups.get(rec.group_id) ?? [];
        groups.set(rec.group_id, members);
        members.push(memberOf(rec, file, item.line, check));
      }
      if (!check) continue;
      report.episodes++;
      report.formats[rec.group_id !== undefined || rec.run !== undefined ? "train" : "eval"]++;
      const { pixels, task, gt, rendered } = await checkOne(rec, file, item.line, ds, images, hashes, counts, report);
      pixels.catch(() => undefined); // awaited in order by settle(); never an unhandled rejection meanwhile
      inFlight.push(pixels.then(async (found) => ({ found, seen: { rec, file, line: item.line, task, gt, rendered: await rendered } })));
      await settle(CONCURRENT_RECORDS);
    }
    await settle(0);
    checkGroups(groups, report);
  }
  await settle(0);
  report.rendered = hashes.rendered;
  const c = report.counts;
  c.box_mappings = { checked: counts.box_mappings, ok: counts.box_mappings_ok };
  c.transitions = { checked: counts.transitions, ok: counts.transitions_ok };
  c.shaping = { checked: counts.shaping, ok: counts.shaping_ok };
  c.outcomes = { checked: counts.outcomes, ok: counts.outcomes_ok };
  return report;
}

function fileSize(f: string): number {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
}

function memberOf(rec: CropsRecord, file: string, line: number, checked: boolean): GroupMember {
  return {
    file,
    line,
    episode_id: rec.episode_id,
    split: rec.task.split,
    index: rec.task.index,
    sibling: rec.sibling ?? 0,
    score: rec.outcome.score,
    reward: rec.outcome.reward,
    advantage: rec.outcome.advantage,
    firstView: rec.turns[0].image_sha256,
    firstThumb: rec.turns[0].thumb_sha256,
    checked,
  };
}

/**
 * One record: the input checks (task, image, views inside the image), then the rule checks
 * (synchronous), then the pixel checks (a promise: renders run while later records are read).
 */
async function checkOne(
  rec: CropsRecord,
  file: string,
  line: number,
  ds: Dataset,
  images: ImageCache,
  hashes: ViewHashes,
  counts: RecordCounts,
  report: CropsVerifyReport,
): Promise<{ pixels: Promise<CropsMismatch[]>; task: CropsTask; gt: GtObject[]; rendered: Promise<{ view: string; thumb: string }[]> }> {
  const at = `${file}:${line}`;
  const task = taskOf(ds, rec.task.split, rec.task.index);
  if (!task)
    throw new GeoreplayError(
      `${at}: task: expected a row of ${ds.tasksFile} with split ${JSON.stringify(rec.task.split)} and task_index ${rec.task.index}, got none`,
    );
  if (task.image_id !== rec.task.image_id)
    throw new GeoreplayError(
      `${at}: task.image_id: expected ${JSON.stringify(task.image_id)} (${ds.tasksFile}:${task.line}), got ${JSON.stringify(rec.task.image_id)}`,
    );
  const gt = ds.gt.get(task.image_id);
  if (!gt) throw new GeoreplayError(`${at}: task.image_id: expected a row of ${ds.gtFile} for ${JSON.stringify(task.image_id)}, got none`);
  const imagePath = join(ds.dir, task.file);
  const img = await images.get(imagePath).catch((e: Error) => {
    // Name the record and the task row that lead to the image, not just the image.
    const why = e.message.startsWith(`${imagePath}: `) ? e.message.slice(imagePath.length + 2) : e.message;
    throw new GeoreplayError(`${at}: task.image_id: expected the image ${imagePath} (${ds.tasksFile}:${task.line}), got ${why}`);
  });
  if (img.width !== task.width || img.height !== task.height)
    throw new GeoreplayError(
      `${join(ds.dir, task.file)}: expected ${task.width}x${task.height} pixels (${ds.tasksFile}:${task.line}), got ${img.width}x${img.height}`,
    );
  const { width: iw, height: ih } = img;
  rec.turns.forEach((t, i) => {
    for (const field of ["view_before", "view_after"] as const) {
      const v = t[field];
      if (v[0] < 0 || v[1] < 0 || v[2] > iw || v[3] > ih)
        throw new GeoreplayError(`${at}: turns[${i}].${field}: expected a view inside the ${iw}x${ih} image, got [${v.join(", ")}]`);
    }
  });
  const size = fitSize(iw, ih, VIEW_LONG);
  const thumbSize = fitSize(iw, ih, THUMB_LONG);
  const where = { split: rec.task.split, index: rec.task.index };
  const found: Finding[] = [];
  const cfg = rec.config;
  if (cfg.view_size[0] !== size[0] || cfg.view_size[1] !== size[1] || cfg.thumb_size[0] !== thumbSize[0] || cfg.thumb_size[1] !== thumbSize[1])
    found.push({
      episode_id: rec.episode_id,
      turn: null,
      kind: "state",
      message: `config view_size ${JSON.stringify(cfg.view_size)} / thumb_size ${JSON.stringify(cfg.thumb_size)}: the ${iw}x${ih} image gives ${JSON.stringify(size)} / ${JSON.stringify(thumbSize)}`,
      file,
      line,
    });
  found.push(...checkRecord(rec, { file, line, iw, ih, size, gt }, counts));
  // Pixels: every turn's view and thumbnail after the action.
  const renders = rec.turns.map((t) =>
    Promise.all([hashes.view(task.image_id, img, t.view_after, t.boxes, size[0], size[1]), hashes.thumb(task.image_id, img, t.view_after)]),
  );
  const pixelChecks = rec.turns.map(async (t, i): Promise<Finding[]> => {
    const [v, th] = await renders[i];
    const out: Finding[] = [];
    const base = { episode_id: rec.episode_id, turn: t.turn, file, line };
    report.checked++;
    report.counts.thumbnails.checked++;
    if (v === t.image_sha256) report.match++;
    else {
      report.mismatch++;
      out.push({
        ...base,
        kind: "view",
        message: `view ${fmtRect(t.view_after)} with ${t.boxes.length} box(es) does not reproduce`,
        recorded: t.image_sha256,
        rendered: v,
      });
    }
    if (th === t.thumb_sha256) report.counts.thumbnails.ok++;
    else out.push({ ...base, kind: "thumb", message: `thumbnail of view ${fmtRect(t.view_after)} does not reproduce`, recorded: t.thumb_sha256, rendered: th });
    return out;
  });
  const pixels = Promise.all(pixelChecks).then((perTurn) => {
    // Per turn: pixels first, then the turn's rule findings; record-level findings last.
    const all = [...perTurn.flat(), ...found].sort((a, b) => turnOrder(a.turn) - turnOrder(b.turn) || kindOrder(a.kind) - kindOrder(b.kind));
    return all.map((f) => ({ ...f, ...where }));
  });
  const rendered = Promise.all(renders).then((r) => r.map(([view, thumb]) => ({ view, thumb })));
  return { pixels, task, gt, rendered };
}

const fmtRect = (r: readonly number[]) => `[${r.join(", ")}]`;
const turnOrder = (t: number | null) => (t === null ? Number.MAX_SAFE_INTEGER : t);
const KIND_ORDER = ["view", "thumb", "box_mapping", "state", "shaping", "outcome", "advantage", "group_start"];
const kindOrder = (k: string) => KIND_ORDER.indexOf(k);

/** GRPO groups of one file: the advantages recomputed, and every sibling's first view equal to the first sibling's. */
function checkGroups(groups: Map<string, GroupMember[]>, report: CropsVerifyReport): void {
  for (const [gid, members] of groups) {
    members.sort((a, b) => a.sibling - b.sibling);
    const { mean, advantages } = groupAdvantages(members.map((m) => m.score));
    members.forEach((m, i) => {
      if (!m.checked) return;
      report.counts.advantages.checked++;
      if (m.reward === m.score && m.advantage === advantages[i]) report.counts.advantages.ok++;
      else
        report.mismatches.push({
          episode_id: m.episode_id,
          turn: null,
          kind: "advantage",
          message: `group ${gid}: reward ${m.reward} (score ${m.score}), advantage ${m.advantage}; recomputed advantage ${advantages[i]} (group mean ${mean})`,
          file: m.file,
          line: m.line,
          split: m.split,
          index: m.index,
        });
    });
    if (members.length < 2) continue;
    report.group_starts.compared++;
    const first = members[0];
    const differ = members.filter((m) => m.firstView !== first.firstView || m.firstThumb !== first.firstThumb);
    if (!differ.length) continue;
    const message = `group ${gid}: sibling(s) ${differ.map((m) => `${m.sibling} (${m.file}:${m.line})`).join(", ")} start from a different first view or thumbnail than sibling ${first.sibling} (${first.file}:${first.line})`;
    report.group_starts.failures.push({ group_id: gid, siblings: members.map((m) => `${m.file}:${m.line}`), message });
    for (const m of differ.filter((d) => d.checked))
      report.mismatches.push({ episode_id: m.episode_id, turn: 0, kind: "group_start", message, file: m.file, line: m.line, split: m.split, index: m.index });
  }
}

function emptyReport(dataset: string, shard: CropsVerifyOptions["shard"]): CropsVerifyReport {
  const zero = () => ({ checked: 0, ok: 0 });
  return {
    env: "crops",
    dataset,
    episodes: 0,
    checked: 0,
    match: 0,
    mismatch: 0,
    formats: { eval: 0, train: 0 },
    counts: { thumbnails: zero(), box_mappings: zero(), transitions: zero(), shaping: zero(), outcomes: zero(), advantages: zero() },
    rendered: 0,
    mismatches: [],
    group_starts: { compared: 0, failures: [] },
    skipped: { other_shards: 0 },
    shard: shard ? `${shard.index}/${shard.count}` : null,
  };
}
