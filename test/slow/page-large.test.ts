/**
 * The large-run goals on a generated 200-episode run (make_traces.py,
 * seeded, cached in bench/.cache and shared with `bench/page.ts`): the page
 * builds, stays under 30 MB, opens to a usable first screen within 1.5 s in
 * headless Chromium, makes no request, and stores each distinct view once.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT, FIXTURES } from "../helpers.ts";
import { buildPage } from "../../envs/geoguesser/src/page/build.ts";
import { timeFirstScreen } from "../../bench/page.ts";

const REFERENCE = join(ROOT, "bench", "reference");
const RUN = join(ROOT, "bench", ".cache", "page-200-s1"); // same name and arguments as bench/page.ts

function ensureRun(): string {
  const episodes = join(RUN, "episodes.jsonl");
  if (existsSync(episodes)) return episodes;
  mkdirSync(RUN, { recursive: true });
  const r = spawnSync(
    "/usr/bin/python3",
    [
      join(REFERENCE, "make_traces.py"),
      "--look",
      join(REFERENCE, "look_reference.py"),
      "--tasks",
      join(FIXTURES, "mixed", "tasks.jsonl"),
      "--out",
      RUN,
      "--random",
      "200",
      "--seed",
      "1",
      "--variety",
    ],
    { cwd: REFERENCE, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`make_traces.py failed: ${r.stderr}`);
  return episodes;
}

describe("page of a 200-episode run", () => {
  it("builds under 30 MB and opens to a usable first screen with no request (its time is npm run bench's)", async () => {
    const episodes = ensureRun();
    const out = join(ROOT, "bench", ".cache", "page-200-s1.test.html");
    const r = await buildPage({ episodes: [episodes], tasks: join(FIXTURES, "mixed", "tasks.jsonl"), panos: join(RUN, "panos"), out });
    expect(r.episodes).toBe(200);
    expect(r.mismatch).toBe(0);
    const distinct = new Set<string>();
    let views = 0;
    for (const line of readFileSync(episodes, "utf8").split("\n")) {
      if (!line.trim()) continue;
      for (const t of JSON.parse(line).turns)
        if (t.image_kind === "view" && t.image_sha256) {
          views++;
          distinct.add(t.image_sha256);
        }
    }
    expect(r.views).toBe(views);
    expect(r.images).toBe(distinct.size);
    expect(statSync(out).size).toBeLessThan(30e6);
    const timings = await timeFirstScreen(out, 3);
    console.log(`first screen: ${timings.map((t) => t.readyMs.toFixed(0)).join(", ")} ms (goal < 1500 ms, held by bench/page.ts)`);
    for (const t of timings) expect(Number.isFinite(t.readyMs) && t.readyMs > 0, "the first screen became usable").toBe(true);
    for (const t of timings) expect(t.requests).toBe(0);
  }, 900_000);
});
