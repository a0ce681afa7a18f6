/**
 * Batches through the built CLI with real Chromium, ffmpeg and ffprobe: a drifted episode
 * fails alone (exit 1, the others written, WebM checked with ffprobe); GIF and WebP decode
 * with sharp, with the frame count and duration of the render, within --max-mb.
 */
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import sharp from "sharp";
import { runCli, MIXED } from "../helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { BatchManifestSchema } from "../../replay/batch/manifest-schema.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const outDir = () => {
  const d = mkdtempSync("/tmp/grb-");
  dirs.push(d);
  return d;
};
const inputs = [join(MIXED, "episodes.jsonl"), "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos")];
const ndjson = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const sha = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");
const manifestOf = (dir: string) => BatchManifestSchema.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));

describe("a batch with one drifted episode", () => {
  it("writes the others, reports the drift, exits 1; WebM is VP9 yuv420p", () => {
    const dir = outDir();
    // 0ec192c0f90d drifts at turn 5 (test/fixtures/mixed/corrupted.json).
    const r = runCli([
      "render",
      ...inputs,
      "--episode",
      "0ec192c0f90d",
      "--episode",
      "b110d889e34e",
      "--format",
      "webm",
      "--size",
      "320x180",
      "--fps",
      "6",
      "-o",
      dir + "/",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(1);
    const out = ndjson(r.stdout);
    const failed = out.find((l) => l.status === "failed");
    expect(failed).toMatchObject({ type: "video", file: "0ec192c0f90d.webm", error: { kind: "drift" } });
    expect(failed.error.message).toMatch(/turn 5/);
    const written = out.find((l) => l.status === "written");
    expect(written).toMatchObject({ file: "b110d889e34e.webm", episode_ids: ["b110d889e34e"], sides: [{ verified: true, source: "replay" }] });
    expect(out.at(-1)).toMatchObject({ type: "summary", written: 1, failed: 1, drift: 1, exit_code: 1 });

    const p = probeVideo(join(dir, "b110d889e34e.webm"));
    expect(p.codec).toBe("vp9");
    expect(p.pixFmt).toBe("yuv420p");
    expect([p.width, p.height]).toEqual([320, 180]);
    expect(p.frames).toBe(written.frames);
    expect(p.durationS).toBeCloseTo(written.duration_s, 1);
    expect(existsSync(join(dir, "0ec192c0f90d.webm"))).toBe(false);

    const m = manifestOf(dir);
    expect(m.videos.map((v) => v.file)).toEqual(["b110d889e34e.webm"]);
    expect(m.videos[0].sha256).toBe(sha(join(dir, "b110d889e34e.webm")));
    expect(m.failures).toMatchObject([{ file: "0ec192c0f90d.webm", kind: "drift" }]);
    // Nothing half-written, no work folders.
    expect(readdirSync(dir).sort()).toEqual(["b110d889e34e.webm", "manifest.json"]);
  });
});

describe("formats people post", () => {
  it("GIF: default 480x270 at 10 fps, lowered to fit --max-mb and says so; decodes with the render's frames and duration; poster is the score card", async () => {
    const dir = outDir();
    const r = runCli(["render", ...inputs, "--episode", "b110d889e34e", "--format", "gif", "--max-mb", "0.6", "--poster", "-o", dir + "/", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const v = ndjson(r.stdout)[0];
    const file = join(dir, "b110d889e34e.gif");
    expect(statSync(file).size).toBeLessThanOrEqual(0.6e6);
    expect(v.notes.join(" ")).toMatch(/lowered to \d+x\d+ at \d+ fps to fit --max-mb 0.60 MB/);
    expect(v.options).toMatchObject({ format: "gif", width: 480, height: 270, fps: 10, max_mb: 0.6 });
    const m = await sharp(file, { animated: true }).metadata();
    expect(m.format).toBe("gif");
    expect(m.pages).toBe(v.frames);
    expect(m.loop).toBe(0);
    const total = m.delay!.reduce((a, b) => a + b, 0);
    expect(total / 1000).toBeCloseTo(v.duration_s, 2);
    // Every frame lasts 1/fps: a GIF plays at its true speed only at whole centiseconds.
    expect(new Set(m.delay)).toEqual(new Set([1000 / v.fps]));
    // The render's clock: 10 fps for as long as the episode's timeline.
    expect(v.frames).toBe(Math.round(v.duration_s * v.fps));
    const poster = await sharp(join(dir, "b110d889e34e.png")).metadata();
    expect([poster.format, poster.width, poster.height]).toEqual(["png", 480, 270]);
    expect(v.poster).toMatchObject({ frame: Math.round(v.duration_s * 10) - 1, sha256: sha(join(dir, "b110d889e34e.png")) });
  });

  it("WebP: animated, looping, within the default 8 MB, as long as the render (repeated frames merged into longer ones)", async () => {
    const dir = outDir();
    const r = runCli(["render", ...inputs, "--episode", "b110d889e34e", "--format", "webp", "-o", dir + "/", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const v = ndjson(r.stdout)[0];
    const file = join(dir, "b110d889e34e.webp");
    expect(statSync(file).size).toBeLessThanOrEqual(8e6);
    expect(v.notes).toEqual([]);
    const m = await sharp(file, { animated: true }).metadata();
    expect(m.format).toBe("webp");
    expect([m.width, m.pageHeight]).toEqual([480, 270]);
    expect(m.pages).toBe(v.frames);
    expect(m.loop).toBe(0);
    const total = m.delay!.reduce((a, b) => a + b, 0);
    expect(total / 1000).toBeCloseTo(v.duration_s, 2);
    // The render at 10 fps had one frame per 100 ms; WebP keeps that clock (each delay a multiple of it).
    for (const d of m.delay!) expect(d % 100).toBe(0);
    const mp4Frames = (total / 1000) * 10;
    expect(m.pages).toBeLessThanOrEqual(mp4Frames);
  });
});
