/** `georeplay report`: geoeval's pass@k board, byte for byte, from eval episodes (no panoramas needed). */
import { Command } from "commander";
import { reportTally, tallyWords } from "../page/count-words.ts";
import { interruptSignal } from "./interrupt.ts";
import { EXIT_INPUT, EXIT_OK } from "../reports/exit-codes.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";

/** Lines that are not JSON named one by one, up to this many. */
const MAX_NAMED = 20;

/** verify's words for a line that is not JSON (replay/io/jsonl.ts), the last one a writer cut off. */
export function tornMessage(t: { file: string; line: number; last: boolean }): string {
  return `${t.file}:${t.line}: not valid JSON, skipped${t.last ? " (the last line looks truncated: was the file still being written?)" : ""}`;
}

export function registerReport(program: Command): void {
  program
    .command("report")
    .summary("print geoeval's pass@k board (arms ranked, behaviour, paired deltas), byte for byte")
    .description(
      "Prints exactly what `python eval/geoeval.py report ROOT... --baseline ARM` prints (geoeval\n" +
        "12e04618; --legacy for 4df3d4d4), from eval episodes alone: no panoramas, no task index.\n" +
        "Streams, so a 1.3 GB board needs little memory.\n\n" +
        "Inputs: episodes.jsonl files, or folders searched for **/episodes.jsonl (hidden folders\n" +
        "skipped, symlinks followed, directory order as geoeval's glob). Rows pool by model_name (the\n" +
        "arm) and task.index (the task); only rows with a stored outcome.reward count.\n\n" +
        "One deliberate difference: georeplay leaves out _quarantined/ folders (geoeval reads them);\n" +
        "it says so in a note. Notes (left-out files, skipped torn lines) go to stderr, so stdout stays\n" +
        "geoeval's. Where geoeval would crash (a row that is not an object, a scored row without\n" +
        "task.index or model_name, bad UTF-8) georeplay names the file, line and field instead; so it\n" +
        "does for NaN/Infinity in a row (Python reads them, JSON does not). A file given directly is\n" +
        "read (geoeval reads only folders).\n\n" +
        "Columns:\n" +
        "  tasks       distinct task indexes with a scored attempt\n" +
        "  k           mean scored attempts per task\n" +
        "  mean-of-k   mean over tasks of the task's mean reward (recomputed from distance and cost)\n" +
        "  best-of-k   mean over tasks of the task's best reward (pass@k); arms ranked by mean-of-k\n" +
        "  median km   median guess distance over episodes with a guess\n" +
        "  turns looks moves pins cost tok_out   per-episode means of the outcome fields\n" +
        "  country%    guesses in the right country; <=200km / <=750km: guesses that close\n" +
        "  env_floor%  episodes the environment's own reward floored at 0 (legacy name zero%)\n" +
        "  no_guess%   episodes without a usable guess; forced%: guesses the harness forced\n" +
        "  paired      per-task mean differences against --baseline on shared tasks: delta, its\n" +
        "              standard error (sample SD; legacy population SD), 95% CI, tasks better on\n\n" +
        'Crops runs (records with env "crops") get the same board for the detection gym: arms ranked\n' +
        "by mean-of-k of the recorded score, best-of-k, then why: recall term, precision factor, mean\n" +
        "GIoU credit of a match, label accuracy, boxes, misses and false alarms per image; paired deltas\n" +
        "against --baseline as above (tasks are split/index). Unscored episodes are counted apart.\n\n" +
        "A line that is not JSON (a torn write) is skipped as geoeval skips it, and named on stderr by\n" +
        "file and line (the last line of a file that looks cut off: was it still being written?), as\n" +
        "verify names it; the report of the other rows is printed and the exit code is 2.\n\n" +
        "Exit codes: 0 printed; 2 unreadable input, a row geoeval cannot read, a line that is not JSON\n" +
        "(the report printed all the same), no scored episode, or a --baseline naming no arm (geoeval\n" +
        "prints no paired section then; georeplay names the arms there are).",
    )
    .argument("<inputs...>", "episodes.jsonl files or sweep folders")
    .option("--baseline <arm>", "arm to pair the others against (default base: no paired section without it; an arm named here must exist)", "base")
    .option("--legacy", "print geoeval 4df3d4d4's layout (zero% column, no dropped note, population SD)")
    .option("--json", "print one JSON report on stdout instead (full precision; see docs/json-reports.md)")
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay report results/raw/board-passk --baseline sonnet-5\n" +
        "  georeplay report results/raw/run1 results/raw/run2 --baseline base --legacy\n" +
        "  georeplay report run/episodes.jsonl --json > board.json\n" +
        "  georeplay report crops/eval/episodes.jsonl crops/eval-v2/episodes.jsonl --baseline scripted-vlm",
    )
    .action(async (inputs: string[], o: { baseline: string; legacy?: boolean; json?: boolean }, command: Command) => {
      if (await reportCrops(inputs, o, command.getOptionValueSource("baseline") === "default")) return;
      // Loaded when the command runs: other commands never load the board engine.
      const { readBoard, boardReport, formatReport } = await import("../../replay/board/index.ts");
      const board = await readBoard(inputs, { signal: interruptSignal() });
      const report = boardReport(board, { baseline: o.baseline, legacy: Boolean(o.legacy) });
      // geoeval prints no paired section for an absent baseline; one asked for by name is a mistake, as page says.
      if (command.getOptionValueSource("baseline") === "cli" && !report.arms.some((a) => a.arm === o.baseline))
        throw new GeoreplayError(`--baseline ${o.baseline}: no arm of that name on this board (arms: ${report.arms.map((a) => a.arm).join(", ")})`);
      for (const note of board.notes) process.stderr.write(note + "\n");
      // geoeval's own note (stdout, byte for byte) lumps errored rows with unscored ones: the page's words, apart.
      if (report.dropped_unscored) process.stderr.write(`note: ${tallyWords(reportTally(report))}, as georeplay page counts them\n`);
      process.stdout.write(o.json ? JSON.stringify(report, null, 2) + "\n" : formatReport(report));
      // A line that is not JSON: the report of the other rows is printed (geoeval's), each such line named, exit 2 as verify does.
      process.exitCode = reportTorn(board.torn);
    });
}

