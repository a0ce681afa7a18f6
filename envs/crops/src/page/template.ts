/**
 * The crops page's HTML: the core page's policy (pageCsp: its pinned script and style, data:
 * images; the folder form's own files), its stylesheet plus the crops parts', a header whose
 * drift line is in the alarm colour, the board of `georeplay report` (every number with its
 * full precision in a data attribute), and the list and detail shells the crops client fills.
 * Every string from a trace or the dataset is escaped here or goes in as JSON data.
 */
import { escapeHtml, scriptJson } from "../../../../src/page/escape.ts";
import { pageCsp } from "../../../../src/page/view/template.ts";
import { pageCss } from "../../../../src/page/view/style.ts";
import { playerCss } from "../../../../src/page/player/style.ts";
import type { CropsReport } from "../../replay/report.ts";
import type { CropsDetail, CropsRow, VerifySummary } from "./model.ts";
import { cropsClientScript } from "./client-bundle.ts";
import { cropsPlayerScript } from "./player-bundle.ts";
import { CROPS_CSS } from "./style.ts";
import { CROPS_FIELDS } from "./client/fields.ts";
import type { CropsTrainingData } from "./training.ts";
import type { CropsPlayTable } from "./play-table.ts";
import { cropsTrainingSection } from "./training-section.ts";

export interface CropsPageData {
  /** Every row; in the folder form with row files (rowFiles), the first FIRST_ROWS only (row-columns.ts). */
  rows: CropsRow[];
  /** The folder form: how many data/cr-<k>.js files hold all the rows as columns, and how many rows there are (null: `rows` is all). */
  rowFiles?: { files: number; rows: number } | null;
  /** Every episode's detail in one file; empty in the folder form, whose data/cd-<n>.js hold `detailChunk` episodes each, in row order. */
  details: CropsDetail[];
  detailChunk: number | null;
  /** The board's numbers, written as its tables (the client does not read them: they are not in the page's data). */
  report: CropsReport;
  verify: VerifySummary;
  /** A GRPO run's groups and steps (null for eval runs and boards). */
  training?: CropsTrainingData | null;
}

/** Image names to URLs: re-rendered views and thumbnails by sha256, dataset images by image_id. */
export interface CropsImages {
  images: Record<string, string>;
  pictures: Record<string, string>;
}

const fix = (x: number | null, d: number) => (x === null ? "–" : x.toFixed(d));
/** A table cell with its exact value for tools and tests. */
const cell = (stat: string, value: number | null, d: number) => `<td data-stat="${stat}" data-value="${value ?? ""}">${escapeHtml(fix(value, d))}</td>`;

export function facts(d: CropsPageData): string {
  const v = d.verify;
  const words = `${v.episodes} episodes · ${d.report.arms.length} arm(s) · ${v.checked} view turns re-rendered`;
  const others = v.findings - v.mismatch;
  const drift = v.mismatch
    ? `<strong class="drift" id="gr-drift">${escapeHtml(`${v.mismatch} of ${v.checked} recorded views drifted (mismatch): their re-render does not hash to the recorded sha256; ${v.match} reproduce`)}</strong>`
    : escapeHtml(`all ${v.checked} recorded views reproduce byte for byte`);
  const rest = others
    ? ` · <strong class="drift" id="gr-findings">${escapeHtml(`${others} other finding(s) (box mappings, state, shaping, outcome)`)}</strong>`
    : "";
  return `<span id="gr-episode-count">${escapeHtml(words)}</span> · ${drift}${rest}`;
}

