/**
 * Crops videos in batches: `georeplay render -o DIR/` on slices of the bundled crops sample, as
 * GeoGuesser's batches behave (the core batch runner): real MP4s checked with ffprobe, a manifest
 * a rerun resumes from, `--json` lines, two shards that together make each video once (the same
 * bytes as the whole batch's), posters that are the score card as a real PNG, a drifted episode
 * failing alone (exit 1), and bad options refused in one line before any work. Small and quick:
 * 480x270 at 10 fps, x264 ultrafast.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { FIXTURES, runCli } from "../helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { BatchManifestSchema } from "../../replay/batch/manifest-schema.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const SMALL = ["--size", "480x270", "--fps", "10", "--preset", "ultrafast"];
const tmp = mkdtempSync(join(tmpdir(), "georeplay-crops-batch-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sha = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");
const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
const idOf = (line: string) => (JSON.parse(line) as { episode_id: string }).episode_id;
const json = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A run folder holding `picked` lines of a sample run (the dataset stays the sample's, by --dataset). */
function slice(name: string, picked: string[]): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "episodes.jsonl"), picked.join("\n") + "\n");
  return dir;
}

const EVAL = lines(join(SAMPLE, "eval", "episodes.jsonl"));
/** Three episodes: a short one, one that adjusts and removes boxes, a long one. */
const RUN = slice("eval3", [EVAL[0], EVAL[11], EVAL[22]]);
const IDS = [EVAL[0], EVAL[11], EVAL[22]].map(idOf);

