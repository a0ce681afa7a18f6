/**
 * GeoGuesser's page HTML around the data: head with the strict CSP (the core's, template.ts), the run summary
 * (rendered here, escaped), the list and detail shells the client fills, and
 * the world geometry stored once. `pageParts` returns the text that goes
 * before the episode JSON, between it and the image table, and after it.
 */
import { escapeHtml } from "../../../../../src/page/escape.ts";
import type { ModelSummary } from "../stats.ts";
import { WITHIN_KM } from "../stats.ts";
import { episodeCount as countWords, notCountedWords } from "../../../../../src/page/count-words.ts";
import { pageCss } from "../../../../../src/page/view/style.ts";
import { clientScript } from "./client.ts";
import { playerCss } from "../../../../../src/page/player/style.ts";
import { playerScript } from "../player/bundle.ts";
import { pageCsp } from "../../../../../src/page/view/template.ts";

export interface RunInfo {
  title: string;
  episodes: number;
  views: number;
  images: number;
  checked: number;
  match: number;
  resolved: number;
  mismatch: number;
  errored: { id: string | null; message: string }[];
  problems: string[];
  /** Episodes by recording format. */
  formats: { eval: number; train: number; example: number };
  /** Example-rollout images shown as recorded. */
  recorded: number;
  /** Server-rendered sections (sweep, training) placed after the run summary. */
  sections: string;
  /**
   * Written with --partial although the run could not be read completely:
   * these problems (a subset of `problems`) are shown open at the top.
   */
  incomplete: string[];
  /** Board pages (--baseline): the board sections, placed first; the list shows recomputed and env rewards. */
  board?: string;
  /** A folder-form run page: its list rows' data files (data/rows-<k>.js), loaded after the first screen. */
  rowFiles?: number;
  /** A folder-form training page: its groups' data files (data/groups-<k>.js), loaded with the rows. */
  groupFiles?: number;
  /** A board folder: its panorama, view, player and map-cell tables are in data/tables-0.js, not in index.html. */
  tableFile?: boolean;
}

const n = (x: number | null, d: number) => (x == null ? "–" : x.toFixed(d));

/** "1 unscored, 1 errored", or "0". */
const notCounted = (r: Pick<ModelSummary, "unscored" | "errored">): string => notCountedWords(r) || "0";

/** The header's episode count, in the words every surface uses (count-words.ts). */
export function episodeCount(info: Pick<RunInfo, "formats">, total: Pick<ModelSummary, "episodes" | "unscored" | "errored"> | undefined): string {
  return countWords(info.formats, total && { counted: total.episodes, unscored: total.unscored, errored: total.errored });
}

function cell(stat: string, value: number | null, text: string): string {
  return `<td data-stat="${stat}" data-value="${value ?? ""}">${escapeHtml(text)}</td>`;
}

