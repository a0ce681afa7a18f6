/**
 * prepareEpisode + writeFrames (envs/geoguesser/replay/frames/frames.ts), the two halves of
 * generateFrames a two-up video uses so each side is found, planned and
 * verified once before either is written: together they write exactly what
 * generateFrames writes; drift stops at prepare, before any file exists; a
 * found episode is not looked up again.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { findEpisode, generateFrames, prepareEpisode, writeFrames } from "../../envs/geoguesser/replay/frames/frames.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { FIXTURES, MIXED } from "../helpers.ts";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "georeplay-prepare-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EPISODES = join(MIXED, "episodes.jsonl");
const base = { episodes: [EPISODES], tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos"), fps: 10, view: 64, jobs: 1 };
const digest = (out: string) => {
  const h = createHash("sha256");
  for (const n of readdirSync(join(out, "frames")).sort()) h.update(n).update(readFileSync(join(out, "frames", n)));
  return { frames: h.digest("hex"), timeline: readFileSync(join(out, "timeline.json"), "utf8") };
};

describe("prepareEpisode, then writeFrames", () => {
  it("writes what generateFrames writes", async () => {
    const whole = await generateFrames({ ...base, episode: "b62f83ac792b", out: join(dir, "whole") });
    const prepared = await prepareEpisode({ ...base, episode: "b62f83ac792b" });
    expect(prepared.kind).toBe("replay");
    const split = await writeFrames(prepared, { ...base, episode: "b62f83ac792b", out: join(dir, "split") });
    expect(split.stats).toEqual(whole.stats);
    expect(digest(join(dir, "split"))).toEqual(digest(join(dir, "whole")));
  });

  it("refuses a drifted episode while preparing, before any file is written", async () => {
    const out = join(dir, "drift");
    const e = await prepareEpisode({ ...base, episode: "0ec192c0f90d", out }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GeoreplayError);
    expect((e as GeoreplayError).kind).toBe("drift");
    expect(existsSync(out)).toBe(false);
  });

  it("does not look a found episode up again", async () => {
    const found = await findEpisode([EPISODES], "#1");
    const prepared = await prepareEpisode({ ...base, episodes: [join(dir, "not-there.jsonl")], episode: "#1" }, found);
    expect(prepared.found).toBe(found);
  });

  it("prepares example-rollout episodes as slideshows", async () => {
    const example = { episodes: [join(FIXTURES, "example-rollout")], episode: "#1", fps: 10, view: 64 };
    const prepared = await prepareEpisode(example);
    expect(prepared.kind).toBe("slideshow");
    const r = await writeFrames(prepared, { ...example, out: join(dir, "slides") });
    expect(r.timeline.episode.source).toBe("slideshow");
  });
});
