/**
 * `georeplay verify` on a crops (detection gym) run. Same output style, exit codes, --json,
 * --shard, --limit and progress bar as GeoGuesser's verify; each finding names its kind.
 */
import type { CropsVerifyReport } from "../replay/verify.ts";
import { parseShard } from "../../../replay/io/shard.ts";
import { runExitCode } from "../../../src/reports/exit-codes.ts";
import { withProgress } from "../../../src/commands/options/shared.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";

export interface CropsCliOptions {
  dataset?: string;
  tasks?: string;
  panos?: string;
  shard?: string;
  limit?: number;
  json?: boolean;
  progress: boolean;
}

export async function verifyCropsCommand(inputs: string[], o: CropsCliOptions): Promise<void> {
  for (const [flag, given] of [
    ["--tasks", o.tasks],
    ["--panos", o.panos],
  ] as const)
    if (given) process.stderr.write(`warning: ${flag} is for GeoGuesser runs; a crops run reads its dataset folder (--dataset)\n`);
  // Loaded when a crops run is verified: the renderer, sharp and zod.
  const { verifyCrops } = await import("../replay/verify.ts");
  const shard = o.shard ? parseShard(o.shard) : undefined;
  const report = await withProgress("verify", o, (bar) =>
    verifyCrops({
      inputs,
      dataset: o.dataset,
      shard,
      limit: o.limit,
      signal: interruptSignal(),
      onProgress: (p) => bar.update(Math.round(p.fraction * 1000), `${p.episodes} episodes · ${p.views} views · ${p.mismatch} mismatch`),
    }),
  );
  if (o.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  else {
    const { out, err } = formatCropsReport(report);
    if (err) process.stderr.write(err);
    process.stdout.write(out);
  }
  process.exitCode = cropsExitCode(report);
}

/** Findings of any kind are drift (1); a run that checked nothing is an input problem (2). */
export const cropsExitCode = (r: CropsVerifyReport): number => runExitCode({ problems: r.episodes === 0 ? 1 : 0, mismatch: r.mismatches.length });

// Whole hashes: an altered digit can sit anywhere.
const hex = (h: string | undefined) => h ?? "";

export function formatCropsReport(r: CropsVerifyReport): { out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  out.push(`${r.episodes} episodes · ${r.checked} view turns checked · ${r.match} match · ${r.mismatch} mismatch`);
  const notes = [`crops dataset ${r.dataset}`, `${r.rendered} distinct views rendered`];
  if (r.formats.train) notes.push(`${r.formats.train} training rollouts`);
  if (r.skipped.other_shards) notes.push(`${r.skipped.other_shards} episodes in other shards`);
  if (r.shard) notes.push(`shard ${r.shard}`);
  out.push(`  (${notes.join("; ")})`);
  const c = r.counts;
  const n = (x: { checked: number; ok: number }) => `${x.ok}/${x.checked}`;
  out.push(
    `thumbnails ${n(c.thumbnails)} · box mappings ${n(c.box_mappings)} · transitions ${n(c.transitions)} · shaping ${n(c.shaping)} · outcomes ${n(c.outcomes)}` +
      (c.advantages.checked ? ` · advantages ${n(c.advantages)}` : ""),
  );
  for (const m of r.mismatches) {
    const turn = m.turn === null ? "" : ` turn ${m.turn}`;
    const hashes = m.recorded ? ` · recorded ${hex(m.recorded)} rendered ${hex(m.rendered)}` : "";
    out.push(`MISMATCH ${m.kind} episode ${m.episode_id}${turn} · task ${m.split}/${m.index} · ${m.message}${hashes} (${m.file}:${m.line})`);
  }
  if (r.group_starts.compared > 0 && r.group_starts.failures.length === 0)
    out.push(`${r.group_starts.compared} GRPO group(s) of two or more rollouts: every sibling starts from the same first view`);
  if (r.episodes === 0) err.push("error: nothing to check (no crops record in this shard)");
  else if (r.mismatches.length === 0)
    out.push("every view turn reproduces byte-for-byte, and every mapping, transition, shaping hint and outcome recomputes exactly");
  else {
    const kinds = new Map<string, number>();
    for (const m of r.mismatches) kinds.set(m.kind, (kinds.get(m.kind) ?? 0) + 1);
    out.push(
      `DRIFT: ${[...kinds].map(([k, v]) => `${v} ${k}`).join(", ")}; a page or video built from this run would not show what the model saw or was scored on`,
    );
  }
  const join = (l: string[]) => (l.length ? l.join("\n") + "\n" : "");
  return { out: join(out), err: join(err) };
}
