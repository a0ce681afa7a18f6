/** `georeplay verify`: re-render every recorded view and compare it byte for byte. */
import { Command } from "commander";
import type { VerifyReport } from "../../replay/verify/verify.ts";
import { verifyExitCode } from "../reports/exit-codes.ts";
import { inputOptions, positiveInt, replayAction, runOptions, withProgress, type InputOptions, type RunOptions } from "./options/shared.ts";
import { declareOptions, type OptionDefs } from "./options/declare.ts";
import { interruptSignal } from "./interrupt.ts";

export interface VerifyCliOptions extends InputOptions, RunOptions {
  viewSize: number;
  dataset?: string;
  shard?: string;
  limit?: number;
}

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
        // The crops environment's runs go to its own engine (the one dispatch point for now).
        const crops = await import("./verify-crops.ts");
        if (await crops.isCropsInput(episodes)) return crops.verifyCropsCommand(episodes, o);
        // Loaded when the command runs: `--help` and other commands never load the renderer.
        const verify = await import("../../replay/verify/verify.ts");
        const report = await withProgress("verify", o, (bar) =>
          verify.verifyRun({
            ...o,
            signal: interruptSignal(),
            episodes,
            shard: o.shard ? verify.parseShard(o.shard) : undefined,
            onProgress: (p) => bar.update(Math.round(p.fraction * 1000), `${p.episodes} episodes · ${p.views} views · ${p.mismatch} mismatch`),
          }),
        );
        if (o.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
        else {
          const { out, err } = formatReport(report);
          if (err) process.stderr.write(err);
          process.stdout.write(out);
        }
        process.exitCode = verifyExitCode(report);
      }),
    );
}

const short = (h: string) => h.slice(0, 12);

/** The text report: the summary and mismatches on stdout, problems on stderr. */
export function formatReport(r: VerifyReport): { out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  out.push(`${r.episodes} episodes · ${r.checked} view turns checked · ${r.match} match · ${r.mismatch} mismatch`);
  const notes: string[] = [];
  const kinds = Object.entries(r.formats).filter(([, n]) => n > 0);
  if (kinds.length > 1 || r.formats.train || r.formats.example)
    notes.push(kinds.map(([k, n]) => `${n} ${k === "eval" ? "eval episodes" : k === "train" ? "training rollouts" : "example-rollout episodes"}`).join(", "));
  if (r.resolved) notes.push(`${r.resolved} matched on an exact sampling boundary (resolved)`);
  if (r.skipped.map_turns) notes.push(`${r.skipped.map_turns} map turns skipped (not reproducible)`);
  if (r.skipped.errored_episodes) notes.push(`${r.skipped.errored_episodes} errored episodes skipped`);
  if (r.skipped.other_shards) notes.push(`${r.skipped.other_shards} episodes in other shards`);
  if (r.shard) notes.push(`shard ${r.shard}`);
  if (notes.length) out.push(`  (${notes.join("; ")})`);
  for (const m of r.mismatches) {
    const c = m.camera;
    out.push(
      `MISMATCH episode ${m.episode_id} turn ${m.turn} · task ${m.split}/${m.index} · camera heading ${c.heading_deg} pitch ${c.pitch_deg} fov ${c.fov_deg} frame ${c.frame_index}` +
        ` · recorded ${short(m.recorded)}… rendered ${short(m.rendered)}… (${m.file}:${m.line})`,
    );
  }
  for (const g of r.group_starts.failures) out.push(`GROUP DRIFT ${g.message}`);
  if (r.group_starts.compared > 0 && r.group_starts.failures.length === 0)
    out.push(`${r.group_starts.compared} GRPO group(s) of two or more rollouts: every sibling starts from the same first view`);
  for (const e of r.errored_episodes) err.push(`skipped: ${e.message}`);
  for (const w of r.warnings) err.push(`warning: ${w.message}`);
  for (const e of r.errors) err.push(`error: ${e.message}`);
  if (r.recorded_images.checked > 0) {
    out.push(
      `example-rollout folders carry no hashes (their images are the record): ${r.recorded_images.ok} of ${r.recorded_images.checked} referenced images exist and decode`,
    );
  }
  if (r.mismatch === 0 && r.errors.length === 0 && r.checked > 0) out.push("every view turn reproduces byte-for-byte");
  else if (r.checked + r.recorded_images.checked === 0 && r.errors.length === 0) err.push("error: nothing to check (no view turn with a recorded hash)");
  else if (r.mismatch > 0)
    out.push(`DRIFT: ${r.mismatch} view(s) do not reproduce; a video or page built from this trace would show something the model never saw`);
  if (r.group_starts.failures.length)
    out.push(`DRIFT: ${r.group_starts.failures.length} GRPO group(s) whose siblings start from different views; their advantages measured that difference`);
  if (r.errors.length) err.push(`${r.errors.length} problem(s) kept georeplay from checking everything it was asked to (exit 2)`);
  const join = (l: string[]) => (l.length ? l.join("\n") + "\n" : "");
  return { out: join(out), err: join(err) };
}
