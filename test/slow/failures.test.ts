/**
 * Failures in the middle of a run, on real processes of the built CLI and
 * real files: a panorama kept only at full resolution, one missing or
 * truncated where a later episode needs it, a consumer (the board page's
 * panorama embedder) that meets a broken file. Each run ends with the problem
 * named by file and line, exit 2, no stack trace and no output file.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, MIXED } from "../helpers.ts";
import { makeFailureBoard, truncateJpeg, ORIG_ONLY, LATE_PANO, LATE_EPISODE, type FailureBoard } from "../failure-fixture.ts";

let dir: string;
let fx: FailureBoard;
/** Panorama folders, one fault each. */
const panos: Record<"truncated" | "missing" | "badSmall", string> = { truncated: "", missing: "", badSmall: "" };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "georeplay-fail-"));
  fx = makeFailureBoard(dir);
  for (const k of Object.keys(panos) as (keyof typeof panos)[]) {
    panos[k] = join(dir, `panos-${k}`);
    cpSync(fx.panos, panos[k], { recursive: true });
  }
  truncateJpeg(join(panos.truncated, `${LATE_PANO}.jpg`));
  rmSync(join(panos.missing, `${LATE_PANO}.jpg`));
  // A broken `.jpg` beside a good `.orig.jpg`: verify never reads it (every view is zoomed in), the board page's embedder does.
  cpSync(join(MIXED, "panos", `${ORIG_ONLY}.jpg`), join(panos.badSmall, `${ORIG_ONLY}.jpg`));
  truncateJpeg(join(panos.badSmall, `${ORIG_ONLY}.jpg`));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], p: string) => runCli([...args, "--tasks", fx.tasks, "--panos", p, "--no-progress", "--jobs", "2"]);

/** What every failed run must look like: exit 2, the message, no stack trace. */
function expectFailure(r: { code: number | null; stderr: string }, message: RegExp) {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack frame
  expect(r.stderr).not.toMatch(/internal error|pool was closed|Unhandled|node:internal/);
}

describe("a panorama kept only as <id>.orig.jpg", () => {
  it("verify, page and page --baseline all succeed, and the board page embeds the original", () => {
    expect(run(["verify", fx.board], fx.panos).code).toBe(0);
    const plain = join(dir, "orig-plain.html");
    expect(run(["page", fx.board, "-o", plain], fx.panos).code).toBe(0);
    const board = join(dir, "orig-board.html");
    const r = run(["page", fx.board, "--baseline", "base", "-o", board, "--json"], fx.panos);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ written: true, problems: [], exit_code: 0 });
    expect(existsSync(board)).toBe(true);
    expect(r.stderr).toBe("");
  });
});

describe.each([
  ["truncated", /episodes\.jsonl:\d+: episode 4b86cb1e4dca.*5277912792378049\.jpg: truncated or corrupt JPEG/],
  ["missing", /episodes\.jsonl:\d+: episode 4b86cb1e4dca.*5277912792378049\.jpg: no such file/],
] as const)("a panorama %s where a late episode needs it", (fault, message) => {
  it("verify: exit 2, the problem by file and line", () => {
    expectFailure(run(["verify", fx.board], panos[fault]), message);
    const r = run(["verify", fx.board, "--json"], panos[fault]);
    expect(r.code).toBe(2);
    const rep = JSON.parse(r.stdout);
    // Files are read in the folder's own order (geoeval's rule): find the base arm's problem.
    const base = rep.errors.find((e: { file: string }) => e.file === fx.episodes);
    expect(base.message).toMatch(message);
    expect(base).toMatchObject({ file: fx.episodes, line: 8, episode_id: LATE_EPISODE });
  });

  it.each([[[]], [["--baseline", "base"]]])("page %j: exit 2, no page; --partial writes one listing the problem", (extra) => {
    const out = join(dir, `${fault}-${extra.length}.html`);
    const r = run(["page", fx.board, ...extra, "-o", out], panos[fault]);
    expectFailure(r, message);
    expect(r.stderr).toMatch(/no page written/);
    expect(existsSync(out)).toBe(false);
    const p = run(["page", fx.board, ...extra, "-o", out, "--partial"], panos[fault]);
    expect(p.code, p.stderr).toBe(2);
    expect(readFileSync(out, "utf8")).toContain(`${LATE_PANO}.jpg`);
  });

  it("frames: exit 2 before any file is written", () => {
    const out = join(dir, `frames-${fault}`);
    const r = run(["frames", fx.episodes, "--episode", LATE_EPISODE, "--out", out], panos[fault]);
    expectFailure(r, message);
    expect(existsSync(join(out, "timeline.json"))).toBe(false);
  });
});

describe("the board page's panorama embedder meets a broken file (a consumer that throws)", () => {
  it("names each episode that needed it, exit 2, no page; verify and the plain page never read it", () => {
    expect(run(["verify", fx.board], panos.badSmall).code).toBe(0);
    const out = join(dir, "bad-small.html");
    const r = run(["page", fx.board, "--baseline", "base", "-o", out, "--json"], panos.badSmall);
    expectFailure(
      r,
      /base\/episodes\.jsonl:3: episode b62f83ac792b: turns 2, 3: cannot embed the panorama: panorama .*1051700993720114\.jpg: truncated or corrupt JPEG/,
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ written: false, exit_code: 2 });
    expect(existsSync(out)).toBe(false);
  });

  it("with every panorama gone (neither file), says so", () => {
    const none = join(dir, "panos-none");
    cpSync(fx.panos, none, { recursive: true });
    rmSync(join(none, `${ORIG_ONLY}.orig.jpg`));
    writeFileSync(join(none, "unrelated.txt"), "");
    const r = run(["page", fx.board, "--baseline", "base", "-o", join(dir, "none.html")], none);
    // The verifier reports the view it cannot render; the embedder adds nothing for a view that was never rendered.
    expectFailure(r, /1051700993720114\.jpg: no such file/);
    expect(r.stderr).not.toMatch(/cannot embed/);
  });
});
