/**
 * `georeplay page` on a crops run (records with `env: "crops"`): the one place the page command
 * dispatches to the crops page (envs/crops/src/page). Same forms (-o x.html, -o DIR/), progress bar,
 * --json and exit codes as GeoGuesser's page: 0 written and everything verified, 1 written with
 * findings (badged in the page), 2 bad input (nothing written).
 */
import { runExitCode } from "../../../src/reports/exit-codes.ts";
import { withProgress } from "../../../src/commands/options/shared.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
/** The page command's options a crops page reads (the rest are GeoGuesser's). */
export interface CropsPageCliOptions {
  out: string;
  title?: string;
  baseline?: string;
  dataset?: string;
  tasks?: string;
  panos?: string;
  json?: boolean;
  progress: boolean;
}

export async function writeCropsPage(inputs: string[], o: CropsPageCliOptions): Promise<void> {
  for (const [flag, given] of [
    ["--tasks", o.tasks],
    ["--panos", o.panos],
  ] as const)
    if (given) process.stderr.write(`warning: ${flag} is for GeoGuesser runs; a crops run reads its dataset folder (--dataset)\n`);
  // Loaded when a crops page is written: the renderer, sharp and the page's script.
  const { buildCropsPage } = await import("./page/build.ts");
  const r = await withProgress("page", o, (bar) =>
    buildCropsPage({
      inputs,
      dataset: o.dataset,
      out: o.out,
      title: o.title,
      baseline: o.baseline,
      signal: interruptSignal(),
      onProgress: (p) => bar.update(Math.round(p.fraction * 1000), `${p.episodes} episodes · ${p.views} views · ${p.mismatch} mismatch`),
    }),
  );
  if (r.findings) process.stderr.write(`${r.findings} finding(s) (${r.mismatch} view(s) do not match their recorded hash); the page shows each one\n`);
  if (o.json) process.stdout.write(JSON.stringify(r, null, 2) + "\n");
  else {
    const where = r.form === "folder" ? `${r.out} (a folder of ${r.files} files: open ${r.out.replace(/\/?$/, "/")}index.html)` : r.out;
    process.stdout.write(
      `wrote ${where} · ${r.episodes} episodes · ${r.arms} arm(s) · ${r.views} views (${r.images} distinct images stored) · ${(r.bytes / 1e6).toFixed(1)} MB\n`,
    );
  }
  process.exitCode = runExitCode({ problems: 0, mismatch: r.findings });
}
