/**
 * `georeplay frames` on crops episodes, through the real CLI (dist/) on the sample: every
 * keyframe is the recorded view byte for byte, in-between frames are the gym's renderer at the
 * frame's camera, the timeline validates and carries the box events, the same inputs give the
 * same bytes, drift aborts (exit 1) unless --unverified, and bad input is one line, exit 2,
 * with nothing written.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { FIXTURES, runCli, type CliResult } from "../helpers.ts";
import { CropsTimelineSchema, type CropsTimeline } from "../../envs/crops/replay/frames-timeline.ts";
import { encodeView, renderView, sha256Hex } from "../../envs/crops/replay/render.ts";
import { decodeRgb } from "../../envs/crops/replay/dataset.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const EVAL = join(SAMPLE, "eval");
const records = (f: string) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { episode_id: string; turns: { turn: number; image_sha256: string; boxes: { id: number; box: number[] }[] }[] });
const recordOf = (id: string) => records(join(EVAL, "episodes.jsonl")).find((r) => r.episode_id === id)!;
const timelineOf = (dir: string): CropsTimeline => CropsTimelineSchema.parse(JSON.parse(readFileSync(join(dir, "timeline.json"), "utf8")));

function expectOneLineError(r: CliResult, code: number, text: string | RegExp): void {
  expect(r.code).toBe(code);
  expect(r.stdout).toBe("");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(text);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "crops-frames-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("frames on a crops episode (box, box, remove, box, zoom, two invalid turns, done)", () => {
  const ID = "3a489537d86e";
  let out: string;
  let t: CropsTimeline;
  beforeAll(() => {
    out = join(tmp, "a");
    const r = runCli(["frames", EVAL, "--episode", ID, "--out", out, "--fps", "10", "--no-progress"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`episode ${ID} (crops) · 9/9 turns' views and thumbnails verified byte-for-byte`);
    t = timelineOf(out);
  });

  it("writes every recorded view as a keyframe whose sha256 is the recorded image_sha256", () => {
    const rec = recordOf(ID);
    expect(t.episode).toMatchObject({ episodeId: ID, verified: true, drifted: [] });
    expect(t.keyframes.map((k) => k.turn)).toEqual(rec.turns.map((x) => x.turn));
    for (const [i, k] of t.keyframes.entries()) {
      expect(sha256Hex(readFileSync(join(out, k.file)))).toBe(rec.turns[i].image_sha256);
      expect(k.sha256).toBe(rec.turns[i].image_sha256);
      expect(t.frames[k.frame]).toMatchObject({ file: k.file, keyframe: k.turn });
    }
  });

  it("every frame's file exists at the view size; the files are exactly the keyframes and in-between frames", async () => {
    expect(t.frames).toHaveLength(t.totalFrames);
    const files = new Set(t.frames.map((f) => f.file));
    expect(readdirSync(join(out, "frames")).sort()).toEqual([...files].map((f) => f.slice("frames/".length)).sort());
    const meta = await sharp(join(out, t.frames[0].file)).metadata();
    expect([meta.width, meta.height]).toEqual([t.viewport.width, t.viewport.height]);
    expect(t.viewport).toEqual({ width: 512, height: 341 });
  });

  it("the zoom turn moves the camera in log scale from the previous view to the recorded one, then holds", () => {
    const zoom = t.turns.find((x) => x.action === "zoom")!;
    const move = t.frames.slice(zoom.startFrame, zoom.startFrame + zoom.motionFrames);
    expect(move.length).toBeGreaterThan(2);
    expect(move.slice(0, -1).every((f) => f.keyframe === null)).toBe(true);
    expect(move.at(-1)).toMatchObject({ keyframe: zoom.turn, camera: zoom.view });
    const widths = move.map((f) => f.camera[2] - f.camera[0]);
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeLessThan(widths[i - 1]);
    const from = t.turns[zoom.turn - 1].view;
    // Frame k of n is at eased progress k/n; smootherstep(1/2) = 1/2, so an even move's middle frame has the geometric-mean width.
    expect(move.length % 2).toBe(0); // 12 frames at 10 fps
    expect(widths[move.length / 2 - 1]).toBeCloseTo(Math.sqrt((from[2] - from[0]) * (zoom.view[2] - zoom.view[0])), 9);
    const hold = t.frames.slice(zoom.startFrame + zoom.motionFrames, zoom.startFrame + zoom.motionFrames + zoom.holdFrames);
    expect(hold.length).toBe(10);
    expect(hold.every((f) => f.keyframe === zoom.turn)).toBe(true);
  });

  it("in-between frames are the gym's bicubic render of their camera with every live box outlined", async () => {
    const img = await decodeRgb(join(SAMPLE, "images", "scene-1003.png"));
    const rec = recordOf(ID);
    const between = t.frames.filter((f) => f.keyframe === null);
    expect(between.length).toBeGreaterThan(0);
    for (const f of [between[0], between[Math.floor(between.length / 2)], between.at(-1)!]) {
      const boxes = rec.turns[f.turn].boxes;
      expect(boxes.length).toBe(2);
      const want = await encodeView(renderView(img, f.camera, boxes, 512, 341), 512, 341);
      expect(sha256Hex(readFileSync(join(out, f.file)))).toBe(sha256Hex(want));
      // Without the boxes the bytes differ: the outlines are there.
      expect(sha256Hex(await encodeView(renderView(img, f.camera, [], 512, 341), 512, 341))).not.toBe(sha256Hex(want));
    }
  });

  it("per-turn events: actions and statuses as recorded, a box appears on its turn and fades when removed; the outcome", () => {
    expect(t.turns.map((x) => [x.turn, x.action, x.status.split(":")[0]])).toEqual([
      [0, "reset", "ok"],
      [1, "box", "ok"],
      [2, "box", "ok"],
      [3, "remove", "ok"],
      [4, "box", "ok"],
      [5, "zoom", "ok"],
      [6, "box", "invalid_action"],
      [7, "remove", "invalid_action"],
      [8, "done", "ok"],
    ]);
    expect(t.turns.map((x) => x.boxes.map((b) => `${b.kind}:${b.id}`))).toEqual([[], ["appear:1"], ["appear:2"], ["remove:1"], ["appear:3"], [], [], [], []]);
    const removed = t.turns[3].boxes[0];
    expect(removed.frame).toBe(t.turns[3].keyframeFrame);
    expect(removed.fadeFrames).toBeGreaterThan(0);
    expect(removed.box).toEqual(t.turns[1].boxes[0].box);
    expect(removed.colour).toEqual([255, 59, 48]);
    expect(t.outcome).toMatchObject({ score: 0.6246469476047493, endedBy: "done", turnsUsed: 8, misses: ["g2"], falseAlarms: [] });
  });

  it("same inputs give the same bytes: a second run writes an identical timeline and identical frames", () => {
    const again = join(tmp, "a2");
    expect(runCli(["frames", EVAL, "--episode", ID, "--out", again, "--fps", "10", "--no-progress"]).code).toBe(0);
    expect(readFileSync(join(again, "timeline.json"))).toEqual(readFileSync(join(out, "timeline.json")));
    const names = readdirSync(join(out, "frames")).sort();
    expect(readdirSync(join(again, "frames")).sort()).toEqual(names);
    for (const n of names) expect(readFileSync(join(again, "frames", n)).equals(readFileSync(join(out, "frames", n))), n).toBe(true);
  });
});

describe("frames on other crops episodes", () => {
  it("an adjust is a move event; #n picks the n-th record; zoom_out, reset_view and pan move the camera too", () => {
    const out = join(tmp, "b");
    const r = runCli(["frames", EVAL, "--episode", "#18", "--out", out, "--fps", "8", "--json", "--no-progress"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ env: "crops", episode_id: "58430cd3997b", verified: true, drifted_turns: [] });
    const t = timelineOf(out);
    const ok = t.turns.filter((x) => x.status === "ok");
    expect(ok.filter((x) => x.action === "adjust").map((x) => x.boxes.map((b) => b.kind))).toEqual([["move"], ["move"]]);
    expect(ok.filter((x) => x.action === "zoom" || x.action === "reset_view").every((x) => x.motionFrames > 1)).toBe(true);
    const rec = recordOf("58430cd3997b");
    for (const [i, k] of t.keyframes.entries()) expect(sha256Hex(readFileSync(join(out, k.file)))).toBe(rec.turns[i].image_sha256);
  });
});

describe("drift and bad input", () => {
  const CORRUPT = join(SAMPLE, "eval-corrupted");

  it("a drifted view aborts with exit 1 naming the turn, writing nothing; --unverified films it marked unverified", () => {
    const out = join(tmp, "drift");
    const r = runCli(["frames", CORRUPT, "--episode", "42d863f6a923", "--dataset", SAMPLE, "--out", out, "--no-progress"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("episode 42d863f6a923: 1 turn(s) drifted");
    expect(r.stderr).toMatch(/turn 4: view .* recorded [0-9a-f]{12}… rendered [0-9a-f]{12}…/);
    expect(existsSync(out)).toBe(false);
    const u = runCli(["frames", CORRUPT, "--episode", "42d863f6a923", "--dataset", SAMPLE, "--out", out, "--unverified", "--fps", "5", "--no-progress"]);
    expect(u.code).toBe(0);
    expect(u.stdout).toContain("UNVERIFIED: turn(s) 4 drifted");
    const t = timelineOf(out);
    expect(t.episode).toMatchObject({ verified: false, drifted: [4] });
    const k = t.keyframes.find((x) => x.turn === 4)!;
    expect(k.sha256).not.toBe(k.recordedSha256);
    expect(sha256Hex(readFileSync(join(out, k.file)))).toBe(k.sha256);
  });

  it("an unknown episode: exit 2, one line, nothing written", () => {
    const out = join(tmp, "unknown");
    const r = runCli(["frames", EVAL, "--episode", "000000000000", "--out", out, "--no-progress"]);
    expectOneLineError(r, 2, /episode "000000000000" not found in .*episodes\.jsonl \(24 crops episode\(s\)\)/);
    expect(existsSync(out)).toBe(false);
    expectOneLineError(runCli(["frames", EVAL, "--episode", "#25", "--out", out, "--no-progress"]), 2, /episode #25 not found/);
  });

  it("a missing image: exit 2, one line naming the record, the field and the image, nothing written", () => {
    const ds = join(tmp, "ds");
    cpSync(SAMPLE, ds, { recursive: true });
    unlinkSync(join(ds, "images", "scene-1003.png"));
    const out = join(tmp, "missing");
    const r = runCli(["frames", join(ds, "eval"), "--episode", "3a489537d86e", "--out", out, "--no-progress"]);
    expectOneLineError(r, 2, /eval\/episodes\.jsonl:21: task\.image_id: expected the image .*scene-1003\.png \(.*tasks\.jsonl:\d+\), got no such file/);
    expect(existsSync(out)).toBe(false);
  });
});
