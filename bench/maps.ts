/**
 * The maps' cost: what a page embeds per map, and what a render's maps cost
 * in memory and time (whole `georeplay render` processes, /usr/bin/time -v,
 * the bundled Trieste episode at 1280x720, 30 fps):
 *
 *   node dist/bench/maps.js [--no-render]
 *
 *  page bytes per map (the map module's primitives as the page embeds them), by framing
 *  native render of Trieste (pin maps at 10m, the 619 m score card), side by side
 *  with the same render before the map module      goals: peak RSS <= 400 MB, time within 5%
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { timedProcess, median, type Timed } from "./timed.ts";
import { mapSpec, revealFrame, pinsFrame } from "../src/page/geo.ts";
import { baselineCli, ROOT } from "./common.ts";

const CLI = join(ROOT, "dist", "src", "cli.js");
const S = join(ROOT, "rollouts", "sample");
const IN = [join(S, "episodes.jsonl"), "--tasks", join(S, "tasks.jsonl"), "--panos", join(S, "panos")];
const load = () => spawnSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).stdout.split(" ").slice(0, 3).join(" ");

type LL = [number, number];
const maps: [string, () => ReturnType<typeof mapSpec>][] = [
  ["Trieste score card, 619 m (10m)", () => mapSpec(revealFrame([45.6471, 13.7758], [45.6499, 13.7689]), [], [45.6471, 13.7758], [45.6499, 13.7689])],
  ["Trieste pin map, one pin (10m)", () => mapSpec(pinsFrame([[45.6471, 13.7758]])!, [[45.6471, 13.7758]], null, null)],
  ["269 km inside Nigeria (10m)", () => mapSpec(revealFrame([11.4955, 7.3986], [9.0765, 7.3986]), [], [11.4955, 7.3986], [9.0765, 7.3986])],
  ["Fiji across the antimeridian (10m)", () => mapSpec(revealFrame([-16.4, -179.6], [-18.14, 178.44]), [], [-16.4, -179.6], [-18.14, 178.44])],
  ["Far miss, > 25 degrees (50m)", () => mapSpec(revealFrame([10, 10] as LL, [50, 60] as LL), [], [10, 10], [50, 60])],
  ["World, no pins (110m)", () => mapSpec({ center: [20, 0], halfWidthDeg: 80 }, [], null, null)],
];

console.log(`maps: page bytes per map (JSON as embedded); load ${load()}`);
for (const [name, make] of maps) {
  const t0 = performance.now();
  const m = make();
  const ms = performance.now() - t0;
  const bytes = JSON.stringify(m).length;
  console.log(
    `  ${name.padEnd(40)} ${(bytes / 1024).toFixed(1).padStart(6)} KB (land ${((m.landPath ?? "").length / 1024).toFixed(1)} KB, ${m.prims.length} primitives) · ${ms.toFixed(0)} ms`,
  );
}

/**
 * "Today" for the render's speed: the commit before the map module (50m
 * Natural Earth, no place names, no scale bar), built by bench/common.ts.
 */
const BEFORE_MAPS = "8387a6a";
const ROUNDS = 3;

if (!process.argv.includes("--no-render")) {
  const work = mkdtempSync(join(tmpdir(), "georeplay-bench-maps-"));
  try {
    const before = baselineCli(BEFORE_MAPS);
    const sides: [string, string][] = [["now", CLI]];
    if ("cli" in before) sides.unshift([`before the map module (${BEFORE_MAPS})`, before.cli]);
    else console.log(`  no side-by-side with ${BEFORE_MAPS}: ${before.why}`);
    const runs = new Map<string, Timed[]>(sides.map(([name]) => [name, []]));
    // Interleaved rounds, so both sides see the same load.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, cli] of sides) {
        const out = join(work, "trieste.mp4");
        const t = timedProcess(process.execPath, [cli, "render", ...IN, "--episode", "90a9d3eba5ce", "-o", out, "--no-progress"]);
        if (t.code !== 0) {
          console.log(`  render (${name}): failed (exit ${t.code}) ${t.stderr.split("\n").slice(-4).join(" ")}`);
          process.exitCode = 1;
        } else runs.get(name)!.push(t);
        rmSync(out, { force: true });
      }
    }
    const med = (name: string, f: (t: Timed) => number) => median(runs.get(name)!.map(f));
    console.log(
      `  native render of Trieste at 1280x720 (pin maps at 10m, the 619 m score card), median of ${ROUNDS} interleaved rounds; load after: ${load()}`,
    );
    for (const [name] of sides) {
      if (!runs.get(name)!.length) continue;
      console.log(
        `    ${name.padEnd(40)} ${med(name, (t) => t.wallS).toFixed(1)} s wall · ${med(name, (t) => t.cpuS).toFixed(1)} CPU-s · peak RSS ${med(name, (t) => t.peakMb).toFixed(0)} MB`,
      );
    }
    const [was] = sides[0];
    if (sides.length === 2 && runs.get(was)!.length && runs.get("now")!.length) {
      const ratio = (f: (t: Timed) => number) => (med("now", f) / med(was, f)).toFixed(3);
      console.log(
        `    now / before: wall ${ratio((t) => t.wallS)}x, CPU ${ratio((t) => t.cpuS)}x (goal: within 5%, <= 1.05) · peak RSS ${ratio((t) => t.peakMb)}x (goal: <= 400 MB)`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
