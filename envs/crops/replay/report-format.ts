/**
 * The text of a crops board, laid out as `geoeval report` lays out a GeoGuesser one (the same
 * column rules, Python's number formatting): the ranked table, the "why" table of the score's
 * parts, and the paired section against the baseline.
 */
import { pyFixed, pyInt, pyLeft, pyLen, pyRepr, pyRight } from "../../../replay/board/pyformat.ts";
import type { CropsReport } from "./report.ts";

const n = (x: number | null): number => (x === null ? Number.NaN : x);

export function formatCropsReport(report: CropsReport): string {
  const out: string[] = [];
  if (report.unscored > 0) {
    const detail = report.unscored_by_arm.map((d) => `${d.arm} ${d.episodes}`).join(", ");
    out.push(`note: ${report.unscored} unscored episode(s) counted apart, not in the means (${detail})`);
  }
  out.push(`${report.episodes} episodes over ${report.arms.length} arm(s)`, "");
  const header = `${pyLeft("arm", 22)} ${pyRight("tasks", 6)} ${pyRight("k", 4)} ${pyRight("mean-of-k", 10)} ${pyRight("best-of-k", 10)}`;
  out.push(header, "-".repeat(pyLen(header)));
  for (const a of report.arms) {
    out.push(`${pyLeft(a.arm, 22)} ${pyInt(a.tasks, 6)} ${pyFixed(a.k, 1, 4)} ${pyFixed(a.mean_of_k, 4, 10)} ${pyFixed(a.best_of_k, 4, 10)}`);
  }
  const why =
    `${pyLeft("arm", 22)} ${pyRight("recall", 7)} ${pyRight("precision", 10)} ${pyRight("credit", 7)} ${pyRight("label%", 7)} ` +
    `${pyRight("boxes", 6)} ${pyRight("misses", 7)} ${pyRight("f.alarms", 9)} ${pyRight("zooms", 6)} ${pyRight("turns", 6)} ${pyRight("tok_out", 8)}`;
  out.push("", why, "-".repeat(pyLen(why)));
  for (const a of report.arms) {
    const label = a.label_accuracy === null ? pyFixed(Number.NaN, 1, 6) : pyFixed(100 * a.label_accuracy, 1, 6);
    out.push(
      `${pyLeft(a.arm, 22)} ${pyFixed(a.recall_term, 4, 7)} ${pyFixed(a.precision_factor, 4, 10)} ${pyFixed(n(a.mean_credit), 4, 7)} ${label}% ` +
        `${pyFixed(a.boxes_per_image, 2, 6)} ${pyFixed(a.misses_per_image, 2, 7)} ${pyFixed(a.false_alarms_per_image, 2, 9)} ` +
        `${pyFixed(a.zooms, 1, 6)} ${pyFixed(a.turns, 1, 6)} ${pyFixed(a.tok_out, 0, 8)}`,
    );
  }
  out.push(
    "",
    "score = recall x precision: recall = sum of matched credit (halved for a wrong label) / (objects + false alarms);",
    "precision = matched boxes / boxes drawn. misses, f.alarms and boxes are per image; credit is the mean GIoU credit of a match.",
  );
  if (report.paired) {
    out.push(`\npaired against ${pyRepr(report.paired.baseline)}, tasks both arms attempted:`);
    for (const c of report.paired.comparisons) {
      out.push(
        `  ${pyLeft(c.arm, 20)} n=${pyInt(c.n, 3)}  delta ${pyFixed(c.delta, 4, 0, true)} +/- ${pyFixed(c.se, 4)}  ` +
          `95% CI [${pyFixed(c.ci_low, 4, 0, true)}, ${pyFixed(c.ci_high, 4, 0, true)}]  ${c.significant ? "SIGNIFICANT" : "not significant"}`,
      );
      out.push(`  ${pyLeft("", 20)} better on ${c.better_on}/${c.n} tasks`);
    }
    for (const s of report.paired.skipped) out.push(`  ${pyLeft(s.arm, 20)} not paired: ${s.shared} shared task(s), 2 needed`);
  }
  return out.join("\n") + "\n";
}
