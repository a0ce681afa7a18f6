/**
 * The text `geoeval report` prints, byte for byte, from a report object
 * (../shared/docs/geoeval-report.md §4): the dropped note (current layout
 * only), the pass@k table, the behaviour table and the paired section.
 */
import type { Report } from "./report-schema.ts";
import { pyFixed, pyInt, pyLeft, pyLen, pyRepr, pyRight } from "../../../../replay/board/pyformat.ts";

const n = (x: number | null): number => (x === null ? Number.NaN : x);

export function formatReport(report: Report): string {
  const legacy = report.layout === "legacy";
  const out: string[] = [];
  if (!legacy && report.dropped_unscored > 0) {
    // Python prints a null key as None.
    const detail = report.dropped_by_arm.map((d) => `${d.arm ?? "None"} ${d.episodes}`).join(", ");
    out.push(`note: dropped ${report.dropped_unscored} unscored episode(s) with no reward (${detail})`);
  }
  out.push(`${report.episodes} episodes over ${report.arms.length} arm(s)`, "");
  const header = `${pyLeft("arm", 22)} ${pyRight("tasks", 6)} ${pyRight("k", 4)} ${pyRight("mean-of-k", 10)} ${pyRight("best-of-k", 10)} ${pyRight("median km", 10)}`;
  out.push(header, "-".repeat(pyLen(header)));
  for (const a of report.arms) {
    out.push(
      `${pyLeft(a.arm, 22)} ${pyInt(a.tasks, 6)} ${pyFixed(a.k, 1, 4)} ${pyFixed(a.mean_of_k, 4, 10)} ${pyFixed(a.best_of_k, 4, 10)} ${pyFixed(n(a.median_km), 0, 10)}`,
    );
  }
  const floorHead = legacy ? pyRight("zero%", 6) : `${pyRight("env_floor%", 11)} ${pyRight("no_guess%", 10)}`;
  // geoeval's f-string starts with "\n", which print shows as a blank line and len() counts as a dash.
  const head =
    `\n${pyLeft("arm", 22)} ${pyRight("turns", 6)} ${pyRight("looks", 6)} ${pyRight("moves", 6)} ${pyRight("pins", 5)} ` +
    `${pyRight("cost", 6)} ${pyRight("country%", 9)} ${pyRight("<=200km", 8)} ${pyRight("<=750km", 8)} ` +
    `${floorHead} ${pyRight("forced%", 8)} ${pyRight("tok_out", 8)}`;
  out.push(head, "-".repeat(pyLen(head)));
  for (const a of report.arms) {
    const floor = legacy ? `${pyFixed(a.env_floor_pct, 1, 5)}%` : `${pyFixed(a.env_floor_pct, 1, 10)}% ${pyFixed(a.no_guess_pct, 1, 9)}%`;
    out.push(
      `${pyLeft(a.arm, 22)} ${pyFixed(n(a.turns), 1, 6)} ${pyFixed(n(a.looks), 1, 6)} ` +
        `${pyFixed(n(a.moves), 1, 6)} ${pyFixed(n(a.pins), 1, 5)} ` +
        `${pyFixed(n(a.cost), 3, 6)} ${pyFixed(n(a.country_pct), 1, 8)}% ` +
        `${pyFixed(n(a.within_200km_pct), 1, 7)}% ${pyFixed(n(a.within_750km_pct), 1, 7)}% ` +
        `${floor} ${pyFixed(n(a.forced_pct), 1, 7)}% ` +
        `${pyFixed(n(a.tok_out), 0, 8)}`,
    );
  }
  if (report.paired) {
    out.push(`\npaired against ${pyRepr(report.paired.baseline)}, tasks both arms attempted:`);
    for (const c of report.paired.comparisons) {
      out.push(
        `  ${pyLeft(c.arm, 20)} n=${pyInt(c.n, 3)}  delta ${pyFixed(c.delta, 4, 0, true)} +/- ${pyFixed(c.se, 4)}  ` +
          `95% CI [${pyFixed(c.ci_low, 4, 0, true)}, ${pyFixed(c.ci_high, 4, 0, true)}]  ${c.significant ? "SIGNIFICANT" : "not significant"}`,
      );
      out.push(`  ${pyLeft("", 20)} better on ${c.better_on}/${c.n} tasks`);
    }
  }
  return out.join("\n") + "\n";
}
