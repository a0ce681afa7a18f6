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

/** The fourth arm of makeFourArmBoard. */
const FOURTH = { arm: "sonnet-5", km: (d: number, task: number, sample: number) => d * (task % 2 ? 0.6 : 1.3) + 5 * sample + 3 };

/** A reply in Markdown with the usual attacks in it (the page must show bold text and keep every payload inert), ending in an Arabic paragraph. */
export const MARKDOWN_REPLY =
  "**Architecture** says Balkans. [map](https://example.invalid/m) ![pic](https://example.invalid/x.png) " +
  '<img src=x onerror="window.__xss=1"> <script>window.__xss=2</script>\n\n- *Cyrillic* signs\n\n```json\n{"action": "look"}\n```\n\nاللافتات باللغة العربية، ربما في القاهرة.';

/**
 * The small board plus a fourth arm (sonnet-5) and, on base, an unscored
 * duplicate of attempt 1 of task 1 (a second record of that attempt number
 * with no env reward, right after the first): what the compare view must
 * list apart, and what geoeval's report leaves out. One sonnet-5 reply is
 * Markdown with XSS payloads (MARKDOWN_REPLY).
 */
export function makeFourArmBoard(out: string): { dir: string; duplicate: string; markdownEpisode: string } {
  makeSmallBoard(out, [...ARMS, FOURTH]);
  const file = join(out, "base", "pass-1", "shard-1", "episodes.jsonl");
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const i = lines.findIndex((l) => JSON.parse(l).task.index === 1);
  const dup = JSON.parse(lines[i]);
  dup.episode_id = `base-dup-${dup.episode_id.slice(5)}`;
  dup.outcome.reward = null;
  lines.splice(i + 1, 0, JSON.stringify(dup));
  writeFileSync(file, lines.join("\n") + "\n");
  const mdFile = join(out, FOURTH.arm, "pass-0", "shard-1", "episodes.jsonl");
  const md = readFileSync(mdFile, "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const e = JSON.parse(md[0]);
  e.turns[1].model = { ...e.turns[1].model, reply: MARKDOWN_REPLY };
  md[0] = JSON.stringify(e);
  writeFileSync(mdFile, md.join("\n") + "\n");
  return { dir: out, duplicate: dup.episode_id, markdownEpisode: e.episode_id };
}

export function makeSmallBoard(out: string, arms = ARMS): string {
  for (const file of files(SWEEP)) {
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim());
    for (const { arm, km } of arms) {
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
