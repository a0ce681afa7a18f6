/**
 * The public batch call, as a library user makes it: `planBatch` gives the selection and its
 * shards without rendering; `renderVideos` renders real MP4s (native engine) into a folder,
 * reports a drifted one in `failed` while writing the others, and a second call skips what
 * the manifest lists as complete.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIXED } from "../helpers.ts";
import { BatchManifestSchema, planBatch, renderVideos, type RenderVideosOptions } from "../../src/index.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { readFileSync } from "node:fs";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const EPISODES = [join(MIXED, "episodes.jsonl")];
// 0ec192c0f90d has a drifted view in the mixed fixture.
const WANTED = ["b110d889e34e", "0ec192c0f90d", "4b86cb1e4dca"];

describe("planBatch / renderVideos (the public API)", () => {
  it("planBatch: the selection in order, with frame counts; shards split it without overlap", async () => {
    const whole = await planBatch({ episodes: EPISODES, selection: { by: "episodes", wanted: WANTED }, fps: 6 });
    expect(whole.planned.map((v) => v.sides[0].episodeId)).toEqual(WANTED);
    expect(whole.planned.every((v) => (v.frames ?? 0) > 0)).toBe(true);
    expect(whole.mine).toEqual(whole.planned);
    const parts = await Promise.all(
      [1, 2].map((index) => planBatch({ episodes: EPISODES, selection: { by: "episodes", wanted: WANTED }, fps: 6, shard: { index, count: 2 } })),
    );
    expect(parts.flatMap((p) => p.mine.map((v) => v.stem)).sort()).toEqual(whole.planned.map((v) => v.stem).sort());
  });

  it("renderVideos: real MP4s, the drifted one reported and the others written; a rerun skips them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-api-batch-"));
    dirs.push(dir);
    const opts: RenderVideosOptions = {
      episodes: EPISODES,
      tasks: join(MIXED, "tasks.jsonl"),
      panos: join(MIXED, "panos"),
      selection: { by: "episodes", wanted: WANTED },
      dir,
      size: { width: 320, height: 180 },
      fps: 6,
      preset: "ultrafast",
      jobs: 1,
    };
    const r = await renderVideos(opts);
    expect(r.written.map((v) => v.file).sort()).toEqual(["4b86cb1e4dca.mp4", "b110d889e34e.mp4"]);
    expect(r.failed).toMatchObject([{ file: "0ec192c0f90d.mp4", kind: "drift" }]);
    for (const v of r.written) {
      const p = probeVideo(join(dir, v.file));
      expect([p.codec, p.pixFmt, p.width, p.height, p.frames]).toEqual(["h264", "yuv420p", 320, 180, v.frames]);
    }
    const m = BatchManifestSchema.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
    expect(m.videos.map((v) => v.file)).toEqual(["4b86cb1e4dca.mp4", "b110d889e34e.mp4"]);
    expect(m.videos[0].options.generator).toMatch(/^georeplay \d+\.\d+\.\d+/);
    expect(readdirSync(dir).filter((f) => f.startsWith("."))).toEqual([]);

    const again = await renderVideos(opts);
    expect(again.skipped.map((v) => v.file).sort()).toEqual(["4b86cb1e4dca.mp4", "b110d889e34e.mp4"]);
    expect(again.written).toEqual([]);
    expect(again.failed).toMatchObject([{ file: "0ec192c0f90d.mp4", kind: "drift" }]);
  }, 120_000);

  it("contradictory options are refused before any work", async () => {
    const dir = join(tmpdir(), `georeplay-api-never-${process.pid}`);
    await expect(renderVideos({ episodes: EPISODES, selection: { by: "all" }, dir, format: "mp4", maxMb: 3 })).rejects.toThrow(
      "--max-mb sets the budget of gif and webp files (this batch writes mp4)",
    );
    await expect(renderVideos({ episodes: EPISODES, selection: { by: "all" }, dir, posterFrame: 3 })).rejects.toThrow("--poster-frame goes with --poster");
    expect(() => readdirSync(dir)).toThrow();
  });
});
