/**
 * Which inputs make a board page without --baseline (src/page/board/input.ts),
 * on the real fixtures: a sweep or board folder does, with one arm or many;
 * episodes files named one by one, training traces beside a folder, and a
 * folder the report cannot count (no scored row) do not.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { FIXTURES, MIXED } from "../helpers.ts";
import { resolveInputs } from "../../replay/formats/inputs.ts";
import { boardOfInputs } from "../../envs/geoguesser/src/page/board/input.ts";

const boardOf = async (inputs: string[]) => boardOfInputs(await resolveInputs(inputs), inputs);

describe("board inputs", () => {
  it("a sweep or board folder is a board, one arm or several", async () => {
    expect((await boardOf([join(FIXTURES, "sweep")]))?.arms.map((a) => a.arm)).toEqual(["synthetic-model"]);
    expect((await boardOf([join(FIXTURES, "boards", "nobase")]))?.arms.map((a) => a.arm).sort()).toEqual(["alpha", "beta"].sort());
    // A folder beside a file named directly: still the board `report` reads.
    expect((await boardOf([join(FIXTURES, "sweep"), join(FIXTURES, "trieste", "episodes.jsonl")]))?.arms).toHaveLength(2);
  });

  it("files named one by one, training traces, or a folder with no scored row are not", async () => {
    expect(await boardOf([join(MIXED, "episodes.jsonl")])).toBeNull();
    expect(await boardOf([join(MIXED, "episodes.jsonl"), join(FIXTURES, "trieste", "episodes.jsonl")])).toBeNull();
    expect(await boardOf([join(FIXTURES, "sweep"), join(FIXTURES, "train-rollouts.jsonl")])).toBeNull();
    expect(await boardOf([join(FIXTURES, "boards", "unscored-only")])).toBeNull();
  });
});
