/**
 * `georeplay frames` on the environment's other recordings: a GRPO training
 * rollout (replayed, verified with its own digest scheme) and an
 * example-rollout episode (a slideshow of the recorded images). Real
 * panoramas, real reprojection, real sharp JPEG bytes, the built CLI with
 * worker threads and the in-thread path from sources.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { FIXTURES, MIXED, ROOT, runCli } from "../helpers.ts";
import { TimelineSchema, type Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { generateFrames } from "../../envs/geoguesser/replay/frames/frames.ts";
import { planEpisode } from "../../envs/geoguesser/replay/plan/segments.ts";
import { readEpisodeRecords } from "../../envs/geoguesser/replay/formats/records.ts";
import type { Episode } from "../../envs/geoguesser/replay/schema/episode.ts";

const TRAIN = join(FIXTURES, "train-rollouts.jsonl");
const EXAMPLE = join(FIXTURES, "example-rollout");
const replayArgs = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos")];

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
/** The training traces' digest, computed here independently: sha256 over the base64 text, first 16 hex digits. */
const trainDigest = (b: Buffer) => createHash("sha256").update(b.toString("base64")).digest("hex").slice(0, 16);
const tmp = mkdtempSync(join(tmpdir(), "georeplay-frames-formats-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const readTimeline = (dir: string): Timeline => TimelineSchema.parse(JSON.parse(readFileSync(join(dir, "timeline.json"), "utf8")));
const frameBytes = (dir: string, name: string) => readFileSync(join(dir, "frames", name));
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of readdirSync(join(dir, "frames")).sort()) out[`frames/${n}`] = sha(frameBytes(dir, n));
  out["timeline.json"] = sha(readFileSync(join(dir, "timeline.json")));
  return out;
}
/** Raw trace rows, as the recorder wrote them (not through our converters). */
const rawLines = (file: string): any[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

describe("georeplay frames on a training rollout", () => {
  const A = join(tmp, "train-a");
  const raw = rawLines(TRAIN)[0]; // line 1: reset, dead-end move, three looks, guess (short)
  let tl: Timeline;
  beforeAll(() => {
    const r = runCli(["frames", TRAIN, "--episode", "train-rollouts-L1", ...replayArgs, "--out", A, "--jobs", "2"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("5/5 views verified byte-for-byte (training digests)");
    tl = readTimeline(A);
  });

  it("is a verified replay of a training record, with segments in turn order", () => {
    expect(tl.episode).toMatchObject({
      episodeId: "train-rollouts-L1",
      modelName: "Qwen/Qwen3.5-4B",
      split: "eval",
      index: 2,
      verified: true,
      source: "replay",
      recordFormat: "train",
    });
    expect(tl.episode.imagesOverwritten).toBeUndefined();
    expect(tl.segments.map((s) => [s.turn, s.kind])).toEqual([
      [0, "opening"],
      [1, "hold"],
      [2, "camera"],
      [3, "camera"],
      [4, "camera"],
      [5, "guess"],
      [-1, "score"],
    ]);
    let start = 0;
    for (const s of tl.segments) {
      expect(s.startFrame).toBe(start);
      start += s.durationFrames;
    }
    expect(tl.totalFrames).toBe(start);
  });

  it("every keyframe file hashes to the recorded digest under the base64-16 scheme; keyframe.sha256 is the file's own sha256", () => {
    const keyed = tl.segments.filter((s) => s.keyframe);
    expect(keyed.map((s) => s.turn)).toEqual([0, 1, 2, 3, 4]);
    for (const s of keyed) {
      const turn = raw.turns.find((t: any) => t.turn === s.turn);
      const bytes = frameBytes(A, s.keyframe!.file);
      expect(trainDigest(bytes)).toBe(turn.image_sha256);
      expect(s.keyframe!.sha256).toBe(sha(bytes));
      expect(s.keyframe!.sha256).toMatch(/^[0-9a-f]{64}$/); // never the 16-hex recorded digest
    }
  });

  it("the trace pane has no replies: tool calls and feedback instead", () => {
    expect(tl.trace.map((e) => e.turn)).toEqual(raw.turns.map((t: any) => t.turn));
    for (const [i, e] of tl.trace.entries()) {
      expect(e.reply).toBeNull();
      expect(e.reasoning).toBeNull();
      expect(e.feedback).toBe(raw.turns[i].feedback);
      expect(e.failed).toBe(false);
    }
    expect(tl.trace[1]).toMatchObject({ actionName: "move", toolCall: 'move(direction="forward", meters=5.27)' });
    expect(tl.trace[2].toolCall).toBe("look(heading_deg=-95.6, pitch_deg=0, fov_deg=90)");
    expect(tl.trace[5].actionName).toBe("submit_guess");
  });

  it("the look to 264.45 turns the short way (down from 360), and the score card has the guess from the action", () => {
    const s = tl.segments.find((x) => x.turn === 2)!;
    const h = s.hud.map((x) => x.heading);
    expect(h[0]).toBeGreaterThan(264.4497);
    for (let i = 1; i < h.length; i++) expect(h[i]).toBeLessThan(h[i - 1]);
    expect(h.at(-1)).toBe(264.4498);
    const guess = raw.turns.at(-1).action;
    expect(tl.outcome).toMatchObject({ guess: [guess.lat, guess.lon], reward: raw.outcome.reward, distanceKm: raw.outcome.distance_km, turnsUsed: 5 });
  });

  it("metres walked add up the per-turn moved_meters training traces record", async () => {
    let episode: Episode | null = null;
    for await (const r of readEpisodeRecords([TRAIN])) if (r.kind === "episode" && r.line === 3) episode = r.episode;
    const walked = rawLines(TRAIN)[2].turns.reduce((m: number, t: any) => m + t.moved_meters, 0);
    expect(walked).toBeGreaterThan(19);
    const plan = planEpisode(episode!, { fps: 30 });
    const move = plan.segments.find((s) => s.kind === "move")!;
    expect(move.hud.at(-1)!.metres).toBe(Math.round(walked * 1e4) / 1e4);
    expect(plan.segments.at(-1)!.hud.at(-1)!.metres).toBe(Math.round(walked * 1e4) / 1e4);
  });

  it("two runs give the same bytes (worker threads via the CLI, and the in-thread path from sources)", async () => {
    const B = join(tmp, "train-b");
    const r = await generateFrames({ episodes: [TRAIN], episode: "#1", tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos"), out: B, jobs: 1 });
    expect(r.timeline.episode.episodeId).toBe("train-rollouts-L1");
    expect(snapshot(B)).toEqual(snapshot(A));
  });

  it("the drifted training view (line 4 turn 1) aborts with exit 1 naming the turn, and writes no timeline", () => {
    const corrupted: { line: number; turn: number }[] = JSON.parse(readFileSync(join(FIXTURES, "train-rollouts.corrupted.json"), "utf8"));
    expect(corrupted).toEqual([{ line: 4, turn: 1 }]);
    const D = join(tmp, "train-drift");
    const r = runCli(["frames", TRAIN, "--episode", "train-rollouts-L4", ...replayArgs, "--out", D]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("train-rollouts.jsonl:4: episode train-rollouts-L4: 1 view(s) drifted from the recorded digest");
    expect(r.stderr).toMatch(/\n {2}turn 1: camera heading /);
    expect(r.stderr).not.toMatch(/\bat \S+:\d+:\d+/); // no stack trace
    expect(existsSync(join(D, "timeline.json"))).toBe(false);
  });

  it("--unverified films the drifted training rollout, marked unverified, its drifted keyframe claiming no sha256", () => {
    const D = join(tmp, "train-unverified");
    const r = runCli(["frames", TRAIN, "--episode", "#4", ...replayArgs, "--out", D, "--unverified", "--jobs", "2"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("UNVERIFIED: 1 view(s) drifted");
    const t = readTimeline(D);
    expect(t.episode).toMatchObject({ episodeId: "train-rollouts-L4", verified: false, source: "replay", recordFormat: "train" });
    const raw4 = rawLines(TRAIN)[3];
    const keyed = t.segments.filter((x) => x.keyframe);
    // Both branches below must run: the drifted turn 1 and at least one verified keyframe.
    expect(keyed.map((s) => s.turn)).toContain(1);
    expect(keyed.length).toBeGreaterThan(1);
    for (const s of keyed) {
      const digest = trainDigest(frameBytes(D, s.keyframe!.file));
      const recordedDigest = raw4.turns.find((x: any) => x.turn === s.turn).image_sha256;
      if (s.turn === 1) {
        expect(s.keyframe!.sha256).toBeNull();
        expect(digest).not.toBe(recordedDigest);
      } else {
        expect(digest).toBe(recordedDigest);
        expect(s.keyframe!.sha256).toBe(sha(frameBytes(D, s.keyframe!.file)));
      }
    }
  });

  it("without --tasks/--panos a training rollout says what it needs (exit 2)", () => {
    const r = runCli(["frames", TRAIN, "--episode", "#2", "--out", join(tmp, "train-none")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "train-rollouts.jsonl:2: episode train-rollouts-L2 is a training rollout: --tasks and --panos are needed to re-render its views",
    );
  });
});

describe("georeplay frames on an example-rollout episode (slideshow)", () => {
  const S = join(tmp, "slides-a");
  // Line 3: the last episode of task 0 in the folder, so the image files are its own.
  const ex = rawLines(join(EXAMPLE, "trace.jsonl"))[2];
  const recorded = (row: any) => join(EXAMPLE, row.image);
  let tl: Timeline;
  let stdout = "";
  beforeAll(() => {
    const r = runCli(["frames", EXAMPLE, "--episode", "#3", "--out", S]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    stdout = r.stdout;
    tl = readTimeline(S);
  });

  it("is labelled a slideshow of recorded images, unverified, from an example-rollout record", () => {
    expect(stdout).toContain("slideshow of 11 recorded images");
    expect(stdout).toContain("not a replay");
    expect(tl.episode).toMatchObject({
      episodeId: "example-rollout-t000-L3",
      modelName: "synthetic-model",
      source: "slideshow",
      verified: false,
      recordFormat: "example",
      imagesOverwritten: false,
    });
    expect(tl.episode.country).toBe(ex.country); // the episode ends with a guess
    expect(tl.segments.map((s) => s.turn)).toEqual([...ex.trace.map((r: any) => r.turn), -1]);
    expect(tl.segments.map((s) => s.kind)).toEqual([
      "opening",
      "camera",
      "camera",
      "map",
      "camera",
      "map",
      "camera",
      "camera",
      "hold",
      "camera",
      "guess",
      "score",
    ]);
  });

  it("the frames are the recorded images: views byte for byte, maps fitted into the viewport as JPEG", async () => {
    const shown = new Map<number, string>(); // turn -> frame file on screen after the turn
    let last = "";
    for (const s of tl.segments) {
      last = s.crossfade?.to ?? s.frames.at(-1)!;
      shown.set(s.turn, last);
    }
    for (const row of ex.trace) {
      const file = shown.get(row.turn)!;
      const bytes = frameBytes(S, file);
      const original = readFileSync(recorded(row));
      if (row.image_kind === "view") {
        expect(sha(bytes)).toBe(sha(original));
      } else {
        const meta = await sharp(bytes).metadata();
        expect(meta).toMatchObject({ format: "jpeg", width: 640, height: 640 });
        // The recorded map's pixels, enlarged: the centre of the letterboxed image has its centre colour.
        const src = await sharp(original).raw().toBuffer({ resolveWithObject: true });
        const out = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
        const px = (img: typeof src, x: number, y: number) => [
          ...img.data.subarray((y * img.info.width + x) * img.info.channels, (y * img.info.width + x) * img.info.channels + 3),
        ];
        const a = px(src, Math.floor(src.info.width / 2) - 1, Math.floor(src.info.height / 2) - 1);
        const b = px(out, 320 - 20, 320 - 20);
        for (let c = 0; c < 3; c++) expect(Math.abs(a[c] - b[c])).toBeLessThanOrEqual(12);
      }
    }
    // Identical recorded images share one frame file; nothing else is in the folder.
    const distinct = new Set(ex.trace.map((r: any) => sha(readFileSync(recorded(r)))));
    expect(readdirSync(join(S, "frames")).filter((n) => /^\d{6}\.jpg$/.test(n)).length).toBe(distinct.size);
  });

  it("consecutive different images crossfade; a repeated image holds without one", () => {
    let prev = tl.segments[0].frames[0];
    let fades = 0;
    for (const s of tl.segments.slice(1, -1)) {
      const file = s.frames.at(-1)!;
      if (file !== prev) {
        fades++;
        expect(s.crossfade).toEqual({ from: prev, to: file, blendFrames: 24 });
        expect(s.motionFrames).toBe(24);
        expect(s.durationFrames).toBeGreaterThan(24);
      } else {
        expect(s.crossfade).toBeNull();
        expect(s.motionFrames).toBe(0);
      }
      prev = file;
    }
    expect(fades).toBe(9);
    expect(tl.segments.find((s) => s.turn === 8)).toMatchObject({ kind: "hold", crossfade: null }); // the dead-end move: same image
  });

  it("keyframes are the recorded views with their sha256; maps have none", () => {
    const turns = tl.segments.filter((x) => x.turn >= 0);
    const kinds = turns.map((s) => ex.trace.find((r: any) => r.turn === s.turn).image_kind);
    expect(kinds).toContain("view");
    expect(kinds).toContain("map");
    for (const s of turns) {
      const row = ex.trace.find((r: any) => r.turn === s.turn);
      if (row.image_kind === "view") {
        expect(s.keyframe!.sha256).toBe(sha(readFileSync(recorded(row))));
        expect(s.keyframe!.file).toBe(s.frames.at(-1));
      } else {
        expect(s.keyframe).toBeNull();
      }
    }
  });

  it("the HUD shows the recorded heading and fov, and says pitch, frame index and metres are unknown", () => {
    const turns = tl.segments.filter((x) => x.turn >= 0);
    expect(turns.length).toBeGreaterThan(0);
    expect(new Set(turns.map((s) => s.turn))).toEqual(new Set(ex.trace.map((r: any) => r.turn).filter((n: number) => n >= 0)));
    for (const s of turns) {
      const row = ex.trace.find((r: any) => r.turn === s.turn);
      expect(s.hud).toHaveLength(1);
      const h = s.hud[0];
      expect(h.heading).toBeCloseTo(((row.heading_deg % 360) + 360) % 360, 3);
      expect(h.fov).toBeCloseTo(row.fov_deg, 3);
      expect(h.stepsRemaining).toBe(row.steps_remaining);
      expect(h.cost).toBeCloseTo(row.action_cost, 4);
      expect(h.unknown).toEqual(["pitch", "frameIndex", "metres"]);
    }
    expect(tl.trace.map((e) => e.reply)).toEqual(ex.trace.map((r: any) => r.reply ?? null));
    const g = ex.trace.at(-1).action;
    expect(tl.outcome).toMatchObject({ guess: [g.lat, g.lon], reward: ex.reward, distanceKm: ex.distance_km });
  });

  it("two runs give the same bytes; a rerun in place reuses every frame", async () => {
    const B = join(tmp, "slides-b");
    const r = await generateFrames({ episodes: [EXAMPLE], episode: "example-rollout-t000-L3", out: B });
    expect(snapshot(B)).toEqual(snapshot(S));
    const again = await generateFrames({ episodes: [join(EXAMPLE, "trace.jsonl")], episode: "#3", out: B });
    expect(again.stats).toMatchObject({ reused: r.stats.files, rendered: 0 });
    expect(snapshot(B)).toEqual(snapshot(S));
    const text = readFileSync(join(S, "timeline.json"), "utf8");
    expect(text).not.toContain(tmp);
    expect(text).not.toContain(ROOT);
  });

  it("an episode whose images a later episode overwrote warns on stderr, and no keyframe claims a sha256", () => {
    const D = join(tmp, "slides-overwritten");
    const r = runCli(["frames", EXAMPLE, "--episode", "#1", "--out", D]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("warning: ");
    expect(r.stderr).toContain("episode example-rollout-t000-L1: a later episode of task 0 in the same folder overwrote this episode's image files");
    const t = readTimeline(D);
    expect(t.episode).toMatchObject({ source: "slideshow", imagesOverwritten: true, verified: false });
    const keyframes = t.segments.filter((s) => s.keyframe);
    expect(keyframes.length).toBeGreaterThan(0);
    expect(keyframes.map((s) => s.keyframe!.sha256)).toEqual(keyframes.map(() => null));
  });

  it("at another viewport size every image is transcoded, so no keyframe claims to be the recorded bytes", async () => {
    const r = await generateFrames({ episodes: [EXAMPLE], episode: "#3", out: join(tmp, "slides-320"), view: 320 });
    expect(r.timeline.viewport).toEqual({ width: 320, height: 320 });
    expect(r.stats.keyframes).toBe(0); // none copied byte for byte
    const keyed = r.timeline.segments.filter((s) => s.keyframe);
    expect(keyed.length).toBeGreaterThan(0);
    for (const s of keyed) expect(s.keyframe!.sha256).toBeNull();
    const files = readdirSync(join(tmp, "slides-320", "frames")).filter((x) => /^\d{6}\.jpg$/.test(x));
    expect(files.length).toBe(r.stats.files);
    for (const n of files) {
      expect(await sharp(join(tmp, "slides-320", "frames", n)).metadata()).toMatchObject({ format: "jpeg", width: 320, height: 320 });
    }
  });

  it("a missing recorded image is exit 2 naming the turn and the file", () => {
    const dir = join(tmp, "broken");
    cpSync(EXAMPLE, dir, { recursive: true });
    unlinkSync(join(dir, "images", "t002_turn03.jpg"));
    const r = runCli(["frames", dir, "--episode", "#6", "--out", join(tmp, "slides-broken")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/trace\.jsonl:6: episode broken-t002-L6: turn 3: recorded image .*t002_turn03\.jpg is missing or unreadable/);
  });
});
