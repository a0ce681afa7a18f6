/** `georeplay report` on crops runs: arms ranked by mean-of-k of the recorded score, then why (envs/crops/replay/report.ts). */
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import { reportTorn } from "../../../src/reports/torn-lines.ts";
import type { ReportCliOptions } from "../../../src/commands/options/command-options.ts";

export async function reportCommand(inputs: string[], o: ReportCliOptions): Promise<void> {
  const { cropsReport } = await import("../replay/report.ts");
  const { formatCropsReport } = await import("../replay/report-format.ts");
  // geoeval's default baseline "base" pairs only when such an arm exists; a baseline asked for must exist.
  const report = await cropsReport(inputs, { baseline: o.baselineGiven ? o.baseline : undefined, signal: interruptSignal() });
  process.stdout.write(o.json ? JSON.stringify(report, null, 2) + "\n" : formatCropsReport(report));
  process.exitCode = reportTorn(report.torn);
}
