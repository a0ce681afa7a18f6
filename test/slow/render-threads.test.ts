/**
 * Where a video is planned and painted does not change it. The built CLI plans
 * on the painter's worker (started while the views are verified; it keeps the
 * lines and the painted frames' scenes) and reprojects in-between views on a
 * second worker; run from sources, the same render plans and paints on the
 * caller's thread. Both must paint the same runs of frames and write the same
 * MP4, byte for byte, for a rollout and for a two-up.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, TRIESTE, runCli } from "../helpers.ts";
import { renderEpisodeMp4 } from "../../envs/geoguesser/src/film/render-episode.ts";
import { renderCompareMp4 } from "../../envs/geoguesser/src/film/render-compare.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-render-threads-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sha = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");
const SMALL = { fps: 10, size: { width: 640, height: 360 }, preset: "ultrafast" as const };

/** The same render through the built CLI (threads) and from sources (this thread): same runs, same bytes. */
async function bothWays(name: string, cliArgs: string[], here: (out: string) => Promise<{ painted: number; frames: number }>): Promise<void> {
  const threaded = join(tmp, `${name}-threads.mp4`);
  const r = runCli(["render", ...cliArgs, "-o", threaded, "--fps", "10", "--size", "640x360", "--preset", "ultrafast"], { timeoutMs: 600_000 });
  expect(r.code, r.stderr).toBe(0);
  const mine = join(tmp, `${name}-here.mp4`);
  const own = await here(mine);
  expect(own.painted).toBeLessThan(own.frames); // holds were found, so the runs are worth comparing
  expect(Number(/(\d+) distinct frames painted/.exec(r.stdout)?.[1])).toBe(own.painted);
  expect(sha(threaded)).toBe(sha(mine));
}

describe("planned and painted on the painter's threads or on the caller's: the same video", () => {
  it("a rollout (Trieste, 10 fps, 640x360)", async () => {
    const args = { episodes: [join(TRIESTE, "episodes.jsonl")], episode: "#1", tasks: join(TRIESTE, "tasks.jsonl"), panos: join(TRIESTE, "panos") };
    await bothWays("rollout", [...args.episodes, "--episode", args.episode, "--tasks", args.tasks, "--panos", args.panos], (out) =>
      renderEpisodeMp4({ ...args, out, ...SMALL }),
    );
  }, 900_000);

  it("a two-up (two of the sample's attempts at eval #0)", async () => {
    const sample = join(ROOT, "rollouts", "sample");
    const args = {
      episodes: [join(sample, "episodes.jsonl")],
      tasks: join(sample, "tasks.jsonl"),
      panos: join(sample, "panos"),
      episode: "d37a27bd393a",
      versus: "ff03ebd569bb",
    };
    await bothWays("two-up", [...args.episodes, "--tasks", args.tasks, "--panos", args.panos, "--episode", args.episode, "--versus", args.versus], (out) =>
      renderCompareMp4({ ...args, out, ...SMALL }),
    );
  }, 900_000);
});