export function summaryTable(rows: ModelSummary[]): string {
  const head: [string, string?][] = [
    ["model"],
    ["episodes", "counted as geoeval's report counts them: episodes with a stored env reward"],
    ["not counted", "unscored (no env reward) + errored (the environment failed): in the list, left out of every mean"],
    ["mean reward", "geoeval's recomputed reward, over the counted episodes"],
    ["mean env reward", "the environment's stored reward, over the counted episodes"],
    ["median distance"],
    ...WITHIN_KM.map((k): [string, string] => [`≤ ${k} km`, "of the counted episodes with a distance (geoeval's rule)"]),
    ["mean turns"],
    ["tokens in / ep"],
    ["tokens out / ep"],
    ["latency / ep"],
    ["errors", "turns that failed on the model side, over every episode"],
    ["views verified", "over every episode"],
  ];
  const body = rows
    .map((r) => {
      const verified =
        r.checked === 0 && r.viewErrors === 0
          ? r.recorded
            ? `${r.recorded} recorded images (no hashes)`
            : "none checked"
          : `${r.match}/${r.checked} match${r.resolved ? ` (${r.resolved} resolved)` : ""}${r.mismatch ? ` · ${r.mismatch} mismatch` : ""}${r.viewErrors ? ` · ${r.viewErrors} not rendered` : ""}`;
      return (
        `<tr data-model="${escapeHtml(r.model)}"><td>${escapeHtml(r.model)}</td>` +
        cell("episodes", r.episodes, String(r.episodes)) +
        cell("not_counted", r.unscored + r.errored, notCounted(r)) +
        cell("mean_reward", r.meanReward, n(r.meanReward, 4)) +
        cell("mean_env_reward", r.meanEnvReward, n(r.meanEnvReward, 4)) +
        cell("median_distance_km", r.medianDistanceKm, r.medianDistanceKm == null ? "–" : `${n(r.medianDistanceKm, 1)} km`) +
        r.within.map((w, i) => cell(`within_${WITHIN_KM[i]}km_pct`, w, w === null ? "–" : `${w.toFixed(1)}%`)).join("") +
        cell("mean_turns", r.meanTurns, n(r.meanTurns, 1)) +
        cell("tokens_in", r.meanTokensIn, r.meanTokensIn == null ? "–" : Math.round(r.meanTokensIn).toLocaleString("en-US")) +
        cell("tokens_out", r.meanTokensOut, r.meanTokensOut == null ? "–" : Math.round(r.meanTokensOut).toLocaleString("en-US")) +
        cell("latency_s", r.meanLatencyS, r.meanLatencyS == null ? "–" : `${n(r.meanLatencyS, 1)} s`) +
        cell("errors", r.errors, String(r.errors)) +
        `<td data-stat="verified" data-match="${r.match}" data-mismatch="${r.mismatch}" data-resolved="${r.resolved}" data-recorded="${r.recorded}">${escapeHtml(verified)}</td></tr>`
      );
    })
    .join("");
  const th = ([h, title]: [string, string?]) => `<th${title ? ` title="${escapeHtml(title)}"` : ""}>${escapeHtml(h)}</th>`;
  return `<table class="stats" id="gr-summary"><thead><tr>${head.map(th).join("")}</tr></thead><tbody>${body}</tbody></table>`;
}

const RUN_LIST_HEAD = `<th data-sort="id">episode</th><th data-sort="arm" class="model">model</th><th data-sort="sample" class="num opt attempt" title="attempt number (task.sample)">attempt</th><th data-sort="country">country</th><th data-sort="verdict" class="wide">verdict</th><th data-sort="score" class="num" title="geoeval's recomputed reward">reward</th><th data-sort="env" class="num opt" title="the environment's stored reward">env reward</th><th data-sort="km" class="num">km</th><th data-sort="turns" class="num opt">turns</th>`;
/** A training page's group columns, each headed by its filter field's words (zero spread = zero_spread). */
const TRAIN_LIST_HEAD = `<th class="num train" title="training step (filter: step)">step</th><th class="num train" title="its group's mean env reward (filter: group_mean)">group mean</th><th class="num train" title="its group's sample std (filter: group_std)">group std</th><th class="num train" title="its GRPO advantage (filter: advantage)">advantage</th><th class="train" title="its group has no spread (filter: zero_spread); = a sibling played the byte-identical game (filter: identical)">zero spread</th>`;
/** The status column: the status filter's flags (filter: status, or flags). */
const STATUS_HEAD = `<th title="the status filter's flags (filter: status)">status</th>`;
const BOARD_LIST_HEAD = `<th data-sort="id">episode</th><th data-sort="arm" class="model">arm</th><th data-sort="task" class="num">task</th><th data-sort="sample" class="num opt attempt" title="attempt number (task.sample)">attempt</th><th data-sort="country">country</th><th data-sort="verdict" class="wide">verdict</th><th data-sort="score" class="num" title="geoeval's recomputed reward">reward</th><th data-sort="env" class="num opt" title="the environment's stored reward">env reward</th><th data-sort="km" class="num">km</th><th data-sort="turns" class="num opt">turns</th>`;

