/**
 * `georeplay render` on the other recordings: one training rollout (a
 * verified replay) and one example-rollout episode (a slideshow of the
 * recorded images) to real MP4s with the native engine, checked with ffprobe
 * (h264, yuv420p, bt709 tags, faststart, every timeline frame). Small size
 * and 15 fps keep each render short on 2 cores.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES, MIXED, runCli } from "../helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { BT709, colourTags } from "../video-helpers.ts";
import { TimelineSchema } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-render-formats-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const replayArgs = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos")];

/** The timeline `frames` writes for the same input at 15 fps: its totalFrames is what the MP4 must hold. */
function expectedFrames(input: string, episode: string, extra: string[]): { frames: number; source: string } {
  const dir = join(tmp, `tl-${episode.replace(/\W/g, "")}`);
  const r = runCli(["frames", input, "--episode", episode, "--fps", "15", "--out", dir, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  const t = TimelineSchema.parse(JSON.parse(readFileSync(join(dir, "timeline.json"), "utf8")));
  return { frames: t.totalFrames, source: t.episode.source };
}

describe("render for every recording that has images", () => {
  it("a training rollout renders to an H.264 MP4 with every timeline frame", () => {
    const input = join(FIXTURES, "train-rollouts.jsonl");
    const want = expectedFrames(input, "train-rollouts-L1", replayArgs);
    expect(want.source).toBe("replay");
    const out = join(tmp, "train.mp4");
    const r = runCli(["render", input, "--episode", "train-rollouts-L1", ...replayArgs, "-o", out, "--size", "854x480", "--fps", "15", "--json"], {
      timeoutMs: 600_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const p = probeVideo(out);
    expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", colorSpace: "bt709", width: 854, height: 480, fps: 15, frames: want.frames, faststart: true });
    expect(colourTags(out)).toEqual(BT709);
    // Verified with the training digest: every view of this rollout matched.
    expect(JSON.parse(r.stdout)).toMatchObject({
      episode_id: "train-rollouts-L1",
      format: "train",
      source: "replay",
      verified: true,
      frames: want.frames,
      views: { checked: 5, match: 5, mismatch: 0 },
    });
  });

  it("an example-rollout episode renders its slideshow to an H.264 MP4 with every timeline frame", () => {
    const input = join(FIXTURES, "example-rollout");
    const want = expectedFrames(input, "#3", []);
    expect(want.source).toBe("slideshow");
    const out = join(tmp, "example.mp4");
    // --tasks/--panos are accepted (and unused for the pixels) for a slideshow.
    const r = runCli(["render", input, "--episode", "#3", ...replayArgs, "-o", out, "--size", "854x480", "--fps", "15", "--json"], { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    const p = probeVideo(out);
    expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", colorSpace: "bt709", width: 854, height: 480, fps: 15, frames: want.frames, faststart: true });
    expect(colourTags(out)).toEqual(BT709);
    expect(JSON.parse(r.stdout)).toMatchObject({
      format: "example",
      source: "slideshow",
      verified: false,
      frames: want.frames,
      views: { checked: 0, match: 0, resolved: 0, mismatch: 0 },
    });
  });
});
