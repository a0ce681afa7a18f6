/**
 * Laying a video out while its views are verified: the replay announces its
 * timeline as it will be if every view matches (onPlanned), the painter lays
 * that provisional spec out, and the final spec reuses the layout only when
 * it paints alike (paintsAlike: equal but for the keyframes' hashes, which no
 * scene reads). Then the painter's thread, started before the program loads
 * for a native render, never keeps a command that does not paint alive.
 */
import { afterAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, TRIESTE } from "../helpers.ts";
import { tx } from "../video-helpers.ts";
import { generateFrames } from "../../envs/geoguesser/replay/frames/frames.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { sceneAt, videoFrames, type VideoSpec } from "../../video/compositions.ts";
import { paintsAlike } from "../../video/spec.ts";
import { sameScene } from "../../video/scene/same-scene.ts";
import { rolloutSpec } from "../../envs/geoguesser/src/film/render-episode.ts";
import { paintsNatively } from "../../src/commands/early-start.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-alike-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dist = (p: string) => pathToFileURL(join(ROOT, "dist", p)).href;

/** The Trieste replay, with the provisional timelines it announced and when. */
async function trieste(): Promise<{ final: Timeline; provisional: Timeline[]; progressBefore: number[] }> {
  const provisional: Timeline[] = [];
  const progressBefore: number[] = [];
  let progress = 0;
  const gen = await generateFrames({
    episodes: [join(TRIESTE, "episodes.jsonl")],
    episode: "#1",
    tasks: join(TRIESTE, "tasks.jsonl"),
    panos: join(TRIESTE, "panos"),
    publicDir: tmp,
    out: join(tmp, "e"),
    jobs: 1,
    deferInBetween: true,
    onProgress: () => progress++,
    onPlanned: (t) => {
      progressBefore.push(progress);
      provisional.push(t);
    },
  });
  return { final: gen.timeline, provisional, progressBefore };
}

/** The spec with every keyframe hash replaced. */
function rehashed(spec: VideoSpec, sha: string | null): VideoSpec {
  return JSON.parse(JSON.stringify(spec), (k, v) => (k === "sha256" ? sha : v)) as VideoSpec;
}