export interface PageParts {
  /** Everything up to and including the opening tag of the episode JSON. */
  head: string;
  /** Closes the episode JSON, carries the script, opens the image table (board pages: the episode chunks). */
  middle: string;
  /** Board pages: closes the chunks, opens the panorama table. */
  between?: string;
  /** Board pages: closes the panorama table, opens the exact views (fov <= 45). */
  exact?: string;
  tail: string;
}

/** What the header says of a run: its counts, views and images, and how its views verified. */
export type HeaderInfo = Pick<RunInfo, "formats" | "views" | "recorded" | "images" | "checked" | "match" | "resolved" | "mismatch"> &
  Partial<Pick<RunInfo, "board">>;

/** The header's line of facts (HTML, every text escaped); `georeplay serve` sends it anew as a run grows. */
export function headerFacts(info: HeaderInfo, summary: ModelSummary[]): string {
  const verified =
    info.checked === 0
      ? info.recorded
        ? "example-rollout images shown as recorded (they carry no hashes)"
        : "no view could be checked"
      : info.mismatch === 0
        ? `all ${info.checked} recorded views reproduce byte for byte${info.resolved ? ` (${info.resolved} resolved at a sampling boundary)` : ""}`
        : null;
  // Drift is the one fact a reader must not miss: said in the alarm colour, with what it means.
  const drift =
    verified === null
      ? `<strong class="drift" id="gr-drift">${escapeHtml(`${info.mismatch} of ${info.checked} recorded views drifted (mismatch): their re-render does not hash to the recorded sha256; ${info.match} reproduce`)}</strong>`
      : escapeHtml(verified);
  const rerendered = info.views ? ` · ${info.views} view turns re-rendered` : "";
  const images = info.recorded ? ` · ${info.recorded} recorded images` : "";
  // A board stores panoramas (its views are exact bytes or reprojections of them: the client counts which, #gr-view-sources).
  const stored = info.board ? `${info.images} panoramas stored<span id="gr-view-sources"></span>` : `${info.images} distinct images stored`;
  return `<span id="gr-episode-count">${escapeHtml(episodeCount(info, summary[summary.length - 1]))}</span>${rerendered}${images} (${stored}) · ${drift}`;
}

