/**
 * A small board for the board-page tests, derived deterministically from the
 * sweep fixture (6 tasks x 3 passes, re-renderable with the mixed fixture's
 * tasks and panoramas): three arms whose outcomes differ so that deltas,
 * CIs and per-task deltas are not trivial. Views are untouched (they stay
 * verifiable); only model_name, episode_id and outcome numbers change. One
 * unscored row (no env reward) checks that the page, like the report,
 * leaves it out of the tables but keeps it in the list.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative, dirname } from "node:path";
import { FIXTURES } from "./helpers.ts";

const SWEEP = join(FIXTURES, "sweep");

function files(d: string): string[] {
  return readdirSync(d, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : e.name === "episodes.jsonl" ? [join(d, e.name)] : []));
}

/** Arms: name, and how each copy's guess distance changes (by task index and sample). */
const ARMS: { arm: string; km: (d: number, task: number, sample: number) => number }[] = [
  { arm: "base", km: (d) => d },
  { arm: "ckpt-a", km: (d, task, sample) => d * (task % 2 ? 0.4 : 0.9) + 13 * sample },
  { arm: "ckpt-b", km: (d, task, sample) => d * (task % 3 ? 1.7 : 0.8) + 40 * sample + 7 * task },
];

export function makeSmallBoard(out: string): string {
  for (const file of files(SWEEP)) {
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim());
    for (const { arm, km } of ARMS) {
      const rows = lines.map((l, i) => {
        const e = JSON.parse(l);
        if (!Array.isArray(e.turns)) return l;
        e.model_name = arm;
        e.episode_id = `${arm}-${e.episode_id}`;
        const o = e.outcome;
        if (o && typeof o.distance_km === "number") {
          o.distance_km = km(o.distance_km, e.task.index, e.task.sample ?? 0);
          if (arm !== "base" && o.distance_km > 900) o.verdict = "Wrong region"; // so the verdict filter has a choice
        }
        if (arm === "ckpt-b" && e.task.index === 5 && e.task.sample === 2 && i === lines.length - 1) o.reward = null; // unscored
        return JSON.stringify(e);
      });
      const dest = join(out, arm, relative(SWEEP, dirname(file)), "episodes.jsonl");
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, rows.join("\n") + "\n");
    }
  }
  return out;
}
