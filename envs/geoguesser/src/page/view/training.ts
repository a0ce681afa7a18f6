/**
 * The training page's section: the run's GRPO numbers (`georeplay groups`'s,
 * from the embedded table) and four full-width dynamics charts over every
 * step (training-parts.ts lays both out; a live page redraws them), the
 * shell the client fills with a step's groups or a group's siblings
 * (`#step/<n>`, `#group/<step>/<split>/<index>`), and the table itself.
 * Every string from a trace is escaped here.
 */
import { scriptJson } from "../../../../../src/page/escape.ts";
import { toHtml } from "../../../../../src/page/markup.ts";
import { CHARTS_ID, SUMMARY_ID, trainingCharts, trainingFacts } from "../training-parts.ts";
import type { TrainingData } from "../training.ts";

/** The page's table of groups and steps (the client reads it: app/training). */
export const TRAINING_DATA_ID = "gr-training";

export function trainingSection(d: TrainingData): string {
  return `<section class="training" id="gr-training-section" aria-labelledby="gr-training-h">
<h2 id="gr-training-h">Training: GRPO groups</h2>
<p class="explain">A group is the rollouts of one step on one task (run, step, task split and index; a recorded <code>group_id</code> wins), each judged against its siblings. The numbers are <code>georeplay groups --json</code>'s, as TRL's GRPOTrainer computes them: sample std (Bessel), advantage (r − mean) / (std + 1e-4), zero spread = isclose(std, 0); a group of one has no std and advantage 0. Hover a chart for its values; a point opens its step, a step its groups, a group its siblings side by side.</p>
<div id="${SUMMARY_ID}">${trainingFacts(d).map(toHtml).join("")}</div>
<div id="${CHARTS_ID}">${trainingCharts(d).map(toHtml).join("")}</div>
<div class="train-view" id="gr-train-view" hidden></div>
<script type="application/json" id="${TRAINING_DATA_ID}">${scriptJson(d)}</script>
</section>`;
}
