/**
 * The bench's generated board spreads its arms' guesses over the world as real
 * boards do (bench/board/make.ts): truths on every continent, misses near the
 * truth or on another continent, each outcome's distance that of its guess,
 * the same board from the same seed. Its map costs are then what users' boards give.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBoard, guessFor, haversine, taskLatLon } from "../../bench/board/make.ts";
import { DEFAULT_SHAPE } from "../../bench/board/shape.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-bench-spread-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A rough continent for a point: enough to tell that guesses reach all of them. */
function continent([lat, lon]: [number, number]): string {
  if (lat < -10 && lon > 110) return "Oceania";
  if (lon < -30) return lat > 12 ? "North America" : "South America";
  if (lat < 35 && lon < 52) return "Africa";
  if (lon < 60 && lat >= 35) return "Europe";
  return "Asia";
}

describe("the generated board's guesses", () => {
  it("reach every continent, from every arm, and most of a task's attempts guess apart", () => {
    const { arms, tasks, k } = DEFAULT_SHAPE;
    const byArm = new Map<number, Set<string>>();
    let apart = 0;
    for (let t = 0; t < tasks; t++) {
      const truth = taskLatLon(t);
      const cells = new Set<string>();
      for (let a = 0; a < arms; a++)
        for (let p = 0; p < k; p++) {
          const g = guessFor(`${a}:${p}:${t}`, truth, 0.25 + (a % 8) * 0.07);
          expect(guessFor(`${a}:${p}:${t}`, truth, 0.25 + (a % 8) * 0.07)).toEqual(g); // seeded
          if (!byArm.has(a)) byArm.set(a, new Set());
          byArm.get(a)!.add(continent(g));
          cells.add(`${Math.floor(g[0])}:${Math.floor(g[1])}`);
        }
      if (cells.size > (arms * k) / 2) apart++;
    }
    for (const [, seen] of byArm) expect([...seen].sort()).toEqual(["Africa", "Asia", "Europe", "North America", "Oceania", "South America"]);
    expect(new Set(Array.from({ length: tasks }, (_, t) => continent(taskLatLon(t)))).size).toBe(6);
    expect(apart).toBeGreaterThan(tasks * 0.9);
  });

  it("an episode's outcome holds its guess, its truth and the distance between them", async () => {
    const b = await ensureBoard(
      { ...DEFAULT_SHAPE, arms: 2, tasks: 12, k: 1, lineBytes: 8000 },
      { out: join(dir, "board"), placeholderHashes: true, log: () => {} },
    );
    let n = 0;
    for (const arm of readdirSync(b.root))
      for (const line of readFileSync(join(b.root, arm, "pass0", "episodes.jsonl"), "utf8")
        .split("\n")
        .filter(Boolean)) {
        const o = (JSON.parse(line) as { outcome?: { guess: [number, number] | null; truth: [number, number]; distance_km: number | null } }).outcome;
        if (!o?.guess) continue;
        expect(o.distance_km).toBeCloseTo(haversine(o.truth, o.guess), 2);
        n++;
      }
    expect(n).toBeGreaterThan(20);
  });
});
