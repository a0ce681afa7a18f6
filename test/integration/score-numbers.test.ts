/**
 * Issue 51 on the frames: a score card shows only what the record holds or geoeval computes from
 * it (geoeval's reward beside the stored env reward, each named; never "points out of 5000",
 * which neither the data nor `report` has), and an unverified replay's banner names the turn that
 * drifted, in `frames`'s timeline and in the page player's (the same scenes paint both). The
 * cards' pixels are test/native-goldens.test.ts's (rollout-score*.png, compare-*score.png).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { MIXED, runCli } from "../helpers.ts";
import { armsTimeline, textStrings, triesteTimeline, twoUpSpec, tx } from "../video-helpers.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { TimelineSchema } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { RolloutPropsSchema, type RolloutProps } from "../../envs/geoguesser/video/rollout/props.ts";
import { sceneAt, type VideoSpec } from "../../video/compositions.ts";
import { cardReward, formatReward, REWARD_SOURCES } from "../../envs/geoguesser/video/rollout/score-card.ts";
import { compareClock } from "../../envs/geoguesser/video/compare/clock.ts";
import type { PlayerEpisode, PlayerMeta } from "../../envs/geoguesser/src/page/player/format.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-score-numbers-"));
const publicDir = join(tmp, "public");
let trieste: Timeline;
let base: Timeline;
let ckpt: Timeline;

beforeAll(async () => {
  trieste = await triesteTimeline(publicDir);
  base = await armsTimeline(publicDir, "d37a27bd393a", "rollouts/pair-a");
  ckpt = await armsTimeline(publicDir, "ff03ebd569bb", "rollouts/pair-b");
}, 600_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const rollout = (t: Timeline, width = 1280, height = 720): VideoSpec => ({
  composition: "Rollout",
  props: RolloutPropsSchema.parse({ ...t, output: { width, height } }),
});

describe("score cards show what the record holds", () => {
  for (const [w, h] of [
    [1280, 720],
    [1080, 1080],
  ])
    it(`the rollout's card: geoeval's reward and the stored env reward, each named, and no points (${w}x${h})`, () => {
      const card = textStrings(sceneAt(rollout(trieste, w, h), trieste.totalFrames - 1, tx()));
      expect(card).toContain("REWARD (GEOEVAL)");
      expect(card).toContain(formatReward(cardReward(trieste.outcome)!));
      expect(card).toContain("ENV REWARD");
      expect(card).toContain(formatReward(trieste.outcome!.reward!));
      expect(card).toContain(REWARD_SOURCES);
      expect(card.join("\n")).not.toMatch(/points|\/ ?5000/i);
    });

  it("the two-up card: both sides' geoeval reward and env reward, and no points", () => {
    const spec = twoUpSpec(base, ckpt, { width: 1280, height: 720 });
    if (spec.composition !== "Compare") throw new Error("a Compare spec");
    const end = compareClock(spec.props).totalFrames - 1;
    const card = textStrings(sceneAt(spec, end, tx()));
    for (const t of [base, ckpt]) {
      expect(card).toContain(formatReward(cardReward(t.outcome)!));
      expect(card).toContain(formatReward(t.outcome!.reward!));
    }
    expect(card).toContain("REWARD (GEOEVAL)");
    expect(card).toContain("ENV REWARD");
    expect(card.join("\n")).not.toMatch(/points|\/ ?5000/i);
  });
});

describe("the unverified banner names the turn that drifted", () => {
  it("frames --unverified: the timeline records turn 5 and every frame's banner names it", () => {
    const out = join(tmp, "drift");
    const r = runCli([
      "frames",
      join(MIXED, "episodes.jsonl"),
      "--episode",
      "0ec192c0f90d",
      "--tasks",
      join(MIXED, "tasks.jsonl"),
      "--panos",
      join(MIXED, "panos"),
      "--out",
      out,
      "--fps",
      "5",
      "--unverified",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const t = TimelineSchema.parse(JSON.parse(readFileSync(join(out, "timeline.json"), "utf8")));
    expect(t.episode.verified).toBe(false);
    expect(t.episode.driftedTurns).toEqual([5]);
    for (const f of [0, Math.floor(t.totalFrames / 2), t.totalFrames - 1])
      expect(textStrings(sceneAt(rollout(t), f, tx()))).toContain("UNVERIFIED REPLAY · TURN 5 DRIFTED");
    // A verified replay records none and has no banner.
    expect(trieste.episode.driftedTurns).toBeUndefined();
    expect(textStrings(sceneAt(rollout(trieste), 0, tx())).join("\n")).not.toContain("UNVERIFIED");
  });

  it("the page's player: the drifted episode's embedded timeline names turn 5, and its text plan holds the banner", () => {
    const page = join(tmp, "mixed.html");
    const r = runCli(["page", join(MIXED, "episodes.jsonl"), "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "-o", page]);
    expect(r.code, r.stderr).toBe(1);
    const html = readFileSync(page, "utf8");
    const m = /<script type="application\/json" id="gr-player">(.*?)<\/script>/s.exec(html);
    expect(m).not.toBeNull();
    const meta = JSON.parse(m![1]) as PlayerMeta;
    const ep = JSON.parse(gunzipSync(Buffer.from(meta.episodes["0ec192c0f90d"], "base64")).toString("utf8")) as PlayerEpisode<RolloutProps>;
    expect(ep.props.episode.verified).toBe(false);
    expect(ep.props.episode.driftedTurns).toEqual([5]);
    expect(JSON.stringify(ep.props.text)).toContain("UNVERIFIED REPLAY · TURN 5 DRIFTED");
  });
});
