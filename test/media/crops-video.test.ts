/**
 * Crops episodes on film: `georeplay render` on the bundled crops sample with the native engine
 * (real MP4s checked with ffprobe, the same bytes twice, a drifted episode refused), and the
 * frames it paints compared with reviewed goldens: mid-zoom, a box being drawn, a removed box
 * struck out, the score card, and a GRPO group's grid and its score card.
 * Update goldens after a reviewed layout change: UPDATE_GOLDEN=1 npx vitest run test/media/crops-video.test.ts
 */
import { afterAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES, runCli } from "../helpers.ts";
import { expectGolden, paintNative, textStrings, tx } from "../video-helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { prepareCrops } from "../../envs/crops/src/film/render-crops.ts";
import { prepareCropsGroup } from "../../envs/crops/src/film/render-crops-group.ts";
import { sceneAt } from "../../video/compositions.ts";
import type { CropsVideoProps } from "../../envs/crops/video/props.ts";
import { cropsGroupClock } from "../../envs/crops/video/group-clock.ts";
import type { CropsGroupProps } from "../../envs/crops/video/group-props.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const EVAL = join(SAMPLE, "eval", "episodes.jsonl");
const TRAIN = join(SAMPLE, "train");
/** adjust, zoom, remove, box, box, zoom, remove, done: every kind of box event and a zoom. */
const EPISODE = "c46800576146";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-crops-video-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sha = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");

