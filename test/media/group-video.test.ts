/**
 * The group video end to end: a GRPO group of four siblings built in-test
 * from the training fixture (two real rollouts of step 0 on eval #3 and two
 * copies with other guesses and rewards; the views are the same, so all four
 * verify), prepared as `render --group` prepares it, painted natively and
 * compared with reviewed goldens (the 2x2 grid mid-turn and with siblings
 * holding under GUESSED, the score card; the 2x4 and 4x4 grids and a
 * sixteen-row score card from the same siblings repeated); then a real MP4
 * checked with ffprobe, --scale-rewards through --json, and a group that is
 * not there (exit 2, the groups nearby listed, nothing written).
 *
 * Update goldens after a reviewed layout change: UPDATE_GOLDEN=1 npx vitest run test/group-video.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES, MIXED, runCli } from "../helpers.ts";
import { BT709, colourTags, expectGolden, paintNative, textStrings, tx } from "../video-helpers.ts";
import { prepareGroup, type PreparedGroup } from "../../envs/geoguesser/src/film/render-group.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { alignClock } from "../../envs/geoguesser/replay/timeline/align.ts";
import { advantagesOf, mean, sampleStd } from "../../replay/groups/stats.ts";
import { haversineKm } from "../../video/map/frame.ts";
import { groupLayout } from "../../video/parts/group-grid.ts";
import { groupClock } from "../../envs/geoguesser/video/group/clock.ts";
import { GroupPropsSchema, type GroupProps } from "../../envs/geoguesser/video/group/props.ts";
import { sceneAt, type VideoSpec } from "../../video/compositions.ts";
import type { Rect } from "../../video/scene/layout.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-group-"));
const TRUTH: [number, number] = [40.7742458259, -111.92771327637]; // mixed task 3's start frame
const GROUP_FILE = join(tmp, "rollouts-rank0.jsonl");
const TASKS = join(MIXED, "tasks.jsonl");
const PANOS = join(MIXED, "panos");

/** A copy of a rollout that guessed elsewhere and was rewarded otherwise. */
function variant(line: string, guess: [number, number], reward: number): string {
  const r = JSON.parse(line);
  const last = r.turns[r.turns.length - 1];
  last.action = { ...last.action, lat: guess[0], lon: guess[1] };
  r.outcome = { ...r.outcome, reward, distance_km: haversineKm(guess, TRUTH) };
  return JSON.stringify(r);
}

/** Line 4 with its turn 1 digest as rendered (the fixture changed 44daa366aced… to 04daa366aced…). */
function restored(line: string): string {
  const r = JSON.parse(line);
  expect(r.turns[1].image_sha256).toMatch(/^04daa366aced/);
  r.turns[1].image_sha256 = "4" + r.turns[1].image_sha256.slice(1);
  return JSON.stringify(r);
}

let prepared: PreparedGroup;

beforeAll(async () => {
  const lines = readFileSync(join(FIXTURES, "train-rollouts.jsonl"), "utf8").split("\n");
  // Lines 2 and 4 are step 0's two rollouts of eval #3 (11 and 7 turns). Line 4's turn 1 is the
  // fixture's deliberate drift (its recorded digest's first digit changed): restored here.
  const a = lines[1];
  const b = restored(lines[3]);
  writeFileSync(GROUP_FILE, [a, b, variant(a, [39.74, -104.99], 0.81), variant(b, [34.05, -118.24], 0.402)].join("\n") + "\n");
  prepared = await prepareGroup({ episodes: [GROUP_FILE], group: "0/eval/3", tasks: TASKS, panos: PANOS, fps: 30, jobs: 1 });
}, 600_000);

