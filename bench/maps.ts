/**
 * The maps' cost: what a page embeds per map, and what a render's maps cost
 * in memory and time (whole `georeplay render` processes, /usr/bin/time -v,
 * the bundled Trieste episode at 1280x720, 30 fps):
 *
 *   node dist/bench/maps.js [--no-render]
 *
 *  page bytes per map (the map module's primitives as the page embeds them), by framing
 *  native render of Trieste (pin maps at 10m, the 619 m score card)   goal: peak RSS <= 400 MB
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { mapSpec, revealFrame, pinsFrame } from "../src/page/geo.ts";
import { ROOT } from "./common.ts";

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
    `  ${name.padEnd(40)} ${(bytes / 1024).toFixed(1).padStart(6)} KB (land ${(m.landPath.length / 1024).toFixed(1)} KB, ${m.prims.length} primitives) · ${ms.toFixed(0)} ms`,
  );
}

if (!process.argv.includes("--no-render")) {
  const work = mkdtempSync(join(tmpdir(), "georeplay-bench-maps-"));
  try {
    const out = join(work, "trieste.mp4");
    const r = spawnSync("/usr/bin/time", ["-v", process.execPath, CLI, "render", ...IN, "--episode", "90a9d3eba5ce", "-o", out, "--no-progress"], {
      encoding: "utf8",
    });
    if (r.status !== 0) console.log(`  render: failed (exit ${r.status}) ${r.stderr.split("\n").slice(-4).join(" ")}`);
    else {
      const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)!;
      const wallS = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
      const rssMb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)![1]) / 1024;
      console.log(
        `  native render of Trieste: ${wallS.toFixed(1)} s wall · peak RSS ${rssMb.toFixed(0)} MB (goal <= 400 MB) · ${(statSync(out).size / 1e6).toFixed(1)} MB video; load after: ${load()}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
