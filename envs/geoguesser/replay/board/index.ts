/**
 * `geoeval report`, reproduced: read a board (streaming), compute its report,
 * print it byte for byte as geoeval does (../shared/docs/geoeval-report.md).
 *
 *   const board = await readBoard(["results/raw/sweep"], { signal });
 *   const report = boardReport(board, { baseline: "base" });   // --json object
 *   process.stdout.write(formatReport(report));                 // geoeval's text
 *
 * board.notes: what georeplay left out or skipped (stderr, never stdout).
 */
export { readBoard, pyTruthy, MEAN_FIELDS } from "./board.ts";
export type { Board, ArmTally, FileTally, ReadBoardOptions } from "./board.ts";
export { boardReport } from "./report.ts";
export type { BoardReportOptions } from "./report.ts";
export { formatReport } from "./format.ts";
export { ReportSchema, ReportArm, PairedComparison, ReportTask } from "./report-schema.ts";
export type { Report } from "./report-schema.ts";
export { findSweepFiles, QUARANTINE_DIR } from "../../../../replay/formats/sweep-files.ts";
export type { SweepFiles } from "../../../../replay/formats/sweep-files.ts";
export { fsum, fmean, median, stdev, pstdev, FSum } from "../../../../replay/board/pymath.ts";
export { pyFixed, pyRepr } from "../../../../replay/board/pyformat.ts";
