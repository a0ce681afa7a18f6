/**
 * `georeplay page` on a crops run (records with `env: "crops"`): verify every record (the
 * views and thumbnails re-rendered, their bytes kept), then write the page in either form.
 * One file: every distinct view and thumbnail as its exact JPEG in a data table, and each
 * dataset image once (the image the boxes are drawn over). The folder form (`-o DIR/`): the
 * same bytes as files under views/, named by their sha256, beside index.html. The board
 * numbers are `georeplay report`'s (cropsReport), computed by the same code.
 * Bad input throws before anything is written; the temp page is removed on any failure.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { findSweepFiles } from "../../../../replay/formats/sweep-files.ts";
import { basename, join } from "node:path";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { checkTarget, type PageForm } from "../../../../src/page/output/target.ts";
import { dataScript, PageFolder } from "../../../../src/page/output/folder.ts";
import { scriptJson } from "../../../../src/page/escape.ts";
import { writePage } from "../../../../src/page/part-file.ts";
import { datasetFor, runFiles } from "../../replay/inputs.ts";
import { verifyCrops, type CropsVerifyReport } from "../../replay/verify.ts";
import { cropsReport, type CropsReport } from "../../replay/report.ts";
import { cropsDetailOf, cropsRowOf, type CropsDetail, type CropsRow, type VerifySummary } from "./model.ts";
import { cropsPageHtml, type CropsPageData } from "./template.ts";
import { cropsPlayProps, playEntry } from "./play.ts";
import { PLAY_KIND, PLAYS_PER_FILE, type CropsPlayTable } from "./play-table.ts";
import { cropsTraining, cropsTrainingRollout, withGroups, type CropsTrainingRollout } from "./training.ts";
import { FIRST_ROWS, ROWS_KIND, ROWS_PER_FILE, rowColumns } from "./row-columns.ts";

export interface CropsPageOptions {
  inputs: string[];
  dataset?: string;
  out: string;
  title?: string;
  /** Pair the board's arms against this one (report --baseline). */
  baseline?: string;
  signal?: AbortSignal;
  onProgress?: (p: { episodes: number; views: number; mismatch: number; fraction: number }) => void;
}

export interface CropsPageResult {
  env: "crops";
  out: string;
  form: PageForm;
  bytes: number;
  files: number;
  episodes: number;
  arms: number;
  /** View turns checked, matched, mismatched (verify's numbers). */
  views: number;
  match: number;
  mismatch: number;
  /** Every finding of verify, of any kind (a page with findings exits 1, as verify does). */
  findings: number;
  /** Distinct views, thumbnails and dataset images stored. */
  images: number;
}

/** A run folder's own files (runFiles), or a board folder's **\/episodes.jsonl as `georeplay report` finds them. */
export function pageFiles(inputs: readonly string[]): string[] {
  return inputs.flatMap((p) => {
    const own = statSync(p, { throwIfNoEntry: false })?.isDirectory() && !readdirSync(p).some((n) => n === "episodes.jsonl" || /^rollouts.*\.jsonl$/.test(n));
    return own ? findSweepFiles([p]).files : runFiles([p]);
  });
}

/** Episodes per detail file in the folder form: a file is read when one of its episodes is opened. */
export const DETAIL_CHUNK = 100;

