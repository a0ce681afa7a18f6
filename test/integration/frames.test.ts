/**
 * `georeplay frames` end to end on the bundled episodes: real panoramas, real
 * reprojection, real sharp JPEG bytes, real worker threads (built CLI) and the
 * in-thread path (from sources).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, MIXED, ROOT, TRIESTE, runCli } from "../helpers.ts";
import { TimelineSchema, type Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { generateFrames, framesDirFor, slugFor } from "../../envs/geoguesser/replay/frames/frames.ts";
import { planEpisode } from "../../envs/geoguesser/replay/plan/segments.ts";
import { shortestDelta } from "../../replay/plan/camera-path.ts";
import { frameOf, viewSpecFor } from "../../envs/geoguesser/replay/verify/view-jobs.ts";
import { panoPath } from "../../envs/geoguesser/replay/panos/files.ts";
import { PanoStore } from "../../envs/geoguesser/replay/panos/store.ts";
import { renderView } from "../../envs/geoguesser/replay/render/view.ts";
import { EpisodeSchema, type Episode } from "../../envs/geoguesser/replay/schema/episode.ts";
import { TaskRowSchema, type TaskRow } from "../../envs/geoguesser/replay/schema/task.ts";

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const tmp = mkdtempSync(join(tmpdir(), "georeplay-frames-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const triesteArgs = [join(TRIESTE, "episodes.jsonl"), "--tasks", join(TRIESTE, "tasks.jsonl"), "--panos", join(TRIESTE, "panos")];
const mixedArgs = [join(MIXED, "episodes.jsonl"), "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos")];
const readEpisodes = (file: string): Episode[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => EpisodeSchema.parse(JSON.parse(l)));
const trieste = readEpisodes(join(TRIESTE, "episodes.jsonl"))[0];
const triesteTask: TaskRow = TaskRowSchema.parse(JSON.parse(readFileSync(join(TRIESTE, "tasks.jsonl"), "utf8").split("\n")[0]));
const readTimeline = (dir: string): Timeline => TimelineSchema.parse(JSON.parse(readFileSync(join(dir, "timeline.json"), "utf8")));
const fileSha = (dir: string, name: string) => sha(readFileSync(join(dir, "frames", name)));
/** Every output file of a run, name -> bytes digest. */
function snapshot(dir: string, withTimeline = true): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of readdirSync(join(dir, "frames")).sort()) out[`frames/${n}`] = fileSha(dir, n);
  if (withTimeline) out["timeline.json"] = sha(readFileSync(join(dir, "timeline.json")));
  return out;
}