/** A crops board (the first record says `env: "crops"`): printed here, true; else false. */
async function reportCrops(inputs: string[], o: { baseline: string; json?: boolean }, baselineIsDefault: boolean): Promise<boolean> {
  const { peekEnv } = await import("../../replay/formats/peek-env.ts");
  const first = await peekEnv(inputs);
  const { recordEnv } = await import("../../envs/crops/replay/inputs.ts");
  // An env neither crops nor GeoGuesser's is named here, by file and line, not read as a GeoGuesser run.
  if (first && recordEnv({ env: first.env }, first.file, first.line) !== "crops") return false;
  if (!first) return false;
  const { cropsReport } = await import("../../envs/crops/replay/report.ts");
  const { formatCropsReport } = await import("../../envs/crops/replay/report-format.ts");
  // geoeval's default baseline "base" pairs only when such an arm exists; a baseline asked for must exist.
  const report = await cropsReport(inputs, { baseline: baselineIsDefault ? undefined : o.baseline, signal: interruptSignal() });
  process.stdout.write(o.json ? JSON.stringify(report, null, 2) + "\n" : formatCropsReport(report));
  process.exitCode = reportTorn(report.torn);
  return true;
}

/** Names each line that is not JSON on stderr (the report of the other rows is printed): exit 2 when any, as verify. */
function reportTorn(torn: readonly { file: string; line: number; last: boolean }[]): number {
  for (const t of torn.slice(0, MAX_NAMED)) process.stderr.write(`${tornMessage(t)}\n`);
  if (torn.length > MAX_NAMED) process.stderr.write(`… and ${torn.length - MAX_NAMED} more line(s) that are not JSON\n`);
  if (torn.length)
    process.stderr.write(`${torn.length} line(s) that are not JSON kept georeplay from reading every row: the report is of the others (exit 2)\n`);
  return torn.length ? EXIT_INPUT : EXIT_OK;
}
