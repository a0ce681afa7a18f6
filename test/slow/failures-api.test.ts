/**
 * Errors in flight through the built API, each in its own Node process run
 * with --unhandled-rejections=strict (any rejection nobody handled would end
 * it with a stack trace): a consumer that throws, a worker thread killed
 * mid-run, a panorama removed while frames are being rendered. The call
 * rejects with that error, a GeoreplayError naming where, never "the worker
 * pool was closed".
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIXED, ROOT } from "../helpers.ts";
import { makeFailureBoard, LATE_EPISODE, LATE_PANO, type FailureBoard } from "../failure-fixture.ts";

let dir: string;
let fx: FailureBoard;
let scripts = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "georeplay-fail-api-"));
  fx = makeFailureBoard(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const API = join(ROOT, "dist", "src", "index.js");
const POOL = join(ROOT, "dist", "envs", "geoguesser", "replay", "verify", "pool.js");

/** Runs `body` (an async function body with `api`, `createPool` and `fx` in scope); it returns what the test checks. */
function inProcess(body: string): { code: number | null; out: any; stderr: string } {
  const script = `
    const api = await import(${JSON.stringify(API)});
    const { createPool } = await import(${JSON.stringify(POOL)});
    const fx = ${JSON.stringify(fx)};
    const caught = (e) => ({ name: e?.name, kind: e?.kind, message: e?.message, problems: e?.problems });
    const out = await (async () => { ${body} })();
    process.stdout.write(JSON.stringify(out));`;
  // A file, not --eval: worker threads inherit the process's execArgv.
  const file = join(dir, `script-${++scripts}.mjs`);
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, ["--unhandled-rejections=strict", file], { encoding: "utf8", timeout: 300_000 });
  return { code: r.status, out: r.stdout ? JSON.parse(r.stdout) : null, stderr: r.stderr };
}

describe("errors in flight end the call with that error", () => {
  it("a consumer (onEpisode) that throws: the call rejects with it, named by file and line", () => {
    const r = inProcess(`
      let seen = 0;
      try {
        await api.verify({ episodes: [fx.board], tasks: fx.tasks, panos: fx.panos, jobs: 2,
          onEpisode: (v) => { seen++; if (v.episode.episode_id === "b62f83ac792b") throw new Error("the consumer's disk is full"); } });
        return { resolved: true };
      } catch (e) { return { seen, ...caught(e) }; }`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.out).toMatchObject({ name: "GeoreplayError", kind: "input" });
    expect(r.out.seen).toBeGreaterThanOrEqual(3); // the folder's own order decides which arm comes first
    expect(r.out.message).toMatch(/base\/episodes\.jsonl:3: episode b62f83ac792b: the consumer's disk is full$/);
    expect(r.out.problems).toEqual([{ file: fx.episodes, line: 3, field: null, message: r.out.message }]);
  });

  it("a worker thread that dies mid-run: the call rejects naming it, the pool shuts down", () => {
    const r = inProcess(`
      const pool = createPool({ jobs: 2, panos: fx.panos });
      // The worker dies right after it is handed its first task: a task is surely in flight, however
      // loaded the machine (killing it at the first progress raced the run's end under load).
      const worker = pool.workers[1];
      const post = worker.postMessage.bind(worker);
      let killed = false;
      worker.postMessage = (...args) => {
        post(...args);
        if (!killed) { killed = true; void worker.terminate(); }
      };
      try {
        await api.verify({ episodes: [fx.board], tasks: fx.tasks, panos: fx.panos, pool });
        return { resolved: true };
      } catch (e) { return caught(e); }
      finally { await pool.close(); }`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.out).toMatchObject({ name: "GeoreplayError", kind: "input" });
    // The exit code is the runtime's: terminate() gives 1 to a running thread, 0 to one not yet started.
    expect(r.out.message).toMatch(/^worker thread 2 of 2 stopped \(exit code \d+\) while \d+ task\(s\) were in flight$/);
  });

  it("a panorama removed while frames are rendered: the call rejects naming the frame and the file, no timeline", () => {
    const out = join(dir, "frames-removed");
    const r = inProcess(`
      const { rmSync } = await import("node:fs");
      let removed = false;
      try {
        await api.generateFrames({ episodes: [fx.episodes], episode: ${JSON.stringify(LATE_EPISODE)}, tasks: fx.tasks, panos: fx.panos,
          out: ${JSON.stringify(out)}, jobs: 2,
          // The first progress comes once the views are verified and the keyframes written.
          onProgress: () => { if (!removed) { removed = true; rmSync(fx.panos + "/${LATE_PANO}.jpg"); } } });
        return { resolved: true };
      } catch (e) { return { removed, ...caught(e) }; }`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.out).toMatchObject({ removed: true, name: "GeoreplayError", kind: "input" });
    // Found while planning the in-between frames (the file is hashed for the manifest) or, if later, by the worker rendering one.
    expect(r.out.message).toMatch(
      /episodes\.jsonl:8: episode 4b86cb1e4dca: (frame \d+\.jpg: )?panorama .*5277912792378049\.jpg(: no such file| is missing or unreadable)$/,
    );
    expect(existsSync(join(out, "timeline.json"))).toBe(false);
  });

  // The painter's threads start before the views are verified (their loading overlaps it): a render
  // that stops there must stop them too, or they would keep the process alive. Each script's process
  // has to exit by itself for spawnSync to return its code.
  it("a drifted episode: renderMp4 rejects with the drift and the painter's threads, started meanwhile, are stopped", () => {
    const out = join(dir, "drifted.mp4");
    const r = inProcess(`
      try {
        await api.renderMp4({ episodes: [${JSON.stringify(join(MIXED, "episodes.jsonl"))}], episode: "0ec192c0f90d",
          tasks: ${JSON.stringify(join(MIXED, "tasks.jsonl"))}, panos: ${JSON.stringify(join(MIXED, "panos"))}, out: ${JSON.stringify(out)} });
        return { resolved: true };
      } catch (e) { return caught(e); }`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.out).toMatchObject({ name: "GeoreplayError", kind: "drift" });
    expect(existsSync(out)).toBe(false);
  });

  it("a render cancelled while its views are verified rejects, and its painter's threads are stopped", () => {
    const out = join(dir, "cancelled.mp4");
    const r = inProcess(`
      const stop = new AbortController();
      try {
        await api.renderMp4({ episodes: [${JSON.stringify(join(MIXED, "episodes.jsonl"))}], episode: ${JSON.stringify(LATE_EPISODE)},
          tasks: ${JSON.stringify(join(MIXED, "tasks.jsonl"))}, panos: ${JSON.stringify(join(MIXED, "panos"))}, out: ${JSON.stringify(out)}, signal: stop.signal,
          onProgress: (stage) => { if (stage === "frames") stop.abort(new Error("cancelled by the caller")); } });
        return { resolved: true };
      } catch (e) { return { aborted: stop.signal.aborted, ...caught(e) }; }`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.out).toMatchObject({ aborted: true, message: "cancelled by the caller" });
    expect(existsSync(out)).toBe(false);
  });
});
