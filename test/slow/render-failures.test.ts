/**
 * Failures in the middle of a render, on real processes and real files: a
 * panorama missing or truncated where the episode needs it, a frame file that
 * disappears or turns out corrupt while the painter works (the painter's
 * worker fails), and ffmpeg killed mid-encode. Each ends with the problem
 * named, exit 2 (or a rejected GeoreplayError), no stack trace, no output
 * file, no temp file beside it and no temp folder left behind.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, ROOT, runCli } from "../helpers.ts";
import { makeFailureBoard, truncateJpeg, LATE_PANO, LATE_EPISODE, type FailureBoard } from "../failure-fixture.ts";

let dir: string;
let fx: FailureBoard;
const panos: Record<"truncated" | "missing", string> = { truncated: "", missing: "" };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "georeplay-render-fail-"));
  fx = makeFailureBoard(dir);
  for (const k of Object.keys(panos) as (keyof typeof panos)[]) {
    panos[k] = join(dir, `panos-${k}`);
    cpSync(fx.panos, panos[k], { recursive: true });
  }
  truncateJpeg(join(panos.truncated, `${LATE_PANO}.jpg`));
  rmSync(join(panos.missing, `${LATE_PANO}.jpg`));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A private temp dir per run, so "nothing left behind" is checkable. */
function privateTmp(name: string): string {
  const t = join(dir, `tmp-${name}`);
  mkdirSync(t, { recursive: true });
  return t;
}

function expectClean(r: { code: number | null; stderr: string }, message: RegExp, out: string, tmp: string) {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack frame
  expect(r.stderr).not.toMatch(/internal error|pool was closed|Unhandled|node:internal/);
  expect(existsSync(out)).toBe(false);
  if (existsSync(join(out, ".."))) expect(readdirSync(join(out, "..")).filter((f) => f.includes(".tmp-"))).toEqual([]);
  expect(readdirSync(tmp)).toEqual([]);
}

const renderArgs = (p: string, out: string, extra: string[] = []) => [
  "render",
  fx.episodes,
  "--episode",
  LATE_EPISODE,
  ...extra,
  "--tasks",
  fx.tasks,
  "--panos",
  p,
  "-o",
  out,
  "--size",
  "640x360",
  "--fps",
  "10",
  "--no-progress",
];

describe.each([
  ["truncated", /episodes\.jsonl:\d+: episode 4b86cb1e4dca.*5277912792378049\.jpg: truncated or corrupt JPEG/],
  ["missing", /episodes\.jsonl:\d+: episode 4b86cb1e4dca.*5277912792378049\.jpg: no such file/],
] as const)("render with a panorama %s", (fault, message) => {
  it("exit 2 naming the episode's line and the file, no video, nothing left behind", () => {
    const out = join(dir, `out-${fault}`, "v.mp4");
    const tmp = privateTmp(fault);
    expectClean(runCli(renderArgs(panos[fault], out), { env: { TMPDIR: tmp } }), message, out, tmp);
  });

  it("two-up: the side that needs it is named", () => {
    const out = join(dir, `out-${fault}-2up`, "v.mp4");
    const tmp = privateTmp(`${fault}-2up`);
    const r = runCli(renderArgs(panos[fault], out, ["--versus", "b110d889e34e"]), { env: { TMPDIR: tmp } });
    expectClean(r, /--episode \(A\): /, out, tmp);
    expect(r.stderr).toMatch(message);
  });
});

