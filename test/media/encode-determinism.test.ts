/**
 * The same frames give the same file on any machine: x264's frame threads
 * are fixed per preset (x264.ts), not 1.5 a core, and libvpx's threads and
 * the WebM container's identifiers are fixed too. Real ffmpeg, real encoders:
 * the same raw frames encoded with the encoders' own arguments on one core
 * (taskset) and on all of them, twice.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../helpers.ts";
import { rawEncoderArgs } from "../../src/ffmpeg/raw-encoder.ts";
import { resolveFfmpeg } from "../../src/ffmpeg/find.ts";
import { X264_PRESETS, x264Threads, type X264Preset } from "../../src/ffmpeg/x264.ts";
import { transcode } from "../../src/ffmpeg/transcode.ts";

const W = 320;
const H = 180;
const FRAMES = 48;

/** Moving gradients over fixed noise: enough motion and detail for x264's frame threads to matter. */
function frames(): Buffer {
  const out = Buffer.alloc(W * H * 4 * FRAMES);
  let seed = 12345;
  const noise = new Uint8Array(W * H);
  for (let i = 0; i < noise.length; i++) noise[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 26;
  for (let f = 0; f < FRAMES; f++)
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const o = ((f * H + y) * W + x) * 4;
        const n = noise[y * W + ((x + 3 * f) % W)];
        out[o] = (x * 2 + f * 5 + n) & 255;
        out[o + 1] = (y * 3 - f * 4 + n) & 255;
        out[o + 2] = ((x ^ y) + f * 7) & 255;
        out[o + 3] = 255;
      }
  return out;
}

function encode(args: string[], raw: Buffer, oneCore: boolean): string {
  const ffmpeg = resolveFfmpeg().path;
  const r = oneCore ? spawnSync("taskset", ["-c", "0", ffmpeg, ...args], { input: raw }) : spawnSync(ffmpeg, args, { input: raw });
  expect(r.status, r.stderr?.toString()).toBe(0);
  return createHash("sha256")
    .update(readFileSync(args[args.length - 1]))
    .digest("hex");
}

describe("x264's frame threads", () => {
  it("are fixed for every preset: 3 up to veryfast, 6 from faster on", () => {
    expect(X264_PRESETS.map((p) => x264Threads(p))).toEqual([3, 3, 3, 6, 6, 6, 6, 6, 6]);
    const args = rawEncoderArgs({ out: "x.mp4", width: 16, height: 16, fps: 5, runs: [{ start: 0, length: 1 }] });
    expect(args[args.indexOf("-threads") + 1]).toBe("6"); // medium, the default
  });

  it("make the same MP4 on one core as on all of them (and without them x264's own choice would not)", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-x264-threads-"));
    try {
      const raw = frames();
      for (const preset of ["veryfast", "medium"] as X264Preset[]) {
        const args = (out: string) =>
          rawEncoderArgs({
            out: join(dir, out),
            width: W,
            height: H,
            fps: 30,
            runs: Array.from({ length: FRAMES }, (_, i) => ({ start: i, length: 1 })),
            preset,
          });
        expect(encode(args(`${preset}-one.mp4`), raw, true), preset).toBe(encode(args(`${preset}-all.mp4`), raw, false));
        if (availableParallelism() >= 2) {
          // The sensitivity of the check: x264 left to pick its threads (1.5 a core) writes other bytes on one core.
          const auto = (out: string) => {
            const a = args(out);
            a.splice(a.indexOf("-threads"), 2);
            return a;
          };
          expect(encode(auto(`${preset}-auto-one.mp4`), raw, true), preset).not.toBe(encode(auto(`${preset}-auto-all.mp4`), raw, false));
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("the formats made from an MP4", () => {
  it("WebM, GIF and WebP: the same bytes on one core as on all of them, run after run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-formats-determinism-"));
    try {
      const mp4 = join(dir, "clip.mp4");
      const args = rawEncoderArgs({
        out: mp4,
        width: W,
        height: H,
        fps: 30,
        runs: Array.from({ length: FRAMES }, (_, i) => ({ start: i, length: 1 })),
        preset: "veryfast",
      });
      encode(args, frames(), false);
      const src = { width: W, height: H, fps: 30, frames: FRAMES };
      const hash = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");
      for (const format of ["webm", "gif", "webp"] as const) {
        const made: string[] = [];
        for (const run of ["a", "b"]) {
          const out = join(dir, `${run}.${format}`);
          await transcode(mp4, out, format, src, { maxBytes: null });
          made.push(hash(out));
        }
        // One core: the same transcode (the compiled module; `npm test` builds dist/ first) in a process under taskset.
        const one = join(dir, `one.${format}`);
        const script = `import { transcode } from ${JSON.stringify(pathToFileURL(join(ROOT, "dist", "src", "ffmpeg", "transcode.js")).href)};
await transcode(${JSON.stringify(mp4)}, ${JSON.stringify(one)}, ${JSON.stringify(format)}, ${JSON.stringify(src)}, { maxBytes: null });`;
        const r = spawnSync("taskset", ["-c", "0", process.execPath, "--input-type=module", "-e", script]);
        expect(r.status, r.stderr?.toString()).toBe(0);
        made.push(hash(one));
        expect(new Set(made).size, `${format}: ${made.join(" ")}`).toBe(1);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