describe("a provisional layout, laid out while the views are verified", () => {
  let run: Awaited<ReturnType<typeof trieste>>;

  it("a replay announces its timeline once, before any frame file is written; it paints like the final one", async () => {
    run = await trieste();
    expect(run.provisional).toHaveLength(1);
    expect(run.progressBefore).toEqual([0]);
    const [prov] = run.provisional;
    const keyframes = (t: Timeline) => t.segments.map((s) => s.keyframe).filter((k) => k !== null);
    // The hashes are not known before verification; the final timeline has every keyframe's.
    expect(keyframes(prov).length).toBeGreaterThan(0);
    expect(keyframes(prov).every((k) => k.sha256 === null)).toBe(true);
    expect(keyframes(run.final).every((k) => /^[0-9a-f]{64}$/.test(k.sha256 ?? ""))).toBe(true);
    expect(prov.episode.verified).toBe(true);
    expect(paintsAlike(rolloutSpec(prov, undefined), rolloutSpec(run.final, undefined))).toBe(true);
    expect(paintsAlike(rolloutSpec(prov, undefined), rolloutSpec(run.final, { width: 1920, height: 1080 }))).toBe(false);
  });

  it("no scene reads a keyframe's hash: every frame paints alike with other hashes", () => {
    const spec = rolloutSpec(run.final, undefined);
    for (const other of [rehashed(spec, null), rehashed(spec, "0".repeat(64))]) {
      expect(paintsAlike(spec, other)).toBe(true);
      for (let f = 0; f < videoFrames(spec); f++) if (!sameScene(sceneAt(spec, f, tx()), sceneAt(other, f, tx()))) throw new Error(`frame ${f} differs`);
    }
    // The scenes' sources do not name the field either (a new reader would need paintsAlike to change).
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) =>
        statSync(join(dir, n)).isDirectory() ? sources(join(dir, n)) : n.endsWith(".ts") || n.endsWith(".tsx") ? [join(dir, n)] : [],
      );
    expect(sources(join(ROOT, "video")).filter((f) => readFileSync(f, "utf8").includes("sha256"))).toEqual([join(ROOT, "video", "spec.ts")]);
  });

  it("anything a scene reads is a difference: an unverified stamp, a turn's reply", () => {
    const spec = rolloutSpec(run.final, undefined);
    const unverified = rolloutSpec({ ...run.final, episode: { ...run.final.episode, verified: false } }, undefined);
    expect(paintsAlike(spec, unverified)).toBe(false);
    const trace = run.final.trace.map((t, i) => (i === 0 ? { ...t, reply: `${t.reply ?? ""}!` } : t));
    expect(paintsAlike(spec, rolloutSpec({ ...run.final, trace }, undefined))).toBe(false);
  });

  it("the painter's thread plans a spec once: a final spec that paints alike gets the provisional plan", async () => {
    const { startPainterThreads } = (await import(dist("src/film/native/painter-threads.js"))) as typeof import("../../src/film/native/painter-threads.ts");
    const threads = startPainterThreads()!;
    try {
      const prov = rolloutSpec(run.provisional[0], undefined);
      const final = rolloutSpec(run.final, undefined);
      const first = threads.plan({ spec: prov, holds: true, images: true });
      const again = threads.plan({ spec: final, holds: true, images: true });
      expect(again).toBe(first);
      const planned = await first;
      expect(planned.runs.reduce((n, r) => n + r.length, 0)).toBe(videoFrames(final));
      // Another stamp, or other options, is planned afresh.
      const unverified = rolloutSpec({ ...run.final, episode: { ...run.final.episode, verified: false } }, undefined);
      const other = threads.plan({ spec: unverified, holds: true, images: true });
      expect(other).not.toBe(first);
      const noHolds = threads.plan({ spec: unverified, holds: false, images: true });
      expect(noHolds).not.toBe(other);
      expect((await noHolds).runs).toHaveLength(videoFrames(final));
      expect((await other).runs).not.toHaveLength(videoFrames(final));
    } finally {
      await threads.close();
    }
  });
});

describe("the painter's thread, started before the program loads", () => {
  it("only for a native render", () => {
    expect(paintsNatively(["render", "ep.jsonl", "-o", "a.mp4"])).toBe(true);
    expect(paintsNatively(["render", "ep.jsonl", "--engine", "native"])).toBe(true);
    expect(paintsNatively(["render", "ep.jsonl", "--engine=native"])).toBe(true);
    expect(paintsNatively(["render", "ep.jsonl", "--engine", "remotion"])).toBe(false);
    expect(paintsNatively(["render", "ep.jsonl", "--engine=remotion"])).toBe(false);
    expect(paintsNatively(["render", "--help"])).toBe(false);
    expect(paintsNatively(["verify", "ep.jsonl"])).toBe(false);
    expect(paintsNatively([])).toBe(false);
  });

  it("never keeps a process alive that does not claim it", () => {
    // It loads for ~0.25 s; the process, done at once, must not wait for it (nor, unref'd, for ever).
    const script = join(tmp, "early.mjs");
    writeFileSync(
      script,
      `const m = await import(${JSON.stringify(dist("src/film/native/painter-worker.js"))});\nm.startPainterWorkerEarly();\nconsole.log("started");\n`,
    );
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 20_000 });
    expect(r.stdout.trim()).toBe("started");
    expect(r.status).toBe(0);
    expect(performance.now() - t0).toBeLessThan(15_000);
  });

  it("a render that stops at its arguments exits at once, with its message", () => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, "dist", "src", "cli.js"), "render", join(tmp, "missing.jsonl"), "--episode", "1", "-o", join(tmp, "x.mp4")],
      {
        encoding: "utf8",
        timeout: 20_000,
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("missing.jsonl");
  });
});
