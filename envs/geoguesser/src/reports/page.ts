/** The `page --json` report and the page's exit code. */
import type { BuildPageResult } from "../page/build.ts";
import { runExitCode } from "../../../../src/reports/exit-codes.ts";

/** Exit code of a page build, by the one precedence rule (exit-codes.ts). */
export function pageExitCode(r: BuildPageResult): number {
  return runExitCode({ problems: r.errors.length, mismatch: r.mismatch });
}

/** The `--json` summary (docs/json-reports.md): fields are only ever added. */
export function pageJson(r: BuildPageResult) {
  return {
    out: r.out,
    written: r.written,
    partial: r.partial,
    bytes: r.bytes,
    episodes: r.episodes,
    counted: r.tally.counted,
    unscored: r.tally.unscored,
    errored: r.tally.errored,
    formats: r.formats,
    views: r.views,
    images: r.images,
    recorded_images: r.recordedImages,
    checked: r.checked,
    match: r.match,
    mismatch: r.mismatch,
    resolved: r.resolved,
    problems: r.errors,
    errored_episodes: r.erroredEpisodes,
    warnings: r.warnings,
    exit_code: pageExitCode(r),
    form: r.form ?? null,
    files: r.files ?? 0,
    views_embedded: r.viewsEmbedded ?? 0,
    views_left_out: r.viewsLeftOut ?? 0,
  };
}
