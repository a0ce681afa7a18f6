/**
 * `render -o clip.gif|.webp|.webm`: one video in the format its name asks for, no folder
 * needed (a batch of one used to be the only way). Checked on the real files: sharp reads
 * the GIF and WebP (frames, size, loop), ffprobe the WebM; nothing else is left beside them.
 * Errors (a name with no video extension, --format contradicting the name) exit 2 before any work.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { FIXTURES, MIXED, ROOT, runCli } from "../helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-one-file-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const TRAIN = [
  join(FIXTURES, "train-rollouts.jsonl"),
  "--episode",
  "train-rollouts-L1",
  "--tasks",
  join(MIXED, "tasks.jsonl"),
  "--panos",
  join(MIXED, "panos"),
];
const SAMPLE = join(ROOT, "rollouts", "sample");
const PAIR = [join(SAMPLE, "episodes.jsonl"), "--tasks", join(SAMPLE, "tasks.jsonl"), "--panos", join(SAMPLE, "panos"), "--episode", "d37a27bd393a"];

describe("render -o with a .gif, .webp or .webm name writes that one file", () => {
  it("a GIF at the animation defaults (480x270, 10 fps), within the budget, with --json saying so", async () => {
    const dir = join(tmp, "gif");
    const out = join(dir, "clip.gif");
    const r = runCli(["render", ...TRAIN, "-o", out, "--json", "--max-mb", "4"], { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(["clip.gif"]);
    const m = await sharp(out, { animated: true }).metadata();
    expect(m).toMatchObject({ format: "gif", width: 480, loop: 0 });
    expect(m.pageHeight).toBe(270);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ video_format: "gif", width: 480, height: 270, fps: 10, codec: "gif", episode_id: "train-rollouts-L1", verified: true });
    expect(j.frames).toBe(m.pages);
    expect(j.bytes).toBeLessThanOrEqual(4e6);
  });

  it("a WebM (VP9) at the size and rate asked for", () => {
    const out = join(tmp, "webm", "clip.webm");
    const r = runCli(["render", ...TRAIN, "-o", out, "--size", "320x180", "--fps", "10"], { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/wrote .*clip\.webm · webm · \d+ frames/);
    expect(probeVideo(out)).toMatchObject({ codec: "vp9", pixFmt: "yuv420p", width: 320, height: 180, fps: 10 });
    expect(readdirSync(join(tmp, "webm"))).toEqual(["clip.webm"]);
  });

  it("a two-up clip as an animated WebP", async () => {
    const out = join(tmp, "webp", "two-up.webp");
    const r = runCli(["render", ...PAIR, "--versus", "ff03ebd569bb", "-o", out, "--json"], { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    const m = await sharp(out, { animated: true }).metadata();
    expect(m).toMatchObject({ format: "webp", width: 480 });
    expect(m.pages).toBeGreaterThan(10);
    expect(JSON.parse(r.stdout)).toMatchObject({
      video_format: "webp",
      composition: "Compare",
      episodes: [
        { side: "a", episode_id: "d37a27bd393a" },
        { side: "b", episode_id: "ff03ebd569bb" },
      ],
    });
    expect(readdirSync(join(tmp, "webp"))).toEqual(["two-up.webp"]);
  });

  it("refuses a name that is no video format, and --format that contradicts the name, before any work", () => {
    const bad = runCli(["render", ...PAIR, "-o", join(tmp, "clip.mkv")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/clip\.mkv: name the file for its format \(\.mp4, \.webm, \.gif, \.webp\)/);
    const both = runCli(["render", ...PAIR, "-o", join(tmp, "clip.gif"), "--format", "webm"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/is a \.gif file but --format says webm/);
    expect(bad.stderr + both.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(tmp).filter((f) => f.startsWith("clip") || f.startsWith("."))).toEqual([]);
  });
});