describe("georeplay frames on the Trieste episode", () => {
  const A = join(tmp, "a");
  let tl: Timeline;
  beforeAll(() => {
    const r = runCli(["frames", ...triesteArgs, "--episode", trieste.episode_id, "--out", A]);
    expect(r.stderr).toBe("");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/8\/8 views verified byte-for-byte/);
    tl = readTimeline(A);
  });

  it("has one segment per turn, in order, of the right kind, then the score card", () => {
    expect(tl.segments.map((s) => [s.turn, s.kind])).toEqual([
      [0, "opening"],
      [1, "camera"],
      [2, "camera"],
      [3, "map"],
      [4, "camera"],
      [5, "camera"],
      [6, "camera"],
      [7, "move"],
      [8, "camera"],
      [9, "guess"],
      [-1, "score"],
    ]);
    let start = 0;
    for (const s of tl.segments) {
      expect(s.startFrame).toBe(start);
      expect(s.hud.length === s.frames.length || s.hud.length === 1).toBe(true);
      expect(s.durationFrames).toBeGreaterThanOrEqual(Math.max(s.frames.length, s.motionFrames));
      start += s.durationFrames;
    }
    expect(tl.totalFrames).toBe(start);
    expect(tl.fps).toBe(30);
    expect(tl.viewport).toEqual({ width: 640, height: 640 });
    expect(tl.framesDir).toBe("frames"); // --out outside public/
    expect(tl.episode).toMatchObject({
      episodeId: "90a9d3eba5ce",
      modelName: "haiku-4.5",
      split: "eval",
      index: 40,
      taskId: "eval-00040",
      country: "Italy",
      verified: true,
      source: "replay",
    });
    expect(tl.episode.attribution).toEqual({ creator: "mircozorzo", licence: "CC-BY-SA-4.0", source: "Mapillary" });
    expect(tl.outcome).toMatchObject({ distanceKm: 0.6187981749684509, points: 4998, verdict: "Pinpoint", reward: 0.8695855363224861, forcedGuess: false });
    expect(tl.trace.map((t) => t.turn)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(tl.trace[2]).toMatchObject({ actionName: "look", toolCall: "look(heading_deg=90, fov_deg=90)", failed: false });
    expect(tl.segments.find((s) => s.turn === 3)!.pins).toEqual([[45.6471, 13.7758]]);
    expect(tl.segments[0].pins).toEqual([]);
  });

  it("every keyframe file is the exact image the model saw (its sha256 is the recorded image_sha256)", () => {
    const keyed = tl.segments.filter((s) => s.keyframe);
    expect(keyed.map((s) => s.turn)).toEqual([0, 1, 2, 4, 5, 6, 7, 8]);
    for (const s of keyed) {
      const turn = trieste.turns.find((t) => t.turn === s.turn)!;
      expect(s.keyframe!.sha256).toBe(turn.image_sha256);
      expect(fileSha(A, s.keyframe!.file)).toBe(turn.image_sha256);
      expect(s.frames[s.keyframe!.offset] ?? s.frames.at(-1)).toBe(s.keyframe!.file);
    }
  });

  it("the turn-2 look (0 -> 90) gives distinct frames with the heading rising, no overshoot", () => {
    const s = tl.segments.find((x) => x.turn === 2)!;
    expect(s.motionFrames).toBe(s.frames.length);
    expect(s.frames.length).toBeGreaterThanOrEqual(20);
    const headings = s.hud.map((h) => h.heading);
    for (let i = 1; i < headings.length; i++) expect(headings[i]).toBeGreaterThan(headings[i - 1]);
    expect(headings[0]).toBeGreaterThan(0);
    expect(headings.at(-1)).toBe(90);
    expect(Math.max(...headings)).toBeLessThanOrEqual(90);
    const prev = tl.segments.find((x) => x.turn === 1)!.keyframe!.file;
    const shas = [prev, ...s.frames].map((f) => fileSha(A, f));
    expect(new Set(shas).size).toBe(shas.length); // no two frames of the motion (or its start) are identical
  });

  it("the turn-1 zoom (90 -> 30) gives distinct frames with the fov falling, heading still", () => {
    const s = tl.segments.find((x) => x.turn === 1)!;
    const fovs = s.hud.map((h) => h.fov);
    for (let i = 1; i < fovs.length; i++) expect(fovs[i]).toBeLessThan(fovs[i - 1]);
    expect(fovs[0]).toBeLessThan(90);
    expect(fovs.at(-1)).toBe(30);
    expect(s.hud.every((h) => h.heading === 0 && h.pitch === 0)).toBe(true);
    const shas = [tl.segments[0].frames[0], ...s.frames].map((f) => fileSha(A, f));
    for (let i = 1; i < shas.length; i++) expect(shas[i]).not.toBe(shas[i - 1]);
  });

  it("every in-between frame is the real reprojection at its planned pose (re-rendered here from whole panoramas)", async () => {
    const plan = planEpisode(trieste, { fps: 30 });
    const store = new PanoStore(join(TRIESTE, "panos"));
    const renders = plan.jobs.filter((j) => j.kind === "render");
    expect(renders.length).toBeGreaterThan(200);
    // All of them: the zoom frames on a full-resolution original once sampled a band of rows
    // decoded for a view check (a store bug), and four spot checks did not see it.
    for (const j of renders) {
      const cam = { heading_deg: j.pose.heading, pitch_deg: j.pose.pitch, fov_deg: j.pose.fov, frame_index: j.frameIndex };
      const frame = frameOf(triesteTask, cam, "test");
      const pano = await store.get(panoPath(join(TRIESTE, "panos"), frame.image_id, cam.fov_deg));
      const { jpeg } = await renderView(pano, viewSpecFor(cam, frame, 640));
      expect(fileSha(A, j.file)).toBe(sha(jpeg));
    }
  });

  it("a prefetched panorama is the one get() gives, and a failed prefetch fails the get that asks, not the process", async () => {
    const dir = join(TRIESTE, "panos");
    const store = new PanoStore(dir, 256 * 1024 * 1024, 1);
    const path = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith(".jpg"))!,
    );
    store.prefetch(path);
    const pano = await store.get(path);
    expect(store.has(path)).toBe(true);
    expect(await store.get(path)).toBe(pano); // decoded once
    const missing = join(dir, "no-such-pano.jpg");
    store.prefetch(missing);
    await new Promise((r) => setTimeout(r, 50)); // the failure lands before anyone asks
    await expect(store.get(missing)).rejects.toThrow(/no-such-pano\.jpg: no such file/);
  });

  it("a band decoded for some views never stands in for the whole panorama", async () => {
    const dir = join(TRIESTE, "panos");
    const path = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith(".jpg"))!,
    );
    const store = new PanoStore(dir, 256 * 1024 * 1024, 4);
    const band = await store.get(path, (_w, h) => ({ top: Math.floor(h / 2), bottom: Math.floor(h / 2) + 16 }));
    expect(band.rows).toBeLessThan(band.height);
    expect(store.has(path, (_w, h) => ({ top: Math.floor(h / 2), bottom: Math.floor(h / 2) + 8 }))).toBe(true);
    expect(store.has(path)).toBe(false);
    const whole = await store.get(path);
    expect(whole.top).toBe(0);
    expect(whole.rows).toBe(whole.height);
    expect(store.has(path)).toBe(true);
  });

  it("retain keeps the decoded panoramas named and forgets the others", async () => {
    const dir = join(TRIESTE, "panos");
    const store = new PanoStore(dir, 256 * 1024 * 1024, 4);
    const [a, b] = readdirSync(dir)
      .filter((f) => f.endsWith(".jpg"))
      .slice(0, 2)
      .map((f) => join(dir, f));
    const pa = await store.get(a);
    await store.get(b);
    store.retain(new Set([a]));
    expect(store.has(a)).toBe(true);
    expect(store.has(b)).toBe(false);
    expect(await store.get(a)).toBe(pa); // kept, not decoded again
  });

  it("the walk crossfades from the old panorama to the new one at the same pose", () => {
    const s = tl.segments.find((x) => x.turn === 7)!;
    const before = tl.segments.find((x) => x.turn === 6)!;
    expect(s.crossfade).toEqual({ from: before.keyframe!.file, to: s.keyframe!.file, blendFrames: s.motionFrames });
    expect(s.hud[0].metres).toBeGreaterThan(0);
    expect(s.hud.at(-1)).toMatchObject({ metres: 1.8229, frameIndex: 23, fov: 15, heading: 0 });
    const m = s.hud.map((h) => h.metres);
    for (let i = 1; i < m.length; i++) expect(m[i]).toBeGreaterThanOrEqual(m[i - 1]);
  });

  it("timeline.json holds no absolute paths and no timestamps", () => {
    const text = readFileSync(join(A, "timeline.json"), "utf8");
    expect(text).not.toContain(tmp);
    expect(text).not.toContain(ROOT);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });

  it("two runs give byte-identical frames and timeline (the second with the default --out inside a public dir)", () => {
    const pub = join(tmp, "public");
    const r = runCli(["frames", ...triesteArgs, "--episode", "#1", "--public-dir", pub, "--jobs", "2"]);
    expect(r.code, r.stderr).toBe(0);
    const B = join(pub, "rollouts", "90a9d3eba5ce");
    expect(r.stdout).toContain(join(B, "timeline.json"));
    expect(snapshot(B, false)).toEqual(snapshot(A, false));
    const text = readFileSync(join(B, "timeline.json"), "utf8");
    expect(text).toContain('"framesDir": "rollouts/90a9d3eba5ce/frames"');
    expect(text.replace('"framesDir": "rollouts/90a9d3eba5ce/frames"', '"framesDir": "frames"')).toBe(readFileSync(join(A, "timeline.json"), "utf8"));
  });

  it("a rerun reuses frames whose hash is known, and re-renders a damaged one", async () => {
    const progress: [number, number][] = [];
    const opts = {
      episodes: [join(TRIESTE, "episodes.jsonl")],
      episode: trieste.episode_id,
      tasks: join(TRIESTE, "tasks.jsonl"),
      panos: join(TRIESTE, "panos"),
      out: A,
      onProgress: (d: number, t: number) => progress.push([d, t]),
    };
    const before = snapshot(A);
    const r1 = await generateFrames(opts);
    expect(r1.stats).toMatchObject({ rendered: 0, reused: r1.stats.files });
    expect(progress.at(-1)).toEqual([r1.stats.files, r1.stats.files]);
    const victim = tl.segments.find((s) => s.turn === 2)!.frames[5];
    writeFileSync(join(A, "frames", victim), "not a jpeg");
    const r2 = await generateFrames(opts);
    expect(r2.stats.rendered).toBe(1);
    expect(snapshot(A)).toEqual(before);
  });

  it("an interrupted run leaves no timeline.json and no partial frame; the rerun picks up its frames", async () => {
    const D = join(tmp, "d");
    const child = spawn(process.execPath, [CLI, "frames", ...triesteArgs, "--episode", "#1", "--out", D, "--jobs", "2"], { cwd: ROOT, stdio: "ignore" });
    const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
    const count = () => (existsSync(join(D, "frames")) ? readdirSync(join(D, "frames")).filter((n) => /^\d{6}\.jpg$/.test(n)).length : 0);
    while (count() < 110 && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(existsSync(join(D, "timeline.json"))).toBe(false);
    expect(readdirSync(join(D, "frames")).filter((n) => n.includes(".tmp-"))).toEqual([]); // workers stopped, temp files removed
    for (const n of readdirSync(join(D, "frames")).filter((x) => /^\d{6}\.jpg$/.test(x))) {
      const b = readFileSync(join(D, "frames", n));
      expect(b.subarray(-2).toString("hex")).toBe("ffd9"); // complete JPEG
    }
    const r = runCli(["frames", ...triesteArgs, "--episode", "#1", "--out", D]);
    expect(r.code, r.stderr).toBe(0);
    const reused = Number(/(\d+) reused/.exec(r.stdout)?.[1]);
    expect(reused).toBeGreaterThanOrEqual(48);
    expect(snapshot(D)).toEqual(snapshot(A));
  });
});

