/**
 * `georeplay page` on GeoGuesser runs, boards and example rollouts: the page writer's run (its
 * progress, messages, --json and exit code). The command's shared parts (flags, --help, the -o
 * check) are src/commands/page.ts.
 */
import { episodeCount } from "../../../src/page/count-words.ts";
import { DEFAULT_VIEWS_MB } from "./page/page-options.ts";
import { pageExitCode, pageJson } from "./reports/page.ts";
import { withProgress } from "../../../src/commands/options/shared.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import type { PageCliOptions } from "../../../src/commands/options/command-options.ts";

export async function pageCommand(episodes: string[], o: PageCliOptions): Promise<void> {
  // Loaded when the command runs, so `--help` and other commands never load sharp or the page writer.
  const r = await withProgress("page", o, async (bar) =>
    (await import("./page/build.ts")).buildPage({
      ...o,
      signal: interruptSignal(),
      episodes,
      partial: Boolean(o.partial),
      onProgress: (p) => bar.update(Math.round(p.fraction * 1000), `${p.episodes} episodes · ${p.views} views · ${p.mismatch} mismatch`),
    }),
  );
  const err: string[] = [];
  for (const p of r.erroredEpisodes) err.push(`skipped: ${p.message}`);
  for (const p of r.warnings) err.push(`warning: ${p.message}`);
  for (const p of r.errors) err.push(`error: ${p.message}`);
  if (!r.written) {
    err.push(
      `${r.errors.length} problem(s) kept georeplay from reading the whole run: no page written; rerun with --partial to write a page of what could be read`,
    );
  } else if (r.partial) {
    err.push(`partial page: ${r.errors.length} problem(s) kept georeplay from reading the whole run; they are listed at the top of the page`);
  }
  if (r.written && r.viewsLeftOut)
    err.push(
      `${r.viewsLeftOut} of ${r.viewsLeftOut + (r.viewsEmbedded ?? 0)} verified view(s) did not fit the one-file page's budget (${o.maxMb === undefined && o.exactZoomsMb === undefined ? `${DEFAULT_VIEWS_MB} MB of views by default; --max-mb sets the whole page's` : "--max-mb"}) and are reprojected from the panoramas, badged "reprojected"; -o DIR/ (the folder form) keeps every one exact`,
    );
  if (r.written && r.mismatch) err.push(`${r.mismatch} view(s) do not match their recorded hash; the page badges them as mismatch`);
  if (err.length) process.stderr.write(err.join("\n") + "\n");
  if (o.json) process.stdout.write(JSON.stringify(pageJson(r), null, 2) + "\n");
  else if (r.written) {
    const mb = (r.bytes / 1e6).toFixed(1);
    const what = [
      episodeCount(r.formats, r.tally),
      r.views || !r.recordedImages.checked ? `${r.views} views` : "",
      r.recordedImages.checked ? `${r.recordedImages.ok} recorded images` : "",
    ].filter(Boolean);
    const images = r.board
      ? `${r.images} panoramas, ${r.viewsEmbedded ?? 0} exact views${r.viewsLeftOut ? `, ${r.viewsLeftOut} reprojected in the browser` : ""}`
      : `${r.images} distinct images stored`;
    const where = r.form === "folder" ? `${r.out} (a folder of ${r.files} files: open ${r.out.replace(/\/?$/, "/")}index.html)` : r.out;
    process.stdout.write(`wrote ${where} · ${what.join(" · ")} (${images}) · ${mb} MB\n`);
  }
  process.exitCode = pageExitCode(r);
}