afterAll(() => {
  prepared?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

const WIDE = { width: 1280, height: 720 };
const FULL_HD = { width: 1920, height: 1080 };

/** The prepared group at another size, or with its siblings repeated to `n` (rewards spread, advantages as TRL's). */
function specOf(output: { width: number; height: number }, n = prepared.spec.props.siblings.length): VideoSpec {
  const p = prepared.spec.props;
  const rewards = Array.from({ length: n }, (_, i) => (i < p.siblings.length ? p.siblings[i].reward : Math.round((0.3 + ((i * 0.37) % 0.6)) * 1e4) / 1e4));
  const m = mean(rewards);
  const std = sampleStd(rewards);
  const adv = advantagesOf(rewards, m, "group", std);
  const props: GroupProps = GroupPropsSchema.parse({
    ...p,
    group: { ...p.group, mean: m, std },
    siblings: rewards.map((reward, i) => ({ ...p.siblings[i % p.siblings.length], reward, advantage: adv[i] })),
    output,
    text: undefined,
  });
  return { composition: "Group", props };
}

async function paintOne(spec: VideoSpec, frame: number) {
  return (await paintNative(spec, [frame], prepared.publicDir, prepared.deferred))[0];
}

/** A turn slot's frame, `offset` into it. */
function turnFrame(spec: VideoSpec, turn: number, offset: number): number {
  const s = groupClock(spec.props as GroupProps).slots.find((x) => x.kind === "turn" && x.turn === turn)!;
  return s.startFrame + Math.min(offset, s.durationFrames - 1);
}

/** The grid's regions, tile by tile (caption, viewport, HUD), for goldens. */
function gridRegions(spec: VideoSpec): [string, Rect][] {
  const { width, height } = spec.props.output!;
  const p = spec.props as GroupProps;
  const L = groupLayout(width, height, p.siblings.length, p.siblings[0].timeline.viewport);
  return [
    ["header", L.header],
    ["credit", L.credit],
    ...L.tiles.flatMap((t, i): [string, Rect][] => [
      [`caption #${i + 1}`, t.caption],
      [`viewport #${i + 1}`, t.viewportBox],
      [`hud #${i + 1}`, t.hud],
    ]),
  ];
}

describe("the prepared group", () => {
  it("is step 0's eval #3 with four siblings, the trainer's advantages, and the task's truth", () => {
    const p = prepared.spec.props;
    // Siblings by rank (highest advantage first), as `groups --detail` and the page number them: lines 3, 1, 2, 4.
    const rewards = [0.81, 0.6562, 0.622, 0.402];
    expect(p.group).toMatchObject({ run: "synthetic-grpo-run", step: 0, split: "eval", index: 3, scaleRewards: "group", zeroStd: false });
    expect(p.siblings.map((s) => s.reward)).toEqual(rewards);
    expect(p.siblings.map((s) => s.rollout)).toEqual([3, 1, 2, 4].map((l) => `rollouts-rank0.jsonl:${l}`));
    const want = advantagesOf(rewards, mean(rewards), "group", sampleStd(rewards));
    p.siblings.forEach((s, i) => expect(s.advantage).toBeCloseTo(want[i], 12));
    expect(p.siblings.every((s) => s.timeline.episode.verified)).toBe(true);
    expect(p.siblings.map((s) => s.timeline.outcome?.truth)).toEqual([TRUTH, TRUTH, TRUTH, TRUTH]);
  });

  it("every tile's HUD shows its env reward and advantage; the score card ranks them by advantage", () => {
    const spec = prepared.spec;
    const mid = textStrings(sceneAt(spec, turnFrame(spec, 2, 30), tx()));
    for (const s of ["0.6562", "0.6220", "0.8100", "0.4020", "#1", "#4", "ENV REWARD", "ADVANTAGE"]) expect(mid, s).toContain(s);
    const card = textStrings(sceneAt(spec, groupClock(spec.props as GroupProps).scoreStart + 100, tx()));
    // Ranked, and numbered by rank as the tiles are: #1 (0.81, line 3), #2, #3, #4 after the table's header.
    const order = ["#1", "#2", "#3", "#4"].map((s) => card.indexOf(s, card.indexOf("TURNS")));
    expect(card.indexOf("0.8100", card.indexOf("TURNS"))).toBeLessThan(card.indexOf("0.6562", card.indexOf("TURNS")));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(card).toContain("Truth");
  });
});

describe("Group, native goldens", () => {
  const cases: [string, () => VideoSpec, (s: VideoSpec) => number, boolean][] = [
    // All four mid-turn.
    ["grid", () => specOf(WIDE), (s) => turnFrame(s, 2, 30), false],
    // The 7-turn siblings have guessed and hold under GUESSED while the 11-turn ones play on.
    ["hold", () => specOf(WIDE), (s) => turnFrame(s, 9, 20), false],
    ["score", () => specOf(WIDE), (s) => groupClock(s.props as GroupProps).scoreStart + 100, true],
    ["grid-8", () => specOf(WIDE, 8), (s) => turnFrame(s, 2, 30), false],
    ["grid-16", () => specOf(FULL_HD, 16), (s) => turnFrame(s, 3, 30), false],
    ["score-16", () => specOf(FULL_HD, 16), (s) => groupClock(s.props as GroupProps).scoreStart + 150, true],
  ];
  for (const [name, make, pick, score] of cases) {
    it(`matches the reviewed frame: group-${name}`, async () => {
      const spec = make();
      const f = pick(spec);
      const png = await paintOne(spec, f);
      const { width, height } = spec.props.output!;
      expectGolden(`group-${name}`, png, score ? [["whole card", { x: 0, y: 0, width, height }]] : gridRegions(spec));
    }, 120_000);
  }
});

describe("render --group (native engine)", () => {
  const cli = (extra: string[], out: string) =>
    runCli(
      [
        "render",
        GROUP_FILE,
        "--tasks",
        TASKS,
        "--panos",
        PANOS,
        "-o",
        out,
        "--fps",
        "5",
        "--size",
        "640x360",
        "--preset",
        "ultrafast",
        "--jobs",
        "1",
        ...extra,
      ],
      {
        timeoutMs: 600_000,
      },
    );

  it("an MP4 of the group: h264, yuv420p, bt709, every frame of the shared clock at the asked size and rate", async () => {
    const dir = mkdtempSync(join(tmp, "mp4-"));
    const out = join(dir, "group.mp4");
    const r = cli(["--group", "0/eval/3", "--json"], out);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const p = probeVideo(out);
    expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", colorSpace: "bt709", width: 640, height: 360, fps: 5, frames: report.frames, faststart: true });
    expect(p.durationS).toBeCloseTo(report.frames / 5, 1);
    // Every frame of the siblings' shared clock at 5 fps.
    const at5 = await prepareGroup({ episodes: [GROUP_FILE], group: "0/eval/3", tasks: TASKS, panos: PANOS, fps: 5, jobs: 1 });
    try {
      expect(report.frames).toBe(alignClock(at5.spec.props.siblings.map((s) => s.timeline)).totalFrames);
    } finally {
      at5.dispose();
    }
    expect(colourTags(out)).toEqual(BT709);
    expect(report).toMatchObject({
      composition: "Group",
      verified: true,
      group: { step: 0, task: { split: "eval", index: 3 }, size: 4, scale_rewards: "group", grid: { rows: 2, cols: 2 } },
    });
    // In rank order (#1 the highest advantage), as groups and the page number them; file order was 0.6562, 0.622, 0.81, 0.402.
    expect(report.siblings.map((s: { reward: number }) => s.reward)).toEqual([0.81, 0.6562, 0.622, 0.402]);
    expect(readdirSync(dir)).toEqual(["group.mp4"]);
  }, 600_000);

  it("--scale-rewards none: the advantages are reward - mean (in --json and on screen)", () => {
    const dir = mkdtempSync(join(tmp, "none-"));
    const r = cli(["--group", "0/eval/3", "--scale-rewards", "none", "--json"], join(dir, "g.mp4"));
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const m = mean([0.6562, 0.622, 0.81, 0.402]);
    expect(report.group.scale_rewards).toBe("none");
    report.siblings.forEach((s: { reward: number; advantage: number }) => expect(s.advantage).toBeCloseTo(s.reward - m, 12));
  }, 600_000);

  it("a group that is not there: exit 2, the groups nearby listed, nothing written", () => {
    const dir = mkdtempSync(join(tmp, "missing-"));
    const out = join(dir, "sub", "group.mp4");
    const r = cli(["--group", "0/eval/9"], out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--group 0/eval/9: no such group among 1 group(s) of 4 rollout(s)");
    expect(r.stderr).toContain("groups of step 0: 0/eval/3 (4 rollouts)");
    expect(existsSync(join(dir, "sub"))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    const clash = cli(["--group", "0/eval/3", "--episode", "#1"], out);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain("--group renders one group's siblings; it does not go with --episode");
    const stray = cli(["--episode", "#1", "--scale-rewards", "batch"], out);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain("--scale-rewards goes with --group");
    expect(readdirSync(dir)).toEqual([]);
  }, 600_000);

  it("a sibling whose view drifted: exit 1 naming the sibling, nothing written", () => {
    const dir = mkdtempSync(join(tmp, "drift-"));
    const lines = readFileSync(join(FIXTURES, "train-rollouts.jsonl"), "utf8").split("\n");
    const drifted = join(dir, "rollouts-rank0.jsonl");
    writeFileSync(drifted, [lines[1], lines[3]].join("\n") + "\n");
    const out = join(dir, "group.mp4");
    const r = runCli(
      ["render", drifted, "--group", "0/eval/3", "--tasks", TASKS, "--panos", PANOS, "-o", out, "--fps", "5", "--size", "640x360", "--jobs", "1"],
      {
        timeoutMs: 600_000,
      },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`sibling #2 (${drifted}:2)`);
    expect(readdirSync(dir)).toEqual(["rollouts-rank0.jsonl"]);
  }, 600_000);
});