export function pageParts(info: RunInfo, summary: ModelSummary[], player = false, form: "file" | "folder" = "file"): PageParts {
  // The player's code comes first and stays inert (a function) until the first play.
  const css = pageCss() + (player ? playerCss() : "");
  const script = (player ? playerScript() + "\n" : "") + clientScript();
  const csp = pageCsp(css, script, form);
  const incomplete = new Set(info.incomplete);
  const problems = [...info.errored.map((e) => e.message), ...info.problems.filter((p) => !incomplete.has(p))];
  const head = `<!doctype html>
<html lang="en"${form === "folder" ? ' data-form="folder"' : ""}${info.rowFiles !== undefined ? ` data-row-files="${info.rowFiles}"` : ""}${info.groupFiles !== undefined ? ` data-group-files="${info.groupFiles}"` : ""}${info.tableFile ? ' data-table-file="1"' : ""}><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(info.title)}</title>
<style>${css}</style></head>
<body>
<header class="top"><h1>${escapeHtml(info.title)}</h1>
<p id="gr-facts">${headerFacts(info, summary)}</p></header>
${info.incomplete.length ? `<section class="incomplete" id="gr-incomplete" role="alert"><h2>Partial page: ${info.incomplete.length} problem(s) kept georeplay from reading the whole run</h2><p>Written with --partial: what could be read is shown below; anything the problems name is missing from it.</p><ul>${info.incomplete.map((p) => `<li>${escapeHtml(p)}</li>`).join("")}</ul></section>` : ""}
${info.board ?? ""}
<section class="summary"><h3>Per model, over the episodes geoeval's report counts (reward: geoeval's, recomputed; env reward: the environment's stored one)</h3>${summaryTable(summary)}</section>
${info.sections}
${problems.length ? `<details class="problems"><summary>${problems.length} problem(s) while building this page</summary><ul>${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join("")}</ul></details>` : ""}
<div class="layout">
<aside class="list" aria-label="episodes">
<div class="filters" role="search">
<input type="search" id="f-q" placeholder="search ids, tasks, countries, arms, replies, prompts, feedback (press /)" aria-label="search episodes: ids, tasks, countries, arms, replies, reasoning, prompts, feedback and actions">
<select id="f-model" aria-label="model"><option value="">all models</option></select>
<select id="f-country" aria-label="country"><option value="">all countries</option></select>
<select id="f-verdict" aria-label="verdict"><option value="">all verdicts</option></select>
<select id="f-status" aria-label="status"><option value="">any status</option></select>
<select id="f-task" aria-label="task"><option value="">all tasks</option></select>
<input type="number" id="f-reward" step="0.05" min="0" max="1" placeholder="reward ≥" aria-label="minimum reward (geoeval's)">
<input type="text" id="f-expr" spellcheck="false" autocomplete="off" placeholder='filter: km &gt; 750 and turns &gt;= 8 and model == "base"' aria-label="filter expression" aria-describedby="f-expr-error">
<p class="expr-error" id="f-expr-error" role="alert" hidden></p>
<details class="fields"><summary>fields for the filter expression</summary><span id="f-fields"></span>; operators == != &gt; &gt;= &lt; &lt;= (or ≠ ≥ ≤) ~ (contains), and, or, not, ( ).</details>
<span class="count" id="gr-count"></span>
<button type="button" id="f-csv" title="download the filtered rows as CSV">CSV</button>
<p class="list-summary" id="gr-list-summary" aria-live="polite"></p>
</div>
<table class="episodes"><thead><tr>${info.board ? BOARD_LIST_HEAD : RUN_LIST_HEAD}${!info.board && info.formats.train ? TRAIN_LIST_HEAD : ""}${STATUS_HEAD}</tr></thead>
<tbody id="gr-rows"></tbody></table>
</aside>
<main class="detail" id="gr-detail" tabindex="-1"><p class="empty">Select an episode. Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous turn, <kbd>n</kbd>/<kbd>p</kbd> next/previous episode, <kbd>v</kbd> enlarge the view, <kbd>/</kbd> search.</p></main>
</div>
<footer>${info.formats.eval + info.formats.train ? "Views are re-rendered by georeplay from the recorded cameras and checked against the recorded hash before they are shown; map turns are redrawn offline (the original map images are not reproducible). " : ""}${info.formats.example ? "Example-rollout images are the recorded files, shown as they are (downscaled), badged “recorded image”: they carry no hash to check them against. " : ""} Street-level imagery: Mapillary contributors, CC-BY-SA 4.0 (creator named on each episode). Map data: Natural Earth. Keys: <kbd>j</kbd>/<kbd>k</kbd> turn, <kbd>n</kbd>/<kbd>p</kbd> episode, <kbd>v</kbd> enlarge the view, <kbd>/</kbd> search; in the compare view <kbd>n</kbd>/<kbd>p</kbd> task, <kbd>j</kbd>/<kbd>k</kbd> attempt, <kbd>Esc</kbd> close.</footer>
<script type="application/json" id="${info.board ? "gr-board-data" : "gr-episodes"}">`;
  const tail = `]</script>
</body></html>
`;
  if (info.board) {
    // The script runs right after the small board data, before the parser reaches the large chunk and panorama tables.
    const middle = `</script>
<script>${script}</script>
<script type="application/json" id="gr-chunks">[`;
    const between = `]</script>
<script type="application/json" id="gr-panos">[`;
    const exact = `]</script>
<script type="application/json" id="gr-images">[`;
    return { head, middle, between, exact, tail };
  }
  const middle = `</script>
<script>${script}</script>
<script type="application/json" id="gr-images">[`;
  return { head, middle, tail };
}