describe("camera path on a synthetic episode", () => {
  it("turning 350 -> 10 passes through 0, not through 180", async () => {
    // The trieste opening, then look 350 and look 10; view hashes made by the real renderer + encoder.
    const store = new PanoStore(join(TRIESTE, "panos"));
    const cam = (h: number) => ({ heading_deg: h, pitch_deg: 0, fov_deg: 90, frame_index: 12 });
    const hashFor = async (h: number) => {
      const frame = frameOf(triesteTask, cam(h), "test");
      const pano = await store.get(panoPath(join(TRIESTE, "panos"), frame.image_id, 90));
      return sha((await renderView(pano, viewSpecFor(cam(h), frame, 640))).jpeg);
    };
    const [t0, , , , , , , , , t9] = trieste.turns;
    const ep = {
      ...trieste,
      episode_id: "synthetic350",
      turns: [
        { ...t0, camera_after: cam(0), image_sha256: await hashFor(0) },
        {
          ...trieste.turns[2],
          turn: 1,
          action: { action: "look", heading_deg: -10 },
          camera_before: cam(0),
          camera_after: cam(350),
          image_sha256: await hashFor(350),
        },
        {
          ...trieste.turns[2],
          turn: 2,
          action: { action: "look", heading_deg: 3610 },
          camera_before: cam(350),
          camera_after: cam(10),
          image_sha256: await hashFor(10),
        },
        { ...t9, turn: 3, camera_before: cam(10), camera_after: cam(10) },
      ],
    };
    const dir = join(tmp, "synthetic");
    const file = join(dir, "episodes.jsonl");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(ep) + "\n");
    const r = await generateFrames({
      episodes: [file],
      episode: "synthetic350",
      tasks: join(TRIESTE, "tasks.jsonl"),
      panos: join(TRIESTE, "panos"),
      out: join(dir, "out"),
    });
    expect(r.timeline.episode.verified).toBe(true);
    const seg = r.timeline.segments.find((s) => s.turn === 2)!;
    expect(seg.kind).toBe("camera");
    const hs = seg.hud.map((h) => h.heading);
    for (const h of hs) expect(h >= 350 || h <= 10).toBe(true);
    let prev = 350;
    for (const h of hs) {
      expect(shortestDelta(prev, h)).toBeGreaterThan(0); // always clockwise, through 0
      prev = h;
    }
    expect(hs.some((h) => h > 355) && hs.some((h) => h < 5)).toBe(true);
    expect(hs.at(-1)).toBe(10);
    // turn 1 (0 -> 350) goes the short way too: counter-clockwise through 355
    const one = r.timeline.segments.find((s) => s.turn === 1)!.hud.map((h) => h.heading);
    expect(one.every((h) => h === 0 || h >= 350)).toBe(true);
    // the files really show those poses: the last frame of the turn is the recorded view
    expect(fileSha(r.outDir, seg.frames.at(-1)!)).toBe(ep.turns[2].image_sha256);
  });
});

