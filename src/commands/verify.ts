/** `georeplay verify`: re-render every recorded view and compare it byte for byte. */
import { Command } from "commander";
import { environmentOf } from "../../envs/index.ts";
import { inputOptions, positiveInt, replayAction, runOptions } from "./options/shared.ts";
import type { VerifyCliOptions } from "./options/command-options.ts";
import { declareOptions, type OptionDefs } from "./options/declare.ts";

export type { VerifyCliOptions } from "./options/command-options.ts";

export const VERIFY_OPTIONS: OptionDefs<VerifyCliOptions> = {
  ...inputOptions(),
  viewSize: { flags: "--view-size <px>", description: "size of the views the model saw", parse: positiveInt, default: 640 },
  dataset: { flags: "--dataset <dir>", description: "crops runs: the dataset folder (tasks.jsonl, gt.jsonl, images/); default: the run folder's parent" },
  shard: { flags: "--shard <i/n>", description: "check only the i-th of n deterministic slices (i from 1), for CI matrices" },
  limit: { flags: "--limit <n>", description: "stop after n episodes", parse: positiveInt },
  ...runOptions(),
};

export function registerVerify(program: Command): void {
  const cmd = program
    .command("verify")
    .summary("re-render every recorded view and check it against its sha256 (for CI)")
    .description(
      'Re-renders every view turn (image_kind "view" with a hash) from camera_after exactly as the\n' +
        "environment did, and compares the JPEG's sha256 with the recorded one. Map turns are not\n" +
        "reproducible (live street data) and are counted as skipped.\n\n" +
        "Reads every recording the environment writes: eval episodes.jsonl (sha256 of the JPEG bytes),\n" +
        "GRPO rollouts*.jsonl (16 hex of sha256 over the base64 text), sweep folders (every\n" +
        "**/episodes.jsonl, skipping _quarantined/) and example-rollout folders, which carry no hashes:\n" +
        "their images are the record, so each one is checked to exist and decode instead.\n\n" +
        "On training rollouts it also checks GRPO's determinism contract: every sibling of a group\n" +
        "(same run, step and task, or same recorded group_id) starts from the same first view (first\n" +
        "image hash, camera, and prompt where recorded). A group whose siblings differ is drift\n" +
        "(GROUP DRIFT, naming the group, its siblings as file:line and what differs).\n\n" +
        'A crops (detection gym) run (records with env "crops") is recognised by its records and checked\n' +
        "against its dataset folder (--dataset): every view and thumbnail re-rendered, every action\n" +
        "re-applied to the recorded state before it (box mappings, views, boxes, statuses), shaping and\n" +
        "outcomes recomputed from gt.jsonl, GRPO advantages recomputed; each finding names its kind.\n\n" +
        "Exit codes: 0 every view matches; 1 some view (or a GRPO group's start) drifted; 2 the run\n" +
        "could not check what it was asked (unreadable or invalid input, missing panorama, nothing to\n" +
        "check).",
    )
    .argument("<inputs...>", "eval episodes.jsonl, GRPO rollouts*.jsonl (or a run's folder of them), example-rollout folders or sweep folders");
  declareOptions(cmd, VERIFY_OPTIONS)
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay verify run/episodes.jsonl --tasks tasks/ --panos panos/\n" +
        "  georeplay verify run/episodes.jsonl --tasks tasks/eval_pano_v3.jsonl --panos panos/ --shard 2/4 --json\n" +
        "  georeplay verify crops-data/eval --dataset crops-data",
    )
    .action(
      replayAction<VerifyCliOptions>(async (episodes, o) => {
        const env = await environmentOf(episodes);
        await env.verify(episodes, o);
      }),
    );
}