export async function buildCropsPage(opts: CropsPageOptions): Promise<CropsPageResult> {
  const target = checkTarget(opts.out);
  const files = pageFiles(opts.inputs);
  // The folder form streams: each view's bytes go to views/ as they are rendered, and each
  // episode's detail and video props to data files as it is checked, so memory holds the list
  // rows, not the run. The one-file form keeps them to inline them.
  const folder = target.form === "folder" ? new PageFolder(target.path) : null;
  try {
    const rows: CropsRow[] = [];
    const details: CropsDetail[] = [];
    const jpegs = new Map<string, Buffer>();
    let pending: CropsDetail[] = [];
    let chunks = 0;
    const flush = () => {
      if (!folder || !pending.length) return;
      folder.write(`data/cd-${chunks}.js`, dataScript("cd", chunks, scriptJson(pending)));
      chunks++;
      pending = [];
    };
    // Training rollouts' numbers (step, group, reward): the GRPO groups of a training page.
    const rollouts: CropsTrainingRollout[] = [];
    // Each episode's video props for the in-page player (play.ts), by page key: inline in one
    // file; in the folder form, PLAYS_PER_FILE episodes a data file in list order.
    const plays: Record<string, string> = {};
    let playChunk: Record<string, string> = {};
    let playCount = 0;
    const flushPlays = () => {
      if (!folder || !Object.keys(playChunk).length) return;
      const n = Math.floor((playCount - 1) / PLAYS_PER_FILE);
      folder.write(`data/${PLAY_KIND}-${n}.js`, dataScript(PLAY_KIND, n, scriptJson(playChunk)));
      playChunk = {};
    };
    // image_id -> its file in the dataset folder (tasks.jsonl's `file`).
    const imageFiles = new Map<string, string>();
    // Times each episode id was seen: a repeat gets its own address (`<id>~2`).
    const seenIds = new Map<string, number>();
    const verify: CropsVerifyReport = await verifyCrops({
      inputs: files,
      dataset: opts.dataset,
      signal: opts.signal,
      onProgress: opts.onProgress,
      onImage: (sha, jpeg) => {
        if (folder) folder.addView(jpeg);
        else jpegs.set(sha, jpeg);
      },
      onRecord: (seen) => {
        imageFiles.set(seen.task.image_id, seen.task.file);
        const n = (seenIds.get(seen.rec.episode_id) ?? 0) + 1;
        seenIds.set(seen.rec.episode_id, n);
        const row = cropsRowOf(seen, n === 1 ? seen.rec.episode_id : `${seen.rec.episode_id}~${n}`);
        rows.push(row);
        const detail = cropsDetailOf(seen, row);
        if (!folder) details.push(detail);
        else if (pending.push(detail) >= DETAIL_CHUNK) flush();
        const r = cropsTrainingRollout(seen, row.key);
        if (r) rollouts.push(r);
        const entry = playEntry(cropsPlayProps(seen));
        if (!folder) plays[row.key] = entry;
        else {
          playCount++;
          playChunk[row.key] = entry;
          if (playCount % PLAYS_PER_FILE === 0) flushPlays();
        }
      },
    });
    flush();
    flushPlays();
    if (!rows.length) throw new GeoreplayError(`no episode to show: ${opts.inputs.join(", ")} holds no crops record`);
    // The report of the same files: the board's numbers, one number per fact with `georeplay report`.
    const report: CropsReport = await cropsReport(files, { baseline: opts.baseline, signal: opts.signal });
    if (opts.baseline !== undefined && !report.arms.some((a) => a.arm === opts.baseline))
      throw new GeoreplayError(`--baseline ${opts.baseline}: no arm of that name on this board (arms: ${report.arms.map((a) => a.arm).join(", ")})`);

    // The dataset images the boxes are drawn over: read from the dataset (tasks.jsonl's file), never from a path in a trace.
    const dsDir = datasetFor(files, opts.dataset);
    const training = cropsTraining(rollouts);
    withGroups(rows, training);
    const title = opts.title ?? `${opts.inputs.map((f) => basename(f)).join(", ")} · ${[...new Set(rows.map((r) => r.arm))].join(", ")} · georeplay`;
    // The folder form's rows go to data files as columns; index.html keeps the top of the list for its first screen (all of a short list).
    const rowFiles = folder && rows.length > FIRST_ROWS ? writeRowFiles(folder, rows) : null;
    const data: CropsPageData = {
      rows: rowFiles ? rows.slice(0, FIRST_ROWS) : rows,
      rowFiles,
      details,
      detailChunk: folder ? DETAIL_CHUNK : null,
      report,
      verify: verifySummary(verify),
      training,
    };
    // Images by name: in one file, data: URLs of the exact bytes; in the folder form the client
    // names a view views/<sha256>.jpg itself, and only the dataset images are listed.
    const images: Record<string, string> = {};
    // By hash: encodes finish in any order, and the same inputs must give the same bytes.
    for (const [sha, jpeg] of [...jpegs].sort((x, y) => (x[0] < y[0] ? -1 : 1))) images[sha] = `data:image/jpeg;base64,${jpeg.toString("base64")}`;
    const stored = jpegs.size + imageFiles.size;
    jpegs.clear();
    const pictures: Record<string, string> = {};
    for (const [id, file] of imageFiles) {
      const png = readFileSync(join(dsDir, file));
      pictures[id] = folder ? folder.addView(png) : `data:image/png;base64,${png.toString("base64")}`;
    }
    const play: CropsPlayTable = folder ? { perFile: PLAYS_PER_FILE } : { entries: plays };
    const html = cropsPageHtml(title, data, { images, pictures }, target.form, play);
    const path = folder ? join(folder.tmp, "index.html") : target.path;
    const bytes = await writePage(path, [html], opts.signal);
    if (folder) {
      folder.counted(bytes);
      folder.commit();
    }
    return {
      env: "crops",
      out: opts.out,
      form: target.form,
      bytes: folder ? folder.bytes : bytes,
      files: folder ? folder.files : 1,
      episodes: rows.length,
      arms: report.arms.length,
      views: verify.checked,
      match: verify.match,
      mismatch: verify.mismatch,
      findings: verify.mismatches.length,
      images: folder ? folder.viewCount : stored,
    };
  } catch (e) {
    folder?.remove();
    throw e;
  }
}

/** The rows as data/cr-<k>.js files of ROWS_PER_FILE rows each, as columns (row-columns.ts), in list order. */
function writeRowFiles(folder: PageFolder, rows: readonly CropsRow[]): { files: number; rows: number } {
  let k = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_FILE, k++)
    folder.write(`data/${ROWS_KIND}-${k}.js`, dataScript(ROWS_KIND, k, scriptJson(rowColumns(rows.slice(i, i + ROWS_PER_FILE)))));
  return { files: k, rows: rows.length };
}

function verifySummary(r: CropsVerifyReport): VerifySummary {
  return { episodes: r.episodes, checked: r.checked, match: r.match, mismatch: r.mismatch, counts: r.counts, findings: r.mismatches.length };
}
