/**
 * Ctrl-C / SIGTERM during `georeplay render`: exit 130 / 143, nothing at the
 * output path, no temp MP4 beside it, and no bundle, Chromium profile or
 * frame files left in the temp dir. Runs the built CLI with real Chromium.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CLI, TRIESTE } from "../helpers.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * The video render has started: the encoder's temp MP4 beside the output (the hold-aware
 * renderer), or Remotion's working folder for a video (renderMedia).
 */
function renderingStarted(childTmp: string, outDir: string): boolean {
  if (readdirSync(outDir).some((n) => n.includes(".tmp-") && n.endsWith(".mp4"))) return true;
  return readdirSync(childTmp).some((n) => n.startsWith("react-motion-render"));
}

/** Starts a render, waits until Remotion is rendering video frames, then sends the signal. */
function interrupted(signal: "SIGINT" | "SIGTERM"): Promise<{ code: number | null; outDir: string; childTmp: string; sawTemp: boolean }> {
  // Short paths: Chromium's socket under TMPDIR must stay within 107 bytes.
  const outDir = mkdtempSync("/tmp/gro-");
  const childTmp = mkdtempSync("/tmp/grt-");
  dirs.push(outDir, childTmp);
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
  let sawTemp = false; // the video render had started
  const poll = setInterval(() => {
    if (renderingStarted(childTmp, outDir)) {
      sawTemp = true;
      clearInterval(poll);
      // Let Remotion get some frames into its file first.
      setTimeout(() => child.kill(signal), 1500);
    }
  }, 100);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      clearInterval(poll);
      resolve({ code, outDir, childTmp, sawTemp });
    });
  });
}

describe("georeplay render, interrupted", () => {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal} mid-render leaves no partial MP4 and no temp folders`, async () => {
      const r = await interrupted(signal);
      expect(r.sawTemp, "the video render had started").toBe(true);
      expect(r.code).toBe(code);
      // Cleanup runs before exit; Chromium's children may take a moment to go.
      await new Promise((res) => setTimeout(res, 1500));
      expect(readdirSync(r.outDir)).toEqual([]);
      expect(readdirSync(r.childTmp)).toEqual([]);
    });
  }
});