describe("faults while the painter and the encoder work (the compiled engine, its worker thread)", () => {
  /** Runs prepare + encode in a child process with one fault injected between them; prints the outcome as JSON. */
  function encodeWithFault(fault: "delete-frame" | "corrupt-frame"): {
    outcome: { ok: boolean; kind?: string; message?: string; out: boolean };
    stderr: string;
    tmp: string;
  } {
    const tmp = privateTmp(`api-${fault}`);
    const out = join(dir, `api-${fault}`, "v.mp4");
    mkdirSync(join(out, ".."), { recursive: true });
    const script = `
      import { readdirSync, rmSync, truncateSync, statSync, existsSync } from "node:fs";
      import { join } from "node:path";
      process.on("unhandledRejection", (e) => { console.error("UNHANDLED", e); process.exit(99); });
      const { prepareEpisode } = await import(${JSON.stringify(join(ROOT, "dist/envs/geoguesser/src/film/render-episode.js"))});
      const { encodeWith } = await import(${JSON.stringify(join(ROOT, "dist/src/film/engine.js"))});
      const p = await prepareEpisode({ episodes: [${JSON.stringify(fx.episodes)}], episode: ${JSON.stringify(LATE_EPISODE)}, tasks: ${JSON.stringify(fx.tasks)}, panos: ${JSON.stringify(fx.panos)}, size: { width: 640, height: 360 }, fps: 10 });
      const frames = join(p.publicDir, "e", "frames");
      // The files written: keyframes (the in-between views are the painter's own, p.deferred).
      const files = readdirSync(frames).filter((f) => f.endsWith(".jpg")).sort();
      const victim = join(frames, files[Math.floor(files.length * 0.7)]);
      if (${JSON.stringify(fault)} === "delete-frame") rmSync(victim); else truncateSync(victim, Math.floor(statSync(victim).size / 3));
      let outcome;
      try {
        await encodeWith(p.spec, { publicDir: p.publicDir, deferred: p.deferred, out: ${JSON.stringify(out)} });
        outcome = { ok: true };
      } catch (e) {
        outcome = { ok: false, kind: e.kind, name: e.name, message: e.message };
      } finally {
        p.dispose();
      }
      outcome.out = existsSync(${JSON.stringify(out)});
      console.log(JSON.stringify(outcome));
    `;
    // A script file, not -e: worker threads inherit the parent's execArgv.
    const file = join(dir, `api-${fault}.mjs`);
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", env: { ...process.env, TMPDIR: tmp }, timeout: 300_000 });
    expect(r.status, r.stderr).toBe(0);
    return { outcome: JSON.parse(r.stdout.trim().split("\n").pop()!), stderr: r.stderr, tmp };
  }

  it("a frame file gone while the painter works: rejects naming it, no video, no temp file", () => {
    const { outcome, tmp } = encodeWithFault("delete-frame");
    expect(outcome).toMatchObject({ ok: false, kind: "input", out: false });
    expect(outcome.message).toMatch(/frames\/\d{6}\.jpg: cannot read a frame file/);
    expect(readdirSync(join(dir, "api-delete-frame"))).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("a frame file found corrupt mid-run (the painter's worker fails): rejects naming it, no video, no temp file", () => {
    const { outcome, tmp } = encodeWithFault("corrupt-frame");
    expect(outcome).toMatchObject({ ok: false, kind: "input", out: false });
    expect(outcome.message).toMatch(/frames\/\d{6}\.jpg: not a decodable image/);
    expect(readdirSync(join(dir, "api-corrupt-frame"))).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("ffmpeg killed mid-encode: exit 2 saying so, no video, nothing left behind", async () => {
    const out = join(dir, "out-killed", "v.mp4");
    const tmp = privateTmp("killed");
    const child = spawn(process.execPath, [CLI, ...renderArgs(fx.panos, out).slice(0, -5), "--size", "1280x720", "--fps", "30", "--no-progress"], {
      env: { ...process.env, TMPDIR: tmp },
    });
    let stderr = "";
    child.stderr.on("data", (b) => (stderr += b));
    // Wait for the encoder to start, then kill it.
    let killed = false;
    for (let i = 0; i < 600 && !killed; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const pids = spawnSync("pgrep", ["-P", String(child.pid), "ffmpeg"], { encoding: "utf8" }).stdout.trim();
      if (pids) {
        await new Promise((r) => setTimeout(r, 500));
        spawnSync("kill", ["-9", ...pids.split("\n")]);
        killed = true;
      }
    }
    expect(killed).toBe(true);
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expectClean({ code, stderr }, /ffmpeg \(.*\) was killed \(SIGKILL\)/, out, tmp);
  });
});