describe("segments of the mixed run (plans only)", () => {
  const mixed = readEpisodes(join(MIXED, "episodes.jsonl"));
  const kinds = (id: string) =>
    planEpisode(
      mixed.find((e) => e.episode_id === id)!,
      { fps: 30 },
    ).segments.map((s) => `${s.turn}:${s.kind}`);

  it("unparseable turns hold on the view already shown, without new frame files", () => {
    expect(kinds("b9b50c59f425")).toEqual([
      "0:opening",
      "1:hold",
      "2:camera",
      "3:camera",
      "4:hold",
      "5:hold",
      "6:camera",
      "7:camera",
      "8:camera",
      "9:hold",
      "10:hold",
      "11:guess",
      "-1:score",
    ]);
    const plan = planEpisode(
      mixed.find((e) => e.episode_id === "b9b50c59f425")!,
      { fps: 30 },
    );
    const s4 = plan.segments.find((s) => s.turn === 4)!;
    const s3 = plan.segments.find((s) => s.turn === 3)!;
    expect(s4.frames).toEqual([s3.keyframe!.file]);
    expect(s4.motionFrames).toBe(0);
  });

  it("a dead-end move holds; a real move crossfades; pins are map turns", () => {
    expect(kinds("0ec192c0f90d")).toEqual([
      "0:opening",
      "1:camera",
      "2:map",
      "3:camera",
      "4:camera",
      "5:camera",
      "6:map",
      "7:camera",
      "8:hold",
      "9:hold",
      "10:guess",
      "-1:score",
    ]);
    expect(kinds("1ae5a0c90017")[2]).toBe("2:move");
    expect(kinds("23b323a8f473")).toContain("3:hold"); // an unparseable turn after a pin
    const names = new Set(planEpisode(mixed[0], { fps: 30 }).jobs.map((j) => j.file));
    expect(names.size).toBe(planEpisode(mixed[0], { fps: 30 }).jobs.length);
  });
});

