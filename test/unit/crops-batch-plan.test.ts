/**
 * A crops batch's plan (envs/crops/replay/batch.ts) on the bundled sample: every record a
 * candidate numbered as `--episode #n` counts, a selection by id or #n, names that are safe and
 * unique (a repeated id is named by its #n to the renderer and gets `-2` on disk), frame counts
 * from the camera plan plus the score card, and a record that cannot be planned reported as that
 * video's problem while the others are planned.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES } from "../helpers.ts";
import { openDataset } from "../../envs/crops/replay/dataset.ts";
import { cropsEpisodeRef, cropsVideoInputs, listCropsCandidates, planCropsVideos, selectCropsVideos } from "../../envs/crops/replay/batch.ts";
import { planFrames } from "../../envs/crops/replay/frames-plan.ts";
import { CropsRecordSchema } from "../../envs/crops/replay/schema.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const EVAL = join(SAMPLE, "eval", "episodes.jsonl");
const tmp = mkdtempSync(join(tmpdir(), "georeplay-crops-plan-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("a crops batch's plan", () => {
  it("lists every record in order, selects by id and #n, and plans the camera path plus 5 s of score card", async () => {
    const cands = await listCropsCandidates([EVAL]);
    expect(cands).toHaveLength(24);
    expect(cands.map((c) => c.ordinal)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(cands[0]).toMatchObject({ file: EVAL, line: 1, arm: "scripted-vlm", split: "eval", index: 0, sample: 0 });
    const picked = selectCropsVideos(cands, { by: "episodes", wanted: ["c46800576146", "#1"] });
    expect(picked.map((c) => c.ordinal)).toEqual([12, 1]);
    const ds = await openDataset(SAMPLE);
    const planned = await planCropsVideos([EVAL], picked, { fps: 30, cardFrames: 150, dataset: ds });
    const rec = CropsRecordSchema.parse(JSON.parse(readFileSync(EVAL, "utf8").split("\n")[11]));
    const task = ds.tasks.get(`eval\u0000${rec.task.index}`)!;
    expect(planned[0]).toMatchObject({ kind: "rollout", stem: "c46800576146", problem: null, task: null });
    expect(planned[0].frames).toBe(planFrames(rec, 30, task.width, task.height).frames.length + 150);
    expect(planned[0].image).toBe(join(SAMPLE, task.file));
    const inputs = cropsVideoInputs(planned[0], ds);
    expect(inputs.files.map((f) => [f.role, f.path])).toEqual([
      ["record", EVAL],
      ["tasks", ds.tasksFile],
      ["ground_truth", ds.gtFile],
      ["image", join(SAMPLE, task.file)],
    ]);
    expect(inputs.files[0]).toMatchObject({ line: 12, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(selectCropsVideos(cands, { by: "all" })).toHaveLength(24);
  });

  it("a repeated id: named by #n to the renderer, -2 on disk; trace text never a path; a bad record is that video's problem", async () => {
    const lines = readFileSync(EVAL, "utf8").split("\n").filter(Boolean);
    const odd = { ...JSON.parse(lines[1]), episode_id: "../../etc/passwd" };
    const bad = { ...JSON.parse(lines[2]), turns: [] };
    const run = join(tmp, "episodes.jsonl");
    writeFileSync(run, [lines[0], lines[0], JSON.stringify(odd), JSON.stringify(bad)].join("\n") + "\n");
    const cands = await listCropsCandidates([run]);
    expect(cands.map((c) => cropsEpisodeRef(c, cands))).toEqual([cands[0].episodeId, "#2", "../../etc/passwd", cands[3].episodeId]);
    const planned = await planCropsVideos([run], cands, { fps: 10, cardFrames: 50, dataset: await openDataset(SAMPLE) });
    expect(planned.map((v) => v.stem)).toEqual([cands[0].episodeId, `${cands[0].episodeId}-2`, "etc-passwd", cands[3].episodeId]);
    expect(planned[3]).toMatchObject({ frames: null, problem: `${run}:4: turns: expected at least 1 items, got []` });
    expect(planned.slice(0, 3).every((v) => v.problem === null && (v.frames ?? 0) > 50)).toBe(true);
  });

  it("an unknown id, #0 and a #n past the end are one-line input errors", async () => {
    const cands = await listCropsCandidates([EVAL]);
    expect(() => selectCropsVideos(cands, { by: "episodes", wanted: ["nope"] })).toThrow(
      /^--episode "nope": not found among the 24 crops episode\(s\) of the inputs$/,
    );
    expect(() => selectCropsVideos(cands, { by: "episodes", wanted: ["#0"] })).toThrow(/^--episode #0: ordinals start at #1$/);
    expect(() => selectCropsVideos(cands, { by: "episodes", wanted: ["#25"] })).toThrow(/^--episode #25: the inputs have 24 crops episode\(s\)$/);
  });
});