export function boardSection(r: CropsReport): string {
  const arms = r.arms
    .map(
      (a, i) =>
        `<tr data-arm="${escapeHtml(a.arm)}"><td>${i + 1}</td><td class="arm">${escapeHtml(a.arm)}</td><td data-stat="episodes" data-value="${a.episodes}">${a.episodes}</td><td data-stat="tasks" data-value="${a.tasks}">${a.tasks}</td>${cell("k", a.k, 1)}${cell("mean_of_k", a.mean_of_k, 4)}${cell("best_of_k", a.best_of_k, 4)}` +
        `${cell("recall_term", a.recall_term, 4)}${cell("precision_factor", a.precision_factor, 4)}${cell("mean_credit", a.mean_credit, 4)}${cell("label_accuracy", a.label_accuracy, 3)}` +
        `${cell("boxes_per_image", a.boxes_per_image, 2)}${cell("misses_per_image", a.misses_per_image, 2)}${cell("false_alarms_per_image", a.false_alarms_per_image, 2)}${cell("zooms", a.zooms, 1)}${cell("turns", a.turns, 1)}${cell("tok_out", a.tok_out, 0)}</tr>`,
    )
    .join("");
  const paired = r.paired
    ? `<h3>Paired against ${escapeHtml(r.paired.baseline)} (tasks both arms attempted)</h3><table class="stats" id="gr-paired"><thead><tr><th>arm</th><th>n</th><th>delta</th><th>se</th><th>95% CI</th><th>better on</th><th></th></tr></thead><tbody>${r.paired.comparisons
        .map(
          (c) =>
            `<tr data-arm="${escapeHtml(c.arm)}"><td>${escapeHtml(c.arm)}</td><td>${c.n}</td>${cell("delta", c.delta, 4)}${cell("se", c.se, 4)}<td>[${fix(c.ci_low, 4)}, ${fix(c.ci_high, 4)}]</td><td>${c.better_on}/${c.n}</td><td>${c.significant ? "significant" : "not significant"}</td></tr>`,
        )
        .join(
          "",
        )}${r.paired.skipped.map((s) => `<tr><td>${escapeHtml(s.arm)}</td><td colspan="6">not paired: ${s.shared} shared task(s), 2 needed</td></tr>`).join("")}</tbody></table>`
    : "";
  const armNames = r.arms.map((a) => a.arm);
  const tasks =
    r.arms.length > 1
      ? `<h3>Per task: each arm's mean and best of its attempts (a task opens the arms' attempts side by side)</h3><table class="stats" id="gr-tasks"><thead><tr><th>task</th>${armNames.map((a) => `<th colspan="2">${escapeHtml(a)}</th>`).join("")}</tr><tr><th></th>${armNames.map(() => "<th>mean</th><th>best</th>").join("")}</tr></thead><tbody>${r.tasks
          .map((t) => {
            const by = new Map(t.arms.map((a) => [a.arm, a]));
            return `<tr data-task="${escapeHtml(t.task)}"><td><a href="#compare/${encodeURIComponent(t.task)}">${escapeHtml(t.task)}</a></td>${armNames
              .map((a) => {
                const x = by.get(a);
                return x ? `${cell("mean", x.mean, 4)}${cell("best", x.best, 4)}` : "<td>–</td><td>–</td>";
              })
              .join("")}</tr>`;
          })
          .join("")}</tbody></table>`
      : "";
  const unscored = r.unscored ? `<p class="note">${escapeHtml(`${r.unscored} unscored episode(s) counted apart, not in the means`)}</p>` : "";
  return `<section class="summary crops-board" id="gr-crops-board"><h3>The board (the numbers of <code>georeplay report</code>): arms ranked by mean-of-k of the recorded score; misses, false alarms and boxes per image</h3>${unscored}
<table class="stats" id="gr-arms"><thead><tr><th>#</th><th>arm</th><th>episodes</th><th>tasks</th><th>k</th><th>mean-of-k</th><th>best-of-k</th><th>recall</th><th>precision</th><th>credit</th><th>label acc.</th><th>boxes</th><th>misses</th><th>f. alarms</th><th>zooms</th><th>turns</th><th>tok_out</th></tr></thead><tbody>${arms}</tbody></table>
${paired}${tasks}</section>`;
}

/** The id of the players' table: each episode's video props (play.ts), by page key. */
export const PLAY_TABLE_ID = "gr-crops-play";

/** `plays`: where each episode's gzipped video props are (play.ts), by page key; without them the page has no player. */
export function cropsPageHtml(title: string, data: CropsPageData, images: CropsImages, form: "file" | "folder", plays?: CropsPlayTable): string {
  const css = pageCss() + (plays ? playerCss() : "") + CROPS_CSS;
  // The player's script first (inert until a Play), then the client: one script, one hash in the policy.
  const script = plays ? `${cropsPlayerScript()}\n${cropsClientScript()}` : cropsClientScript();
  const csp = pageCsp(css, script, form);
  const fields = CROPS_FIELDS.map((f) => f.name).join(", ");
  return `<!doctype html>
<html lang="en" data-env="crops"${form === "folder" ? ' data-form="folder"' : ""}><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${css}</style></head>
<body>
<header class="top"><h1>${escapeHtml(title)}</h1>
<p id="gr-facts">${facts(data)}</p></header>
${boardSection(data.report)}
${data.training ? cropsTrainingSection(data.training) : ""}
<section class="compare" id="gr-compare" hidden></section>
<div class="layout">
<aside class="list" aria-label="episodes">
<div class="filters" role="search">
<input type="search" id="f-q" placeholder="search ids, tasks, arms, images, labels, replies, feedback (press /)" aria-label="search episodes">
<select id="f-model" aria-label="model"><option value="">all models</option></select>
<select id="f-status" aria-label="status"><option value="">any status</option></select>
<input type="text" id="f-expr" spellcheck="false" autocomplete="off" placeholder="filter: misses &gt;= 2 and precision &lt; 1" aria-label="filter expression" aria-describedby="f-expr-error">
<p class="expr-error" id="f-expr-error" role="alert" hidden></p>
<details class="fields"><summary>fields for the filter expression</summary><span id="f-fields">${escapeHtml(fields)}</span>; operators == != &gt; &gt;= &lt; &lt;= ~ (contains), and, or, not, ( ).</details>
<span class="count" id="gr-count"></span>
<button type="button" id="f-csv" title="download the filtered rows as CSV">CSV</button>
<p class="list-summary" id="gr-list-summary" aria-live="polite"></p>
</div>
<table class="episodes"><thead><tr id="gr-head"></tr></thead>
<tbody id="gr-rows"></tbody></table>
</aside>
<main class="detail" id="gr-detail" tabindex="-1"><p class="empty">Select an episode. Keys: <kbd>n</kbd>/<kbd>p</kbd> next/previous episode, <kbd>/</kbd> search.</p></main>
</div>
<footer>Views and thumbnails are re-rendered by georeplay from the dataset image, the recorded view and boxes, and checked against the recorded sha256 before they are shown: the page shows the re-rendered bytes. Ground truth is the dataset's gt.jsonl (the model never saw it).</footer>
<script type="application/json" id="gr-crops">${scriptJson({ ...data, report: undefined })}</script>
<script type="application/json" id="gr-crops-images">${scriptJson(images)}</script>
${plays ? `<script type="application/json" id="${PLAY_TABLE_ID}">${scriptJson(plays)}</script>\n` : ""}
<script>${script}</script>
</body></html>
`;
}
