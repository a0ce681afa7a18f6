/**
 * The crops benchmarks' 10,000-episode set: the reference README's record.py command (500 scenes
 * x 20 samples), generated once into bench/.cache/crops-10k (about 6 minutes of 2 idle cores) and
 * reused (GEOREPLAY_CROPS_10K names another copy). The reference lives outside this repository:
 * GEOREPLAY_CROPS_REFERENCE (default ../shared/reference/crops beside the checkout).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CACHE, PYTHON, ROOT, run } from "./common.ts";

export const REFERENCE = process.env.GEOREPLAY_CROPS_REFERENCE ?? join(ROOT, "..", "shared", "reference", "crops");

export const hasReference = (): boolean => existsSync(join(REFERENCE, "record.py"));

export function tenThousand(): { dataset: string; run: string } {
  const dataset = process.env.GEOREPLAY_CROPS_10K ?? join(CACHE, "crops-10k");
  const runFile = join(dataset, "eval", "episodes.jsonl");
  if (!existsSync(runFile)) {
    process.stderr.write(`bench: generating 10,000 crops episodes into ${dataset} with record.py (about 6 minutes of 2 cores) ...\n`);
    const r = run(
      PYTHON,
      [
        join(REFERENCE, "record.py"),
        ...["--dataset", dataset, "--run", "eval", "--mode", "eval", "--split", "eval"],
        ...["--scenes", "100000-100499:640x480", "--samples", "20", "--seed", "7", "--jobs", "2"],
      ],
      REFERENCE,
    );
    if (r.code !== 0) throw new Error(`record.py failed: ${r.stderr}`);
  }
  return { dataset, run: "eval" };
}
