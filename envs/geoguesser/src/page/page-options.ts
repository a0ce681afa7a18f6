/**
 * What `buildPage` takes and gives, shared by the run page (build.ts) and the
 * board page (board/build.ts) without either importing the other.
 */
import type { VerifyProgress, ProblemEntry, VerifyReport } from "../../replay/verify/verify.ts";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import type { PageForm } from "../../../../src/page/output/target.ts";
import type { EpisodeStats } from "./stats.ts";
import type { TrainingGroups } from "./training.ts";
import type { EpisodeTally } from "../../../../src/page/count-words.ts";
import { counted } from "../../../../src/page/attempts.ts";
import { DEFAULT_VIEWS_MB } from "../../../../src/page/image-size.ts";

export interface BuildPageOptions {
  /** Eval episodes.jsonl, GRPO rollouts*.jsonl, example-rollout folders or sweep folders. */
  episodes: string[];
  /** Needed to re-render eval and training episodes (not for example-rollout folders). */
  tasks?: string;
  panos?: string;
  /** Overrides format detection. */
  format?: InputFormat;
  /**
   * Write the page even when the run could not be read completely (invalid or
   * unreadable records, missing task rows or panoramas), listing the problems
   * at the top. Without it nothing is written in that case.
   */
  partial?: boolean;
  /**
   * The page is served live (serve): a board folder keeps its page-wide tables (panoramas, views,
   * player, map cells) in index.html, where the server extends them as episodes come, and searches
   * its texts per query (its episodes grow after the build: no search index).
   */
  served?: boolean;
  /** `x.html`: one self-contained file; `DIR/` (a trailing slash, or an existing folder): the folder form (index.html, data/, views/). */
  out: string;
  /** Longest side of the embedded views, px (default 320). */
  imageSize?: number;
  jobs?: number;
  title?: string;
  /**
   * Board pages in the one-file form: the page's size budget, MB. The exact views fill what the rest of
   * the page leaves, zooms first (board/exact-views.ts); the folder form holds them all. Unset: the
   * views get DEFAULT_VIEWS_MB whatever the rest takes.
   */
  maxMb?: number;
  /** The older budget: the exact views alone get this many MB (0: none); overrides maxMb when given. */
  exactZoomsMb?: number;
  /** false (`--no-player`): no in-page video player, and none of the panoramas, fonts and timelines it embeds. */
  player?: boolean;
  /** A board page: geoeval's tables, paired against this arm, per-task deltas and a compare view (see board/build.ts). */
  baseline?: string;
  onProgress?: (p: VerifyProgress) => void;
  /** Where a run page collects its training rollouts (default: a new one); `serve` passes its own and goes on adding to it. */
  training?: TrainingGroups;
  /** Cancels the build: nothing is written, temp files are removed, the call rejects. */
  signal?: AbortSignal;
}

export interface BuildPageResult {
  out: string;
  /** False when the run could not be read completely and --partial was not given: nothing was written. */
  written: boolean;
  /** The page was written although the run could not be read completely (--partial). */
  partial: boolean;
  /** Size of the written page, all files of the folder form together (0 when nothing was written). */
  bytes: number;
  /** "file" (one HTML file) or "folder" (index.html, data/, views/); set when written. */
  form?: PageForm;
  /** Files written: 1 for the one-file form. */
  files?: number;
  /** Board pages: exact verified views in the page, and left out of a one-file page by its budget (their turns reproject the panorama). */
  viewsEmbedded?: number;
  viewsLeftOut?: number;
  episodes: number;
  /** The episodes as `georeplay report` counts them, and those it leaves out apart (count-words.ts): the one total every surface states. */
  tally: EpisodeTally;
  formats: { eval: number; train: number; example: number };
  /** Run pages, once written: the small per-episode numbers of its header and summary table (`georeplay serve` adds to them). */
  summaryOf?: { stats: EpisodeStats[]; errored: (string | null)[] };
  /** View turns re-rendered and checked. */
  views: number;
  /** Distinct images stored in the page. */
  images: number;
  /** Example-rollout image files: referenced and checked to exist and decode. */
  recordedImages: { checked: number; ok: number };
  checked: number;
  match: number;
  resolved: number;
  mismatch: number;
  /** What kept part of the run from being read or checked (exit 2). */
  errors: ProblemEntry[];
  /** Episodes that errored in the environment (nothing to replay; listed in the page). */
  erroredEpisodes: ProblemEntry[];
  warnings: ProblemEntry[];
  /** A board page (a sweep or board folder, or --baseline): its images are panoramas. */
  board?: boolean;
}

/** The default budget of a one-file board page's exact views (in the core: `page --help` says it). */
export { DEFAULT_VIEWS_MB };

/** The older default of --exact-zooms-mb (the bench's board-player still passes it). */
export const DEFAULT_EXACT_MB = 16;

/** What a one-file board page's views may take: spooled while building (at most), and given the rest of the page at the end. */
export function viewBudget(opts: Pick<BuildPageOptions, "maxMb" | "exactZoomsMb">): { spoolBytes: number; viewBytes(restBytes: number): number } {
  const mb = (flag: string, v: number) => {
    if (!Number.isFinite(v) || v < 0) throw new GeoreplayError(`${flag} ${v}: expected a number of MB, 0 or more`);
    return v * 1e6;
  };
  if (opts.exactZoomsMb !== undefined) {
    const views = mb("--exact-zooms-mb", opts.exactZoomsMb);
    return { spoolBytes: views, viewBytes: () => views };
  }
  if (opts.maxMb === undefined) {
    const views = DEFAULT_VIEWS_MB * 1e6;
    return { spoolBytes: views, viewBytes: () => views };
  }
  const page = mb("--max-mb", opts.maxMb);
  return { spoolBytes: page, viewBytes: (rest) => Math.max(0, page - rest) };
}

/** The tally of a build's episodes: `stats` of the replayable ones, and how many errored in the environment. */
export function tallyOf(stats: readonly Pick<EpisodeStats, "reward">[], errored: number): EpisodeTally {
  const n = stats.filter((e) => counted({ env: e.reward })).length;
  return { counted: n, unscored: stats.length - n, errored };
}

/** A build's result before the page is written (nothing written yet), from the verifier's report. */
export function unwrittenResult(
  out: string,
  run: VerifyReport,
  counts: { episodes: number; tally: EpisodeTally; views: number; images: number },
  errors: ProblemEntry[],
): BuildPageResult {
  return {
    out,
    written: false,
    partial: false,
    bytes: 0,
    ...counts,
    formats: run.formats,
    recordedImages: run.recorded_images,
    checked: run.checked,
    match: run.match,
    resolved: run.resolved,
    mismatch: run.mismatch,
    errors,
    erroredEpisodes: run.errored_episodes,
    warnings: run.warnings,
  };
}
