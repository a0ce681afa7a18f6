/** The text `georeplay groups` prints: one row per step, then the run's summary. */
import type { GroupEntry, GroupsReport } from "./groups-schema.ts";

const fixed = (x: number | null, digits: number) => (x === null ? "-" : x.toFixed(digits));
const times = (x: number | null) => (x === null ? "-" : `${x.toFixed(1)}x`);

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  // The first column (the step) is left-aligned, numbers right-aligned.
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)];
}

/** A group's byte-identical siblings by rank: "#1=#3 #2=#4"; "" when none. */
function identicalText(g: Pick<GroupEntry, "identical" | "ranks">): string {
  return g.identical
    .map((set) =>
      set
        .map((i) => g.ranks[i])
        .sort((a, b) => a - b)
        .map((r) => `#${r}`)
        .join("="),
    )
    .join(" ");
}

/** A group's siblings by rank, each with its rollout (file:line): the numbering the page and `render --group` use. */
function siblingsLine(g: Pick<GroupEntry, "ranks" | "rollouts" | "advantages">): string {
  const order = g.ranks.map((r, i) => ({ r, i })).sort((a, b) => a.r - b.r);
  return `      ${order.map(({ r, i }) => `#${r} ${g.rollouts[i]} (${(g.advantages[i] >= 0 ? "+" : "") + g.advantages[i].toFixed(2)})`).join(", ")}`;
}

/** Each step's groups, one row per group (what `--detail` adds before the summary). */
function stepDetail(r: GroupsReport, label: (s: { run: string; step: number }) => string): string[] {
  const out: string[] = [];
  let g = 0;
  for (const s of r.steps) {
    out.push("");
    out.push(
      `step ${label(s)} · ${s.groups} groups · ${s.episodes} episodes · mean env reward ${fixed(s.mean_reward, 4)} · zero-std ${fixed(s.frac_reward_zero_std, 2)}` +
        ` · median std ${fixed(s.median_group_std, 4)} (${times(s.multiplier)})`,
    );
    const rows: string[][] = [];
    const sib: string[] = [];
    for (; g < r.groups.length && r.groups[g].run === s.run && r.groups[g].step === s.step; g++) {
      const x = r.groups[g];
      rows.push([
        `${x.task.split}/${x.task.index}${x.group_id !== null ? ` (${x.group_id})` : ""}`,
        String(x.size),
        fixed(x.mean, 4),
        fixed(x.std, 4),
        x.zero_std ? "zero" : "",
        x.rewards.map((v) => v.toFixed(3)).join(" "),
        x.advantages.map((v) => (v >= 0 ? "+" : "") + v.toFixed(2)).join(" "),
        identicalText(x),
      ]);
      sib.push(siblingsLine(x));
    }
    const lines = table(
      ["  task", "size", "mean", "std", "spread", "rewards", "advantages", "identical"],
      rows.map((row) => [`  ${row[0]}`, ...row.slice(1)]),
    );
    // Each group's row, then its siblings by rank.
    out.push(lines[0], ...lines.slice(1).flatMap((l, i) => [l.trimEnd(), sib[i]]));
  }
  return out;
}

export function formatGroups(r: GroupsReport, opts: { detail?: boolean } = {}): string {
  const runs = new Set(r.steps.map((s) => s.run));
  const label = (s: { run: string; step: number }) => (runs.size > 1 ? `${s.run}/${s.step}` : String(s.step));
  const out: string[] = [];
  out.push(
    ...table(
      ["step", "groups", "episodes", "mean env reward", "zero-std", "median std", "multiplier"],
      r.steps.map((s) => [
        label(s),
        String(s.groups),
        String(s.episodes),
        fixed(s.mean_reward, 4),
        fixed(s.frac_reward_zero_std, 2),
        fixed(s.median_group_std, 4),
        times(s.multiplier),
      ]),
    ),
  );
  if (opts.detail) out.push(...stepDetail(r, label));
  const m = r.summary;
  out.push("");
  out.push(
    `${runs.size > 1 ? `${runs.size} runs · ` : `run ${[...runs][0] ?? "-"} · `}${m.steps} steps · ${m.groups} groups · ${r.rollouts} rollouts` +
      ` · reward ${r.reward} · scale_rewards ${r.scale_rewards}`,
  );
  out.push(`median group std over the run: ${fixed(m.median_group_std, 4)} (advantages scaled ${times(m.multiplier)})`);
  out.push(
    `steps with frac_reward_zero_std = 1 (no group had any spread): ${m.all_zero_std_steps.length ? m.all_zero_std_steps.map((s) => `step ${label(s)}`).join(", ") : "none"}`,
  );
  if (m.largest_multipliers.length)
    out.push(
      `largest multipliers: ${m.largest_multipliers.map((x) => `step ${label(x)} ${times(x.multiplier)} (median std ${fixed(x.median_group_std, 4)})`).join(", ")}`,
    );
  if (m.single_rollout_groups)
    out.push(`${m.single_rollout_groups} group(s) of a single rollout: no sample std (torch: NaN), advantage 0, not counted as zero spread`);
  out.push(...recordedLines(r));
  return out.join("\n") + "\n";
}

/** The recorded advantages' check: one line when they all recompute, else one MISMATCH line each (full precision). */
function recordedLines(r: GroupsReport): string[] {
  const a = r.recorded_advantages;
  if (!a.checked) return [];
  if (!a.findings.length) return [`recorded advantages: ${a.ok}/${a.checked} equal r - mean exactly`];
  return [
    `recorded advantages: ${a.ok}/${a.checked} equal r - mean exactly`,
    ...a.findings.map(
      (f) =>
        `MISMATCH advantage group ${f.group_id ?? `${f.run}/${f.step}/${f.task.split}/${f.task.index}`} sibling ${f.sibling}: recorded ${f.recorded}, recomputed ${f.recomputed} (reward ${f.reward} - mean ${f.mean}) (${f.file}:${f.line})`,
    ),
    `DRIFT: ${a.findings.length} recorded advantage(s) differ from the recomputed ones; the trainer's advantages are not what its rewards give`,
  ];
}
