/**
 * The Remotion side, end to end: `georeplay render --engine remotion` to a
 * real MP4 through real Chromium (checked with ffprobe against the timeline),
 * and a Studio smoke test: what `npx remotion studio` does with the folders
 * `georeplay frames` writes (the demo's), i.e. @remotion/bundler's bundle()
 * of video/remotion/index.ts with that public dir, then @remotion/renderer's
 * getCompositions with Debian's Chromium: Rollout and Compare are listed,
 * each with the public dir's props (props.json, the text plan included) and
 * the timeline's duration.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { bundle } from "@remotion/bundler";
import { getCompositions } from "@remotion/renderer";
import { ROOT, TRIESTE, runCli } from "../helpers.ts";
import { BT709, colourTags } from "../video-helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { TimelineSchema, type Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { alignClock, alignTimelines } from "../../envs/geoguesser/replay/timeline/align.ts";
import { GROUP_PLACEHOLDER } from "../../envs/geoguesser/video/group/placeholder.ts";
import type { RolloutProps } from "../../envs/geoguesser/video/rollout/props.ts";
import type { CompareProps } from "../../envs/geoguesser/video/compare/props.ts";

// Short paths: Chromium's socket path under TMPDIR must stay within 107 bytes.
const tmp = mkdtempSync("/tmp/grr-e2e-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SAMPLE = join(ROOT, "rollouts", "sample");
const IN = [join(SAMPLE, "episodes.jsonl"), "--tasks", join(SAMPLE, "tasks.jsonl"), "--panos", join(SAMPLE, "panos")];

describe("render --engine remotion", () => {
  it("writes an H.264 MP4 (yuv420p, bt709, faststart) with every timeline frame; nothing left in the temp dir", () => {
    const outDir = mkdtempSync(join(tmp, "o-"));
    const childTmp = mkdtempSync("/tmp/grr-t-");
    try {
      const out = join(outDir, "remotion.mp4");
      const args = [join(TRIESTE, "episodes.jsonl"), "--episode", "#1", "--tasks", join(TRIESTE, "tasks.jsonl"), "--panos", join(TRIESTE, "panos")];
      const r = runCli(["render", ...args, "-o", out, "--engine", "remotion", "--size", "480x270", "--fps", "5", "--jobs", "1", "--json"], {
        env: { TMPDIR: childTmp },
        timeoutMs: 900_000,
      });
      expect(r.code, r.stderr).toBe(0);
      const framesDir = join(tmp, "tl");
      const f = runCli(["frames", ...args, "--fps", "5", "--out", framesDir, "--size", "480x270"]);
      expect(f.code, f.stderr).toBe(0);
      const t = TimelineSchema.parse(JSON.parse(readFileSync(join(framesDir, "timeline.json"), "utf8")));
      const p = probeVideo(out);
      expect(p).toMatchObject({
        codec: "h264",
        pixFmt: "yuv420p",
        colorSpace: "bt709",
        width: 480,
        height: 270,
        fps: 5,
        frames: t.totalFrames,
        faststart: true,
      });
      expect(colourTags(out)).toEqual(BT709);
      expect(JSON.parse(r.stdout)).toMatchObject({ out, bytes: statSync(out).size, frames: t.totalFrames, codec: "h264", pix_fmt: "yuv420p", verified: true });
      expect(readdirSync(outDir)).toEqual(["remotion.mp4"]);
      expect(readdirSync(childTmp), "bundle, Chromium profile, frame files: all removed").toEqual([]);
    } finally {
      rmSync(childTmp, { recursive: true, force: true });
    }
  });
});

describe("Studio: the compositions with the public dir `georeplay frames` writes", () => {
  it("bundles video/remotion/index.ts and lists every registered composition (Rollout and Compare with the sample's props and durations)", async () => {
    const publicDir = join(tmp, "public");
    // As `npm run demo` does: the Trieste episode, and two attempts at one task for Compare.
    const frames = (episode: string, out?: string) => {
      const r = runCli([
        "frames",
        ...IN,
        "--episode",
        episode,
        "--public-dir",
        publicDir,
        "--fps",
        "10",
        "--jobs",
        "1",
        ...(out ? ["--out", join(publicDir, out)] : []),
      ]);
      expect(r.code, r.stderr).toBe(0);
    };
    frames("90a9d3eba5ce");
    frames("d37a27bd393a", "rollouts/compare-a");
    frames("ff03ebd569bb", "rollouts/compare-b");
    const read = (dir: string, file: string) => JSON.parse(readFileSync(join(publicDir, "rollouts", dir, file), "utf8"));
    const trieste: Timeline = TimelineSchema.parse(read("90a9d3eba5ce", "timeline.json"));
    const studioProps = read("90a9d3eba5ce", "props.json") as RolloutProps;
    expect(studioProps.output).toEqual({ width: 1280, height: 720 });
    expect(Object.keys(studioProps.text ?? {}).length, "props.json carries the text laid out in Node").toBeGreaterThan(10);

    const serveUrl = await bundle({ entryPoint: join(ROOT, "video", "remotion", "index.ts"), publicDir, outDir: join(tmp, "bundle") });
    const comps = await getCompositions(serveUrl, { browserExecutable: "/usr/bin/chromium", chromeMode: "chrome-for-testing", logLevel: "error" });
    // The root lists every environment's registered compositions: GeoGuesser's and the detection gym's.
    expect(comps.map((c) => c.id).sort()).toEqual(["Compare", "CropsGroup", "CropsRollout", "Group", "Rollout"]);

    const rollout = comps.find((c) => c.id === "Rollout")!;
    expect([rollout.durationInFrames, rollout.fps, rollout.width, rollout.height]).toEqual([trieste.totalFrames, 10, 1280, 720]);
    const rp = rollout.props as RolloutProps;
    expect(rp.episode.episodeId).toBe("90a9d3eba5ce");
    expect(rp.text).toEqual(studioProps.text); // the lines a native render draws

    const compare = comps.find((c) => c.id === "Compare")!;
    const cp = compare.props as CompareProps;
    const pair = [TimelineSchema.parse(read("compare-a", "timeline.json")), TimelineSchema.parse(read("compare-b", "timeline.json"))];
    expect(new Set([cp.a.timeline.episode.episodeId, cp.b.timeline.episode.episodeId])).toEqual(new Set(["d37a27bd393a", "ff03ebd569bb"]));
    expect(compare.durationInFrames).toBe(alignTimelines(pair[0], pair[1]).totalFrames);
    expect([compare.fps, compare.width, compare.height]).toEqual([10, 1280, 720]);

    // Group takes its props from `render --group`; without them, the placeholder group of two.
    const group = comps.find((c) => c.id === "Group")!;
    expect(group.durationInFrames).toBe(alignClock(GROUP_PLACEHOLDER.siblings.map((s) => s.timeline)).totalFrames);
  });
});
