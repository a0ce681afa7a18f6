/**
 * Interruptions on real processes: SIGINT or SIGTERM mid-run exits promptly
 * with a clear message, leaves no temp files and any previous output
 * untouched, and a rerun completes.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, MIXED, TRIESTE, runCli } from "../helpers.ts";

let dir: string;
let bigRun: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "georeplay-int-"));
  // A run long enough to interrupt on any machine: the mixed episodes 40 times over, with
  // distinct ids and every copy's cameras turned by a further degree. Repeated views are rendered
  // once, so identical copies would cost almost nothing and a fast machine would finish before
  // the signal (CI once did: exit 1, the fixture's drift). Turned views mismatch, which is fine:
  // they are rendered all the same, and an interrupted run exits 130 whatever it found.
  const eps = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const out: string[] = [];
  for (let k = 0; k < 40; k++)
    for (const l of eps) {
      const e = JSON.parse(l);
      e.episode_id = `${e.episode_id.slice(0, 8)}${k.toString(16).padStart(4, "0")}`;
      for (const t of e.turns ?? []) if (t.camera_after) t.camera_after.heading_deg = (t.camera_after.heading_deg + k) % 360;
      out.push(JSON.stringify(e));
    }
  bigRun = join(dir, "big.jsonl");
  writeFileSync(bigRun, out.join("\n") + "\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Starts the CLI and sends `signal` once `ready()` says the work is under way (polled every
 * 50 ms), or after `afterMs` when there is nothing to watch; resolves with the exit code,
 * stderr and how long the exit took after the signal.
 */
function interrupt(
  args: string[],
  signal: NodeJS.Signals,
  afterMs: number,
  ready: () => boolean = () => false,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stderr: string; exitMs: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.resume();
    let sentAt = 0;
    const send = () => {
      if (sentAt) return;
      sentAt = performance.now();
      child.kill(signal);
    };
    const timer = setTimeout(send, afterMs);
    const poll = setInterval(() => ready() && send(), 50);
    child.on("exit", (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, stderr, exitMs: sentAt ? performance.now() - sentAt : -1 });
    });
  });
}

const countJpegs = (d: string) => (existsSync(d) ? readdirSync(d).filter((f) => f.endsWith(".jpg")).length : 0);

const leftovers = (d: string) => readdirSync(d).filter((f) => f.includes(".tmp-"));

describe("interrupting real processes", () => {
  it("verify: SIGINT mid-run exits 130 promptly with a message; a rerun completes", async () => {
    const args = ["verify", bigRun, "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos")];
    const r = await interrupt(args, "SIGINT", 2500);
    expect(r.exitMs).toBeGreaterThan(0); // it was still running when interrupted
    expect(r.code).toBe(130);
    expect(r.exitMs).toBeLessThan(5000); // a hang guard, not a speed goal: the whole run takes far longer
    expect(r.stderr).toContain("interrupted by SIGINT");
    const again = runCli([...args, "--limit", "20"]);
    expect(again.stdout).toContain("20 episodes");
  });

  it("verify: SIGTERM exits 143", async () => {
    const r = await interrupt(["verify", bigRun, "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos")], "SIGTERM", 2000);
    expect(r.code).toBe(143);
    expect(r.stderr).toContain("interrupted by SIGTERM");
  });

  it("page: SIGINT leaves the previous page untouched and no temp file; a rerun completes", async () => {
    const out = join(dir, "run.html");
    writeFileSync(out, "previous page");
    const args = ["page", bigRun, "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "-o", out];
    const r = await interrupt(args, "SIGINT", 3000);
    expect(r.exitMs).toBeGreaterThan(0);
    expect(r.code).toBe(130);
    expect(r.exitMs).toBeLessThan(5000); // a hang guard, not a speed goal: the whole run takes far longer
    expect(readFileSync(out, "utf8")).toBe("previous page");
    expect(leftovers(dir)).toEqual([]);
    const again = runCli(["page", join(MIXED, "episodes.jsonl"), "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "-o", out]);
    expect(again.code, again.stderr).toBe(1); // the mixed run reads completely and has its two drifted views
    expect(readFileSync(out, "utf8")).toContain("<!doctype html>");
  });

  it("frames: SIGTERM leaves no timeline.json and no temp files; a rerun reuses frames and completes", async () => {
    const out = join(dir, "frames-out");
    // 60 fps on one thread: long enough that the signal lands mid-run, once some frames exist.
    const args = [
      "frames",
      join(TRIESTE, "episodes.jsonl"),
      "--episode",
      "#1",
      "--tasks",
      join(TRIESTE, "tasks.jsonl"),
      "--panos",
      join(TRIESTE, "panos"),
      "--out",
      out,
      "--fps",
      "60",
      "--jobs",
      "1",
    ];
    // Past 100 frame files the manifest (saved every 48 renders) already lists some of them.
    const r = await interrupt(args, "SIGTERM", 60_000, () => countJpegs(join(out, "frames")) >= 100);
    expect(r.exitMs).toBeGreaterThan(0);
    expect(r.code).toBe(143);
    expect(existsSync(join(out, "timeline.json"))).toBe(false);
    expect(existsSync(join(out, "frames"))).toBe(true);
    expect(leftovers(join(out, "frames"))).toEqual([]);
    const again = runCli([...args, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    const stats = JSON.parse(again.stdout);
    // The rerun reuses what the interrupted run finished and renders only the rest.
    expect(stats.frame_files.reused).toBeGreaterThanOrEqual(48);
    expect(stats.frame_files.reused + stats.frame_files.rendered).toBe(stats.frame_files.total);
    expect(stats.frame_files.rendered).toBeGreaterThan(0);
    expect(statSync(join(out, "timeline.json")).size).toBeGreaterThan(0);
  });

  it("render: SIGINT leaves the previous MP4 untouched and no temp files", async () => {
    const out = join(dir, "rollout.mp4");
    writeFileSync(out, "previous video");
    // Its own temp dir, so everything it leaves there is seen (the render session's grr-* folder,
    // Remotion's react-motion-render* folders, Chromium's profile, georeplay's frames).
    const childTmp = mkdtempSync("/tmp/gri-");
    const args = [
      "render",
      join(TRIESTE, "episodes.jsonl"),
      "--episode",
      "#1",
      "--tasks",
      join(TRIESTE, "tasks.jsonl"),
      "--panos",
      join(TRIESTE, "panos"),
      "-o",
      out,
    ];
    // The native engine renders this 29 s episode (1280x720, 30 fps) in about 20 s: 5 s lands mid-render.
    const r = await interrupt(args, "SIGINT", 5000, () => false, { ...process.env, TMPDIR: childTmp });
    expect(r.exitMs).toBeGreaterThan(0);
    expect(r.code).toBe(130);
    expect(r.exitMs).toBeLessThan(5000);
    expect(readFileSync(out, "utf8")).toBe("previous video");
    expect(leftovers(dir)).toEqual([]);
    await new Promise((res) => setTimeout(res, 1500)); // Chromium's children may take a moment to go
    const left = readdirSync(childTmp);
    rmSync(childTmp, { recursive: true, force: true });
    expect(left).toEqual([]);
  });
});
