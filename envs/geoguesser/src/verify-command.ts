/** `georeplay verify` on GeoGuesser runs: every view re-rendered from its panorama and compared by sha256. */
import type { VerifyReport } from "../replay/verify/verify.ts";
import { runExitCode } from "../../../src/reports/exit-codes.ts";
import { withProgress } from "../../../src/commands/options/shared.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import type { VerifyCliOptions } from "../../../src/commands/options/command-options.ts";

export async function verifyCommand(episodes: string[], o: VerifyCliOptions): Promise<void> {
  // Loaded when the command runs: `--help` and other commands never load the renderer.
  const verify = await import("../replay/verify/verify.ts");
  const report = await withProgress("verify", o, (bar) =>
    verify.verifyRun({
      ...o,
      signal: interruptSignal(),
      episodes,
      shard: o.shard ? verify.parseShard(o.shard) : undefined,
      onProgress: (p) => bar.update(Math.round(p.fraction * 1000), `${p.episodes} episodes · ${p.views} views · ${p.mismatch} mismatch`),
    }),
  );
  if (o.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  else {
    const { out, err } = formatReport(report);
    if (err) process.stderr.write(err);
    process.stdout.write(out);
  }
  process.exitCode = verifyExitCode(report);
}

const short = (h: string) => h.slice(0, 12);

/** The text report: the summary and mismatches on stdout, problems on stderr. */
export function formatReport(r: VerifyReport): { out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  out.push(`${r.episodes} episodes · ${r.checked} view turns checked · ${r.match} match · ${r.mismatch} mismatch`);
  const notes: string[] = [];
  const kinds = Object.entries(r.formats).filter(([, n]) => n > 0);
  if (kinds.length > 1 || r.formats.train || r.formats.example)
    notes.push(kinds.map(([k, n]) => `${n} ${k === "eval" ? "eval episodes" : k === "train" ? "training rollouts" : "example-rollout episodes"}`).join(", "));
  if (r.resolved) notes.push(`${r.resolved} matched on an exact sampling boundary (resolved)`);
  if (r.skipped.map_turns) notes.push(`${r.skipped.map_turns} map turns skipped (not reproducible)`);
  if (r.skipped.errored_episodes) notes.push(`${r.skipped.errored_episodes} errored episodes skipped`);
  if (r.skipped.other_shards) notes.push(`${r.skipped.other_shards} episodes in other shards`);
  if (r.shard) notes.push(`shard ${r.shard}`);
  if (notes.length) out.push(`  (${notes.join("; ")})`);
  for (const m of r.mismatches) {
    const c = m.camera;
    out.push(
      `MISMATCH episode ${m.episode_id} turn ${m.turn} · task ${m.split}/${m.index} · camera heading ${c.heading_deg} pitch ${c.pitch_deg} fov ${c.fov_deg} frame ${c.frame_index}` +
        ` · recorded ${short(m.recorded)}… rendered ${short(m.rendered)}… (${m.file}:${m.line})`,
    );
  }
  for (const g of r.group_starts.failures) out.push(`GROUP DRIFT ${g.message}`);
  if (r.group_starts.compared > 0 && r.group_starts.failures.length === 0)
    out.push(`${r.group_starts.compared} GRPO group(s) of two or more rollouts: every sibling starts from the same first view`);
  for (const e of r.errored_episodes) err.push(`skipped: ${e.message}`);
  for (const w of r.warnings) err.push(`warning: ${w.message}`);
  for (const e of r.errors) err.push(`error: ${e.message}`);
  if (r.recorded_images.checked > 0) {
    out.push(
      `example-rollout folders carry no hashes (their images are the record): ${r.recorded_images.ok} of ${r.recorded_images.checked} referenced images exist and decode`,
    );
  }
  if (r.mismatch === 0 && r.errors.length === 0 && r.checked > 0) out.push("every view turn reproduces byte-for-byte");
  else if (r.checked + r.recorded_images.checked === 0 && r.errors.length === 0) err.push("error: nothing to check (no view turn with a recorded hash)");
  else if (r.mismatch > 0)
    out.push(`DRIFT: ${r.mismatch} view(s) do not reproduce; a video or page built from this trace would show something the model never saw`);
  if (r.group_starts.failures.length)
    out.push(`DRIFT: ${r.group_starts.failures.length} GRPO group(s) whose siblings start from different views; their advantages measured that difference`);
  if (r.errors.length) err.push(`${r.errors.length} problem(s) kept georeplay from checking everything it was asked to (exit 2)`);
  const join = (l: string[]) => (l.length ? l.join("\n") + "\n" : "");
  return { out: join(out), err: join(err) };
}

/** verify's outcome; checking nothing is an input problem. */
function verifyExitCode(r: VerifyReport): number {
  const nothing = r.checked + r.recorded_images.checked === 0 ? 1 : 0;
  // A GRPO group whose siblings start from different views is drift too: its advantages measured it.
  return runExitCode({ problems: r.errors.length + nothing, mismatch: r.mismatch + r.group_starts.failures.length });
}