describe("render of a crops episode (native engine)", () => {
  it("writes an H.264 MP4 at 1280x720: the timeline's frames plus 5 s of score card; the same bytes twice", () => {
    const outs = [join(tmp, "a.mp4"), join(tmp, "b.mp4")];
    const reports = outs.map((out) => {
      const r = runCli(["render", EVAL, "--episode", EPISODE, "-o", out, "--json"]);
      expect(r.stderr).not.toMatch(/Error|at \w+ \(/);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    });
    const p = probeVideo(outs[0]);
    expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", width: 1280, height: 720, fps: 30, faststart: true });
    expect(reports[0]).toMatchObject({ env: "crops", kind: "episode", episodes: [EPISODE], verified: true, width: 1280, height: 720, fps: 30 });
    expect(p.frames).toBe(reports[0].frames);
    expect(p.durationS).toBeCloseTo(reports[0].frames / 30, 1);
    // 7 turns' moves and holds, then the card: longer than the card and the holds alone.
    expect(reports[0].frames).toBeGreaterThan(150 + 8 * 30);
    expect(sha(outs[1])).toBe(sha(outs[0]));
  }, 240_000);

  it("refuses an episode whose recorded view drifted (exit 1, nothing written, no temp folder left); --unverified films it under the banner", () => {
    const corrupted = JSON.parse(readFileSync(join(SAMPLE, "eval-corrupted", "corrupted.json"), "utf8")) as { episode_id: string; kind: string }[];
    const drifted = corrupted.find((c) => c.kind === "view_hash")!.episode_id;
    const out = join(tmp, "drift.mp4");
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith("georeplay-render-")).length;
    const r = runCli(["render", join(SAMPLE, "eval-corrupted"), "--dataset", SAMPLE, "--episode", drifted, "-o", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`episode ${drifted}: 1 turn\\(s\\) drifted from the recorded sha256`));
    expect(r.stderr.trim().split("\n")[0]).toMatch(/^georeplay: .*eval-corrupted.*episodes\.jsonl:\d+: /);
    expect(r.stderr).not.toMatch(/at \w+ \(/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith("georeplay-render-")).length).toBeLessThanOrEqual(before);
    const u = runCli(["render", join(SAMPLE, "eval-corrupted"), "--dataset", SAMPLE, "--episode", drifted, "-o", out, "--unverified", "--size", "640x360"]);
    expect(u.code).toBe(0);
    expect(u.stdout).toMatch(/UNVERIFIED REPLAY/);
    expect(probeVideo(out)).toMatchObject({ codec: "h264", width: 640, height: 360 });
  }, 240_000);

  it("says what a crops render does not take: GeoGuesser's inputs, a two-up (exit 2, one line)", () => {
    for (const [args, msg] of [
      [["--episode", EPISODE, "--tasks", "t.jsonl"], /--tasks is not for crops runs/],
      [["--episode", EPISODE, "--versus", "#2"], /--versus is not for crops runs/],
    ] as const) {
      const r = runCli(["render", EVAL, ...args, "-o", join(tmp, "x.mp4")]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
    }
    expect(existsSync(join(tmp, "x.mp4"))).toBe(false);
  }, 60_000);
});

describe("crops frames, native goldens", () => {
  it("mid-zoom, a box being drawn, the score card", async () => {
    const p = await prepareCrops({ inputs: [EVAL], episode: EPISODE, fps: 30 });
    try {
      const props = p.spec.props as unknown as CropsVideoProps;
      const t = props.timeline;
      const withEvent = (kind: string) => t.turns.find((e) => e.boxes.some((b) => b.kind === kind))!;
      const zoom = t.turns.find((e) => e.action === "zoom" && e.motionFrames > 0)!;
      const drawn = withEvent("appear");
      const cases: [string, number][] = [
        ["zoom", zoom.startFrame + Math.floor(zoom.motionFrames / 2)],
        ["box-drawn", drawn.keyframeFrame + 5],
        ["score", t.totalFrames + 40],
      ];
      // The mid-zoom frame is an in-between view; the others show the recorded views.
      expect(t.frames[cases[0][1]].keyframe).toBeNull();
      expect(t.frames[cases[1][1]].keyframe).toBe(drawn.turn);
      const card = textStrings(sceneAt(p.spec, cases[2][1], tx()));
      expect(card).toContain(props.card.score.toFixed(4));
      for (const word of ["recall term", "precision factor", "mean credit", "label accuracy"]) expect(card).toContain(word);
      const pngs = await paintNative(
        p.spec,
        cases.map(([, f]) => f),
        p.publicDir,
      );
      const L = { image: { x: 16, y: 56, width: 628, height: 628 }, panel: { x: 660, y: 56, width: 604, height: 648 } };
      cases.forEach(([name], i) =>
        expectGolden(`crops-${name}`, pngs[i], [
          ["image pane", L.image],
          ["panel", L.panel],
        ]),
      );
    } finally {
      p.dispose();
    }
  }, 240_000);

  it("in a whole view: a removed box struck out, an adjusted box under its flash", async () => {
    // box, remove, box, box, adjust, box, done: the removal and the adjust on the whole image.
    const p = await prepareCrops({ inputs: [EVAL], episode: "51b755c57fb6", fps: 30 });
    try {
      const t = (p.spec.props as unknown as CropsVideoProps).timeline;
      const at = (kind: string) => t.turns.flatMap((e) => e.boxes).find((b) => b.kind === kind)!.frame;
      const cases: [string, number][] = [
        ["removed", at("remove") + 14],
        ["adjusted", at("move") + 4],
      ];
      const pngs = await paintNative(
        p.spec,
        cases.map(([, f]) => f),
        p.publicDir,
      );
      cases.forEach(([name], i) => expectGolden(`crops-${name}`, pngs[i], [["image pane", { x: 16, y: 56, width: 628, height: 628 }]]));
    } finally {
      p.dispose();
    }
  }, 240_000);

  it("a GRPO group: six siblings in a 2x3 grid mid-turn, and the group's score card ranking them", async () => {
    const p = await prepareCropsGroup({ inputs: [TRAIN], group: "0/train/0", fps: 30 });
    try {
      const props = p.spec.props as unknown as CropsGroupProps;
      expect(props.siblings.map((s) => s.sibling)).toEqual([5, 4, 2, 3, 0, 1]);
      // The contract's worked example: advantages r - mean.
      expect(props.siblings[0].advantage).toBe(0.2720697125389825);
      const c = cropsGroupClock(props);
      const grid = c.turnStarts[2] + 20;
      const card = c.gridFrames + 40;
      const [g, s] = await paintNative(p.spec, [grid, card], p.publicDir);
      expectGolden("crops-group-grid", g, []);
      expectGolden("crops-group-score", s, []);
    } finally {
      p.dispose();
    }
  }, 240_000);

  it("render --group writes the group's MP4", () => {
    const out = join(tmp, "group.mp4");
    const r = runCli(["render", TRAIN, "--group", "0/train/0", "-o", out, "--size", "854x480", "--preset", "veryfast"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/crops group of 6 · verified replay/);
    expect(r.stdout).toMatch(/#1 sibling 5 d599adc4ca08 .* score 0\.9061 advantage \+0\.2721/);
    expect(probeVideo(out)).toMatchObject({ codec: "h264", width: 854, height: 480, fps: 30 });
    const missing = runCli(["render", TRAIN, "--group", "9/train/0", "-o", join(tmp, "none.mp4")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/group 9\/train\/0 not found .*groups there: 0\/train\/0/);
  }, 240_000);
});