describe("render -o DIR/ on a crops run", () => {
  const dir = join(tmp, "all");

  it("--all --poster --json: an H.264 MP4 and a score-card PNG per episode, a line each, the manifest, exit 0", async () => {
    const r = runCli(["render", RUN, "--dataset", SAMPLE, "--all", "--poster", "--json", "-o", `${dir}/`, ...SMALL]);
    expect(r.stderr).not.toMatch(/Error|at \w+ \(/);
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out.map((l) => l.type)).toEqual(["video", "video", "video", "summary"]);
    expect(out.slice(0, 3).map((l) => [l.status, l.file])).toEqual(IDS.map((id) => ["written", `${id}.mp4`]));
    expect(out[3]).toMatchObject({ type: "summary", format: "mp4", selected: 3, videos: 3, written: 3, skipped: 0, failed: 0, exit_code: 0 });
    const manifest = BatchManifestSchema.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
    expect(manifest.videos.map((v) => v.file).sort()).toEqual(IDS.map((id) => `${id}.mp4`).sort());
    for (const v of manifest.videos) {
      const p = probeVideo(join(dir, v.file));
      expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", width: 480, height: 270, fps: 10 });
      expect(p.frames).toBe(v.frames);
      expect(v.sha256).toBe(sha(join(dir, v.file)));
      expect(v.sides).toEqual([
        { episode_id: v.episode_ids[0], arm: "scripted-vlm", pass: expect.any(Number), source: "replay", verified: true, views: expect.any(Object) },
      ]);
      expect(v.sides[0].views!.mismatch).toBe(0);
      expect(v.inputs.files.map((f) => f.role)).toEqual(["record", "tasks", "ground_truth", "image"]);
      expect(v.options).toMatchObject({ format: "mp4", width: 480, height: 270, fps: 10, backend: "native", poster_frame: null });
      // The poster: a real PNG of the last frame (the score card), its bytes as recorded.
      expect(v.poster).toMatchObject({ file: join(dir, v.file.replace(/\.mp4$/, ".png")), frame: v.frames - 1 });
      const png = readFileSync(v.poster!.file);
      expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
      expect(await sharp(png).metadata()).toMatchObject({ format: "png", width: 480, height: 270 });
      expect(sha(v.poster!.file)).toBe(v.poster!.sha256);
    }
    // What --dry-run plans is what was rendered.
    const plan = json(runCli(["render", RUN, "--dataset", SAMPLE, "--all", "--dry-run", "--json", "-o", `${dir}/`, "--fps", "10"]).stdout);
    expect(plan.slice(0, 3).map((l) => l.frames)).toEqual(IDS.map((id) => manifest.videos.find((v) => v.file === `${id}.mp4`)!.frames));
  }, 300_000);

  it("a rerun skips every complete video; the same command says so in one line each", () => {
    const r = runCli(["render", RUN, "--dataset", SAMPLE, "--all", "--poster", "-o", `${dir}/`, ...SMALL]);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^skipped \(complete in manifest\) .*\.mp4 · \d+ frames/gm)).toHaveLength(3);
    expect(r.stdout).toMatch(/^0 written · 3 skipped · 0 failed \(0 drift, 0 input, 0 render\) of 3 · /m);
  }, 120_000);

  it("--shard 1/2 and 2/2 together render each video exactly once, with the whole batch's bytes", () => {
    const made: Record<string, string> = {};
    for (const s of ["1/2", "2/2"]) {
      const d = join(tmp, `shard-${s[0]}`);
      const r = runCli(["render", RUN, "--dataset", SAMPLE, "--all", "--shard", s, "--json", "-o", `${d}/`, ...SMALL]);
      expect(r.code).toBe(0);
      const summary = json(r.stdout).at(-1)!;
      expect(summary).toMatchObject({ shard: s, selected: 3, failed: 0 });
      for (const f of readdirSync(d).filter((n) => n.endsWith(".mp4"))) {
        expect(made[f], `${f} in both shards`).toBeUndefined();
        made[f] = sha(join(d, f));
      }
    }
    expect(Object.keys(made).sort()).toEqual(IDS.map((id) => `${id}.mp4`).sort());
    for (const [f, h] of Object.entries(made)) expect(h, f).toBe(sha(join(dir, f)));
  }, 300_000);

  it("--poster FILE with one video writes that still (--poster-frame 0: the opening view)", async () => {
    const d = join(tmp, "one");
    const still = join(tmp, "still.png");
    const r = runCli(["render", RUN, "--dataset", SAMPLE, "--episode", "#1", "--poster", still, "--poster-frame", "0", "-o", `${d}/`, ...SMALL]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^wrote .*${IDS[0]}\\.mp4 · \\d+ frames · .* · verified$`, "m"));
    expect(await sharp(still).metadata()).toMatchObject({ format: "png", width: 480, height: 270 });
    expect(existsSync(join(d, `${IDS[0]}.png`))).toBe(false);
    const entry = BatchManifestSchema.parse(JSON.parse(readFileSync(join(d, "manifest.json"), "utf8"))).videos[0];
    expect(entry.poster).toMatchObject({ file: still, frame: 0, sha256: sha(still) });
  }, 120_000);
});

describe("a crops batch with a drifted episode", () => {
  it("writes the others, reports the drift in its line and the manifest, exits 1", () => {
    const corrupted = JSON.parse(readFileSync(join(SAMPLE, "eval-corrupted", "corrupted.json"), "utf8")) as { episode_id: string; kind: string }[];
    const drifted = corrupted.find((c) => c.kind === "view_hash")!.episode_id;
    const all = lines(join(SAMPLE, "eval-corrupted", "episodes.jsonl"));
    const clean = all.find((l) => !corrupted.some((c) => c.episode_id === idOf(l)))!;
    const run = slice("drift", [all.find((l) => idOf(l) === drifted)!, clean]);
    const d = join(tmp, "drift");
    const r = runCli(["render", run, "--dataset", SAMPLE, "--all", "-o", `${d}/`, ...SMALL]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/at \w+ \(/);
    expect(r.stdout).toMatch(new RegExp(`^FAILED ${drifted}\\.mp4 \\(drift\\): .*episode ${drifted}: 1 turn\\(s\\) drifted from the recorded sha256`, "m"));
    expect(r.stdout).toMatch(new RegExp(`^wrote .*${idOf(clean)}\\.mp4 .* · verified$`, "m"));
    expect(r.stdout).toMatch(/^1 written · 0 skipped · 1 failed \(1 drift, 0 input, 0 render\) of 2 · /m);
    expect(existsSync(join(d, `${drifted}.mp4`))).toBe(false);
    expect(readdirSync(d).filter((n) => n.startsWith(".")).length).toBe(0);
    const manifest = BatchManifestSchema.parse(JSON.parse(readFileSync(join(d, "manifest.json"), "utf8")));
    expect(manifest.failures).toEqual([expect.objectContaining({ file: `${drifted}.mp4`, kind: "drift" })]);
  }, 300_000);
});

describe("a crops batch refuses bad options in one line, before any work (exit 2, nothing made)", () => {
  it("a bad shard, an unwritable folder, two-up selections, one poster for many videos, an unknown episode", () => {
    const blocker = join(tmp, "a-file");
    writeFileSync(blocker, "");
    const out = join(tmp, "never");
    for (const [args, msg] of [
      [["--all", "--shard", "3/2", "-o", `${out}/`], /^georeplay: --shard 3\/2: i must be between 1 and n \(got 3\/2\)$/],
      [["--all", "--shard", "half", "-o", `${out}/`], /^georeplay: --shard half: expected i\/n/],
      [["--all", "-o", `${blocker}/sub/`], /^georeplay: -o .*a-file\/sub\/: .*a-file is a file, so nothing can be written under it$/],
      [["--improved", "2", "--arm", "x", "-o", `${out}/`], /^georeplay: --improved, --arm: a crops batch renders single episodes/],
      [["--episode", "#1", "--versus", "#2", "-o", `${out}/`], /^georeplay: a crops run renders .*; --versus is not for crops runs$/],
      [["--all", "--poster", "one.png", "-o", `${out}/`], /^georeplay: --poster one\.png: one file for 3 videos; give --poster alone/],
      [["--episode", "#1", "--episode", "nope", "-o", `${out}/`], /^georeplay: --episode "nope": not found among the 3 crops episode\(s\) of the inputs$/],
      [["--all", "--poster-frame", "3", "-o", `${out}/`], /^georeplay: --poster-frame goes with --poster$/],
    ] as const) {
      const r = runCli(["render", RUN, "--dataset", SAMPLE, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.stderr.trim(), args.join(" ")).toMatch(msg);
    }
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(blocker, "sub"))).toBe(false);
  }, 120_000);
});
