/** `georeplay report` on GeoGuesser runs: geoeval's pass@k board, byte for byte. */
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { reportTally, tallyWords } from "../../../src/page/count-words.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import { reportTorn } from "../../../src/reports/torn-lines.ts";
import type { ReportCliOptions } from "../../../src/commands/options/command-options.ts";

export async function reportCommand(inputs: string[], o: ReportCliOptions): Promise<void> {
  // Loaded when the command runs: other commands never load the board engine.
  const { readBoard, boardReport, formatReport } = await import("../replay/board/index.ts");
  const board = await readBoard(inputs, { signal: interruptSignal() });
  const report = boardReport(board, { baseline: o.baseline, legacy: Boolean(o.legacy) });
  // geoeval prints no paired section for an absent baseline; one asked for by name is a mistake, as page says.
  if (o.baselineGiven && !report.arms.some((a) => a.arm === o.baseline))
    throw new GeoreplayError(`--baseline ${o.baseline}: no arm of that name on this board (arms: ${report.arms.map((a) => a.arm).join(", ")})`);
  for (const note of board.notes) process.stderr.write(note + "\n");
  // geoeval's own note (stdout, byte for byte) lumps errored rows with unscored ones: the page's words, apart.
  if (report.dropped_unscored) process.stderr.write(`note: ${tallyWords(reportTally(report))}, as georeplay page counts them\n`);
  process.stdout.write(o.json ? JSON.stringify(report, null, 2) + "\n" : formatReport(report));
  // A line that is not JSON: the report of the other rows is printed (geoeval's), each such line named, exit 2 as verify does.
  process.exitCode = reportTorn(board.torn);
}
