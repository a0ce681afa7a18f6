/**
 * Ctrl-C / SIGTERM during `georeplay render` (native engine, the built CLI:
 * frames painted in a worker, piped into ffmpeg): exit 130 / 143, nothing at
 * the output path, no temp MP4 (.tmp-*) beside it, no georeplay-render-*
 * work folder (frame files) in the temp dir, and no ffmpeg left running.
 */
import { afterAll, describe, expect, it } from "vitest";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CLI, TRIESTE } from "../helpers.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The video encode has started: the encoder's temp MP4 is beside the output. */
const encoding = (outDir: string) => readdirSync(outDir).some((n) => n.includes(".tmp-") && n.endsWith(".mp4"));

/** ffmpeg processes whose arguments mention `dir` (the ones this render started write there). */
function ffmpegsIn(dir: string): string[] {
  return execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" })
    .split("\n")
    .filter((l) => /ffmpeg/.test(l) && l.includes(dir));
}

/** Starts a render, waits until ffmpeg is encoding, lets it run a little, then sends the signal. */
function interrupted(
  signal: "SIGINT" | "SIGTERM",
): Promise<{ code: number | null; outDir: string; childTmp: string; sawEncode: boolean; sawFfmpeg: boolean; stderr: string }> {
  const outDir = mkdtempSync("/tmp/gro-");
  const childTmp = mkdtempSync("/tmp/grt-");
  dirs.push(outDir, childTmp);
  // 30 fps at 640x360: 871 frames, long enough to interrupt mid-encode on any machine.
  const args = [
    CLI,
    "render",
    join(TRIESTE, "episodes.jsonl"),
    "--episode",
    "#1",
    "--tasks",
    join(TRIESTE, "tasks.jsonl"),
    "--panos",
    join(TRIESTE, "panos"),
    "-o",
    join(outDir, "x.mp4"),
    "--size",
    "640x360",
    "--jobs",
    "1",
  ];
  const child = spawn(process.execPath, args, { env: { ...process.env, TMPDIR: childTmp }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  let sawEncode = false;
  let sawFfmpeg = false;
  const poll = setInterval(() => {
    if (!sawEncode && encoding(outDir)) {
      sawEncode = true;
      sawFfmpeg = ffmpegsIn(outDir).length > 0;
      // Let some frames reach the file first.
      setTimeout(() => child.kill(signal), 1000);
    }
  }, 100);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      clearInterval(poll);
      resolve({ code, outDir, childTmp, sawEncode, sawFfmpeg, stderr });
    });
  });
}

describe("georeplay render, interrupted", () => {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal} mid-encode exits ${code} and leaves no partial MP4, no temp files or folders, no ffmpeg`, async () => {
      const r = await interrupted(signal);
      expect(r.sawEncode, "the encode had started").toBe(true);
      expect(r.sawFfmpeg, "ffmpeg was running").toBe(true);
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(r.outDir)).toEqual([]);
      expect(readdirSync(r.childTmp)).toEqual([]);
      // The encoder kills ffmpeg before the process exits.
      expect(ffmpegsIn(r.outDir)).toEqual([]);
    });
  }
});