describe("refusals", () => {
  it("a corrupted trace aborts with exit 1 naming the drifted turn and both hashes, writing nothing", () => {
    const out = join(tmp, "corrupt");
    const r = runCli(["frames", ...mixedArgs, "--episode", "0ec192c0f90d", "--out", out]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/episode 0ec192c0f90d/);
    expect(r.stderr).toMatch(/turn 5: camera heading 0 pitch 0 fov 30 frame 0 · recorded 07f99c4c5afb… rendered 77f99c4c5afb…/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(existsSync(join(out, "timeline.json"))).toBe(false);
  });

  it("--unverified renders anyway and marks the episode (and the drifted keyframe) unverified", () => {
    const out = join(tmp, "unverified");
    const r = runCli(["frames", ...mixedArgs, "--episode", "23b323a8f473", "--out", out, "--unverified"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/UNVERIFIED: 1 view\(s\) drifted/);
    const t = readTimeline(out);
    expect(t.episode.verified).toBe(false);
    expect(t.segments[0].keyframe!.sha256).toBeNull(); // turn 0 is the corrupted one
    // Every other keyframe is the exact view the model saw: its sha256 is the record's.
    const record = JSON.parse(
      readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
        .split("\n")
        .find((l) => l.includes('"23b323a8f473"'))!,
    );
    const recorded = new Map<number, string>(record.turns.filter((x: any) => x.image_kind === "view").map((x: any) => [x.turn, x.image_sha256]));
    const claimed = t.segments.filter((s) => s.keyframe?.sha256);
    expect(claimed.length).toBe(t.segments.filter((s) => s.keyframe && s.turn !== 0).length);
    expect(claimed.length).toBeGreaterThan(0);
    for (const s of claimed) expect(s.keyframe!.sha256).toBe(recorded.get(s.turn));
  });

  it("bad input exits 2 with a specific message", () => {
    const unknown = runCli(["frames", ...mixedArgs, "--episode", "nope", "--out", join(tmp, "x")]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/episode "nope" not found in .*episodes\.jsonl \(10 replayable episode\(s\)\)/);
    const ord = runCli(["frames", ...mixedArgs, "--episode", "#11", "--out", join(tmp, "x")]);
    expect(ord.code).toBe(2);
    expect(ord.stderr).toMatch(/episode #11 not found/);
    const panos = runCli(["frames", ...triesteArgs.slice(0, 3), "--panos", join(tmp, "no-such-dir"), "--episode", "#1", "--out", join(tmp, "x")]);
    expect(panos.code).toBe(2);
    expect(panos.stderr).toMatch(/--panos .*no-such-dir/);
    const missing = runCli(["frames", ...triesteArgs.slice(0, 3), "--panos", join(MIXED, "panos"), "--episode", "#1", "--out", join(tmp, "x")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/episode 90a9d3eba5ce: turns 0, 1, 2, 4, 5, 6: panorama .*1348269026230233\.jpg: no such file/);
    expect(missing.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(existsSync(join(tmp, "x", "timeline.json"))).toBe(false);
  });

  it("never uses trace text as a path: slugs are sanitised, framesDir is relative to public/", () => {
    expect(slugFor("../../etc/passwd")).toBe("etc-passwd");
    expect(slugFor("90a9d3eba5ce")).toBe("90a9d3eba5ce");
    expect(slugFor("..")).toBe("episode");
    expect(framesDirFor("/x/public/rollouts/abc", "/x/public")).toBe("rollouts/abc/frames");
    expect(framesDirFor("/elsewhere/abc", "/x/public")).toBe("frames");
  });
});
