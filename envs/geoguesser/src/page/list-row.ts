/**
 * One episode as the pages' lists show it: the run page derives it from the
 * full episode, the board page ships it as it is (its detail loads per task).
 * Typed once here for the board's data and the browser client; made from a
 * page episode by one rule (listRowOf) for both.
 */
import type { PageEpisode } from "./model.ts";

/** The data file kind of a folder-form run page's list rows (data/rows-<k>.js: output/run-batches.ts writes them, the client reads them). */
export const ROWS_KIND = "rows";

export interface ListRow {
  id: string;
  arm: string;
  split: string;
  task: number;
  /** task.task_id, when recorded (search finds it). */
  taskId: string | null;
  sample: number | null;
  country: string | null;
  verdict: string | null;
  /** geoeval's recomputed reward. */
  score: number;
  /** The environment's stored reward; null = unscored (geoeval's report leaves it out). */
  env: number | null;
  km: number | null;
  turns: number;
  flags: string[];
  /** Tokens over the episode (outcome.tokens_in/out, else the turns' sum); null when not recorded. */
  tokensIn: number | null;
  tokensOut: number | null;
  /** outcome.action_cost, when recorded. */
  cost: number | null;
  /** Model latency over the episode, seconds (outcome.model_latency_s, else the turns' sum). */
  latency: number | null;
  /** The model's settings as recorded (episode.model.temperature, max_tokens). */
  temperature: number | null;
  maxTokens: number | null;
  /** Where the record is: file:line (relative to its input folder). */
  source: string;
  /** Example rollouts, training traces: shown with their own badge. */
  format?: string;
  /** Training rollouts: their run and step, and their GRPO group's numbers (joined in the browser from the page's groups table). */
  train?: TrainFields | null;
}

/** A training rollout's place in its GRPO group (the filter expression's step, advantage, zero_std, ... fields). */
export interface TrainFields {
  run: string;
  step: number;
  /** Null: the rollout is in no group (no outcome.reward). */
  advantage: number | null;
  zeroStd: boolean | null;
  groupMean: number | null;
  groupStd: number | null;
  groupSize: number | null;
  /** A sibling of its group played the byte-identical game (null: in no group). */
  identical?: boolean | null;
}

/** An errored episode (the environment failed: no turns) has no reward at all: never shown as 0. */
export const isErrored = (r: { flags: readonly string[] }): boolean => r.flags.includes("errored");

/** geoeval's reward as the lists, CSV and compare view write it: "–" for an errored episode. */
export function rewardText(r: { score: number; flags: readonly string[] }, digits: number): string {
  return isErrored(r) ? "–" : r.score.toFixed(digits);
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The list's row of a page episode (both pages: the run page in the browser, the board page at build). */
export function listRowOf(e: PageEpisode): ListRow {
  return {
    id: e.id,
    arm: e.model,
    split: e.split,
    task: e.index,
    taskId: e.taskId ?? null,
    sample: e.sample,
    country: e.country,
    verdict: e.verdict,
    score: e.score,
    env: e.reward,
    km: e.distanceKm,
    turns: e.turnsUsed,
    flags: e.flags,
    format: e.format,
    ...analysisFields(e),
    // The group's numbers join in the browser (state/training.ts): the groups are known only once every rollout is read.
    ...(e.train ? { train: { run: e.train.run, step: e.train.step, advantage: null, zeroStd: null, groupMean: null, groupStd: null, groupSize: null } } : {}),
  };
}

/** The fields the list analyses beyond what it shows: tokens, cost, latency, the model's settings, and file:line. */
export function analysisFields(e: PageEpisode): Pick<ListRow, "tokensIn" | "tokensOut" | "cost" | "latency" | "temperature" | "maxTokens" | "source"> {
  return {
    tokensIn: e.tokensIn ?? null,
    tokensOut: e.tokensOut ?? null,
    cost: e.cost,
    latency: e.latencyS ?? null,
    temperature: num(e.settings?.temperature),
    maxTokens: num(e.settings?.max_tokens),
    source: e.source,
  };
}
