/**
 * `georeplay render --versus`: two episodes of one task to a real two-up MP4
 * with the native engine (Skia + libx264), checked with ffprobe (h264,
 * yuv420p, bt709 space/primaries/transfer, faststart) against the Compare
 * composition's duration (the turn-aligned clock of both timelines); a
 * drifted side refuses to render; --json names both episodes and their
 * verification; nothing is left in the temp dir. Small size and low fps
 * keep each render short on 2 cores.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, MIXED, runCli } from "../helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { BT709, colourTags } from "../video-helpers.ts";
import { generateFrames } from "../../envs/geoguesser/replay/frames/frames.ts";
import { alignTimelines } from "../../envs/geoguesser/replay/timeline/align.ts";

const tmp = mkdtempSync("/tmp/grc-");
/** The render's own temp dir: it must be empty afterwards (no frame files, no work folders). */
const childTmp = mkdtempSync("/tmp/grct-");
afterAll(() => rmSync(childTmp, { recursive: true, force: true }));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const ARMS = join(FIXTURES, "arms");
const replayArgs = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--jobs", "1"];

/** The composition's duration for two episodes at an fps: the shared clock of their timelines. */
async function clockFrames(a: string, b: string, fps: number): Promise<number> {
  const gen = (episode: string, dir: string) =>
    generateFrames({
      episodes: [ARMS],
      episode,
      tasks: join(MIXED, "tasks.jsonl"),
      panos: join(MIXED, "panos"),
      publicDir: join(tmp, "p"),
      out: join(tmp, "p", dir),
      fps,
      jobs: 1,
    });
  const ta = (await gen(a, "a")).timeline;
  const tb = (await gen(b, "b")).timeline;
  return alignTimelines(ta, tb).totalFrames;
}

describe("render --versus", () => {
  it("two episodes of one task: an H.264 (yuv420p, bt709) MP4 with every frame of the shared clock; --json names both and their verification", async () => {
    const outDir = join(tmp, "out");
    const out = join(outDir, "two-up.mp4");
    // base's attempt (11 turns) against ckpt200's pass 1 (8 turns) at eval #0, chosen from the board.
    const r = runCli(
      [
        "render",
        ARMS,
        "--episode",
        "d37a27bd393a",
        "--versus-arm",
        "ckpt200",
        "--pass",
        "1",
        ...replayArgs,
        "-o",
        out,
        "--fps",
        "10",
        "--size",
        "640x360",
        "--json",
      ],
      {
        env: { TMPDIR: childTmp },
        timeoutMs: 900_000,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const want = await clockFrames("d37a27bd393a", "ff03ebd569bb", 10);
    const p = probeVideo(out);
    expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", colorSpace: "bt709", width: 640, height: 360, fps: 10, frames: want, faststart: true });
    expect(colourTags(out)).toEqual(BT709);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      out,
      bytes: statSync(out).size,
      frames: want,
      fps: 10,
      codec: "h264",
      pix_fmt: "yuv420p",
      composition: "Compare",
      same_task: true,
      episode_id: "d37a27bd393a",
      verified: true,
    });
    expect(report.episodes).toEqual([
      expect.objectContaining({
        side: "a",
        episode_id: "d37a27bd393a",
        arm: "base",
        pass: 0,
        split: "eval",
        index: 0,
        format: "eval",
        source: "replay",
        verified: true,
      }),
      expect.objectContaining({
        side: "b",
        episode_id: "ff03ebd569bb",
        arm: "ckpt200",
        pass: 1,
        split: "eval",
        index: 0,
        format: "eval",
        source: "replay",
        verified: true,
      }),
    ]);
    for (const e of report.episodes) expect(e.views.mismatch).toBe(0);
    expect(report.views.checked).toBe(report.episodes[0].views.checked + report.episodes[1].views.checked);
    expect(readdirSync(outDir)).toEqual(["two-up.mp4"]); // no temp file beside it
    expect(readdirSync(childTmp)).toEqual([]); // frame files and work folders removed
  });

  it("a drifted side refuses to render (exit 1, no file) unless --unverified, which renders it and reports that side unverified", () => {
    const outDir = join(tmp, "drift");
    const out = join(outDir, "drift.mp4");
    // ckpt200 on eval #3 against base's attempt, whose turn 5 drifts.
    const args = ["render", ARMS, "--episode", "b62f83ac792b", "--versus-arm", "base", ...replayArgs, "-o", out];
    const refused = runCli(args, { env: { TMPDIR: childTmp } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--versus \(B\).*0ec192c0f90d.*drifted/);
    expect(refused.stderr).toMatch(/turn 5/);
    expect(statSync(outDir, { throwIfNoEntry: false }) === undefined || readdirSync(outDir).length === 0, "nothing written").toBe(true);
    const r = runCli([...args, "--unverified", "--fps", "5", "--size", "480x270", "--json"], { env: { TMPDIR: childTmp }, timeoutMs: 900_000 });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.verified).toBe(false);
    expect(
      report.episodes.map((e: { episode_id: string; verified: boolean; views: { mismatch: number } }) => [e.episode_id, e.verified, e.views.mismatch]),
    ).toEqual([
      ["b62f83ac792b", true, 0],
      ["0ec192c0f90d", false, 1],
    ]);
    expect(probeVideo(out)).toMatchObject({
      codec: "h264",
      pixFmt: "yuv420p",
      colorSpace: "bt709",
      width: 480,
      height: 270,
      faststart: true,
      frames: report.frames,
    });
    expect(readdirSync(childTmp)).toEqual([]);
  });
});
