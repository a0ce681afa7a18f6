/**
 * The batch runner behind the VideoBackend seam, with a backend that encodes real MP4s with
 * ffmpeg's test source (fast): prepare(next) overlaps encode(current); a failing video is
 * reported and the others written; a rerun skips complete videos and re-renders changed ones.
 */
import { afterAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { MIXED } from "../helpers.ts";
import { listCandidates, planVideos } from "../../envs/geoguesser/replay/batch/plan.ts";
import { selectVideos } from "../../envs/geoguesser/replay/batch/select.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { runBatch, type BatchRunOptions } from "../../envs/geoguesser/src/batch/run-batch.ts";
import type { VideoBackend } from "../../envs/geoguesser/src/batch/backend.ts";
import { LOCK_NAME } from "../../src/batch/folder-lock.ts";
import { batchExitCode } from "../../src/reports/exit-codes.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const EPISODES = join(MIXED, "episodes.jsonl");

type Event = { what: "prepare-start" | "prepare-end" | "encode-start" | "encode-end"; episode: string; t: number };

/** An H.264 MP4 of `frames` frames of an ffmpeg test source (lavfi), written to `out`. */
function testPattern(source: string, frames: number, out: string): void {
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-frames:v", String(frames), "-pix_fmt", "yuv420p", "-c:v", "libx264", out]);
}

/** Resolves once `what` of `episode` has happened; rejects (failing the test, never hanging it) after 20 s. */
type Gate = { after: string; what: Event["what"]; episode: string };
function waitFor(events: Event[], heard: EventTarget, g: Gate): Promise<void> {
  const seen = () => events.some((e) => e.what === g.what && e.episode === g.episode);
  if (seen()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${g.after}: ${g.what} of ${g.episode} never happened`)), 20_000);
    heard.addEventListener("event", function check() {
      if (!seen()) return;
      heard.removeEventListener("event", check);
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Prepare takes a while (as frame files would); encode writes `frames` frames of testsrc,
 * atomically. `gates` hold an episode's encode open until another event has happened, so an
 * overlap is proven by the order of events, not by timing.
 */
function testBackend(events: Event[], fail: Map<string, GeoreplayError>, gates: Gate[] = []): VideoBackend {
  const heard = new EventTarget();
  const log = (what: Event["what"], episode: string) => {
    events.push({ what, episode, t: performance.now() });
    heard.dispatchEvent(new Event("event"));
  };
  return {
    name: "testsrc",
    async prepare(job) {
      log("prepare-start", job.episode);
      await new Promise((r) => setTimeout(r, 150));
      log("prepare-end", job.episode);
      const f = fail.get(job.episode);
      if (f) throw f;
      return { job };
    },
    async encode(p, out) {
      log("encode-start", p.job.episode);
      for (const g of gates.filter((g) => g.after === p.job.episode)) await waitFor(events, heard, g);
      const frames = 12;
      const tmp = join(dirname(out), `.${basename(out)}.tmp-test.mp4`);
      testPattern(`testsrc=size=${p.job.size.width}x${p.job.size.height}:rate=${p.job.fps}`, frames, tmp);
      await new Promise((r) => setTimeout(r, 300));
      renameSync(tmp, out);
      log("encode-end", p.job.episode);
      return { out, frames, fps: p.job.fps, width: p.job.size.width, height: p.job.size.height, episodeIds: [p.job.episode], verified: [true] };
    },
    async close() {},
  };
}

async function options(dir: string, backend: VideoBackend, fps = 6): Promise<BatchRunOptions> {
  const candidates = await listCandidates([EPISODES]);
  const selected = selectVideos(candidates, { by: "episodes", wanted: ["b110d889e34e", "0ec192c0f90d", "4b86cb1e4dca"] });
  const videos = await planVideos([EPISODES], selected, { fps });
  return {
    episodes: [EPISODES],
    tasks: join(MIXED, "tasks.jsonl"),
    panos: join(MIXED, "panos"),
    candidates,
    videos,
    dir,
    format: "mp4",
    size: { width: 160, height: 90 },
    fps,
    unverified: false,
    maxMb: null,
    poster: null,
    posterFrame: null,
    backend,
    generator: "georeplay test",
    signal: new AbortController().signal,
  };
}

describe("runBatch", () => {
  const dir = mkdtempSync(join(tmpdir(), "georeplay-batch-runner-"));
  dirs.push(dir);

  it("overlaps prepare(next) with encode(current), isolates a failure, and maps it to the exit code", async () => {
    const events: Event[] = [];
    const drift = new GeoreplayError("episode 0ec192c0f90d turn 5: view drifted", "drift");
    // The first video's encode stays open until the third video has started preparing: that can
    // only happen if the failed second prepare handed its place on at once.
    const gates = [{ after: "b110d889e34e", what: "prepare-start" as const, episode: "4b86cb1e4dca" }];
    const r = await runBatch(await options(dir, testBackend(events, new Map([["0ec192c0f90d", drift]]), gates)));
    expect(r.written.map((v) => v.file)).toEqual(["b110d889e34e.mp4", "4b86cb1e4dca.mp4"]);
    expect(r.failed).toMatchObject([{ file: "0ec192c0f90d.mp4", kind: "drift" }]);
    expect(batchExitCode(r.failed)).toBe(1);
    // Both later prepares started while the first video was encoding.
    const order = (what: Event["what"], ep: string) => events.findIndex((e) => e.what === what && e.episode === ep);
    expect(order("prepare-start", "0ec192c0f90d")).toBeLessThan(order("encode-end", "b110d889e34e"));
    expect(order("prepare-start", "4b86cb1e4dca")).toBeLessThan(order("encode-end", "b110d889e34e"));
    const p = probeVideo(join(dir, "b110d889e34e.mp4"));
    expect([p.codec, p.frames, p.width]).toEqual(["h264", 12, 160]);
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    expect(m.videos.map((v: { file: string }) => v.file)).toEqual(["4b86cb1e4dca.mp4", "b110d889e34e.mp4"]);
    expect(m.videos[0].inputs.files[0]).toMatchObject({
      role: "record",
      path: EPISODES,
      line: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(m.failures).toMatchObject([{ file: "0ec192c0f90d.mp4", kind: "drift" }]);
    expect(batchExitCode([{ kind: "input" }])).toBe(2);
    expect(batchExitCode([{ kind: "drift" }, { kind: "input" }])).toBe(2); // the one precedence rule: input beats drift
    expect(batchExitCode([])).toBe(0);
  });

  it("a rerun skips complete videos; a changed file or changed options re-render", async () => {
    const events: Event[] = [];
    const again = await runBatch(await options(dir, testBackend(events, new Map())));
    expect(again.skipped.map((v) => v.file).sort()).toEqual(["4b86cb1e4dca.mp4", "b110d889e34e.mp4"]);
    expect(again.written.map((v) => v.file)).toEqual(["0ec192c0f90d.mp4"]);
    expect(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).failures).toEqual([]);

    writeFileSync(join(dir, "b110d889e34e.mp4"), "not the video any more");
    const third = await runBatch(await options(dir, testBackend([], new Map())));
    expect(third.written.map((v) => v.file)).toEqual(["b110d889e34e.mp4"]);

    const fps = await runBatch(await options(dir, testBackend([], new Map()), 5));
    expect(fps.written).toHaveLength(3);
  });

  it("a manifest that does not parse is named with its field", async () => {
    const bad = mkdtempSync(join(tmpdir(), "georeplay-batch-runner-"));
    dirs.push(bad);
    writeFileSync(join(bad, "manifest.json"), JSON.stringify({ version: 1, videos: [{ file: 3 }], failures: [] }));
    await expect(runBatch(await options(bad, testBackend([], new Map())))).rejects.toThrow(/manifest\.json: videos\[0\]\.file: expected string/);
    expect(existsSync(join(bad, LOCK_NAME)), "the lock is released after a failed run").toBe(false);
  });
});

describe("one batch per folder", () => {
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), "georeplay-batch-lock-"));
    dirs.push(d);
    return d;
  };

  it("a second batch into the folder is refused, naming the first; the first finishes and releases it", async () => {
    const dir = fresh();
    let letGo!: () => void;
    const held = new Promise<void>((r) => (letGo = r));
    let encoding!: () => void;
    const started = new Promise<void>((r) => (encoding = r));
    const inner = testBackend([], new Map());
    const holding: VideoBackend = {
      ...inner,
      async encode(p, out, signal, onFrames) {
        encoding();
        await held;
        return inner.encode(p, out, signal, onFrames);
      },
    };
    const first = runBatch(await options(dir, holding));
    await started;
    const second = runBatch(await options(dir, testBackend([], new Map())));
    await expect(second).rejects.toThrow(
      new RegExp(`another batch is writing this folder \\(process ${process.pid} on ${hostname()}, since .*\\); one batch per folder`),
    );
    await expect(second).rejects.toMatchObject({ kind: "input" });
    letGo();
    const r = await first;
    expect(r.written).toHaveLength(3);
    expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
    expect(
      readdirSync(dir).filter((f) => f.startsWith(".")),
      "no lock, temp file or work folder left",
    ).toEqual([]);
  });

  it("a lock left by a process that is gone (same host) is taken over", async () => {
    const dir = fresh();
    const gone = spawnSync("true").pid!;
    writeFileSync(join(dir, LOCK_NAME), JSON.stringify({ pid: gone, host: hostname(), started: "2026-01-01T00:00:00.000Z" }));
    const r = await runBatch(await options(dir, testBackend([], new Map())));
    expect(r.written).toHaveLength(3);
    expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
  });

  it("a lock from another host cannot be checked: refused, with the path to delete; the lock is left alone", async () => {
    const dir = fresh();
    const lock = join(dir, LOCK_NAME);
    const theirs = JSON.stringify({ pid: 4242, host: "render-node-7", started: "2026-01-01T00:00:00.000Z" });
    writeFileSync(lock, theirs);
    await expect(runBatch(await options(dir, testBackend([], new Map())))).rejects.toThrow(
      `another batch is writing this folder (process 4242 on render-node-7, since 2026-01-01T00:00:00.000Z); one batch per folder: give this one another -o, or if that batch is no longer running, delete ${lock}`,
    );
    expect(readFileSync(lock, "utf8")).toBe(theirs);
    expect(readdirSync(dir).sort()).toEqual([LOCK_NAME]);
  });
});

describe("transcode", () => {
  const dir = mkdtempSync(join(tmpdir(), "georeplay-transcode-"));
  dirs.push(dir);
  const src = join(dir, "src.mp4");
  // 3 s of noisy test pattern at 10 fps: large as a GIF, so budgets bite.
  testPattern("testsrc2=size=480x270:rate=10,noise=alls=40:allf=t", 30, src);
  const facts = { width: 480, height: 270, fps: 10, frames: 30 };

  it("GIF within a budget: lowered, said so, every frame 100 ms or 200 ms, 3 s long", async () => {
    const { transcode } = await import("../../src/ffmpeg/transcode.ts");
    const sharp = (await import("sharp")).default;
    const out = join(dir, "a.gif");
    const r = await transcode(src, out, "gif", facts, { maxBytes: 400_000 });
    const m = await sharp(out, { animated: true }).metadata();
    expect(readFileSync(out).length).toBeLessThanOrEqual(400_000);
    expect(r.notes.join(" ")).toMatch(/lowered to \d+x\d+ at \d+ fps to fit --max-mb 0.40 MB/);
    expect(m.pages).toBe(r.frames);
    expect(m.pages).toBe(3 * r.fps);
    expect(m.delay!.reduce((a, b) => a + b, 0)).toBe(3000);
  });

  it("a budget nothing fits: the smallest is written and the note says so", async () => {
    const { transcode } = await import("../../src/ffmpeg/transcode.ts");
    const r = await transcode(src, join(dir, "b.webp"), "webp", facts, { maxBytes: 1000 });
    expect(r.notes.join(" ")).toMatch(/does not fit --max-mb 0.00 MB even at \d+x\d+ and \d+ fps/);
    expect(r.width).toBeLessThan(480);
  });

  it("frame rates that are not whole centiseconds become the next lower one", async () => {
    const { animationRate } = await import("../../src/ffmpeg/transcode.ts");
    expect([30, 24, 12, 10, 6, 3].map((f) => animationRate(f))).toEqual([25, 20, 10, 10, 5, 2]);
  });
});
