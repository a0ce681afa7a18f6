/** `georeplay groups`: a training run's GRPO groups, with the advantages and step numbers the trainer computed. */
import { Command, Option } from "commander";
import { interruptSignal } from "./interrupt.ts";
import { EXIT_MISMATCH, EXIT_OK } from "../reports/exit-codes.ts";

export function registerGroups(program: Command): void {
  program
    .command("groups")
    .summary("GRPO groups of training rollouts: advantages as TRL computes them, frac_reward_zero_std per step")
    .description(
      "Reads GRPO training rollouts (rollouts*.jsonl, one file per rank; a folder means its\n" +
        "rollouts*.jsonl) and groups them as the trainer did: a group is the rollouts of one step on\n" +
        "one task (run, step, task.split, task.index), or of one recorded group_id within a step where\n" +
        "the rollouts carry one. No panoramas needed; streams, keeping only numbers per rollout.\n\n" +
        "The reward is outcome.reward, the env reward the trainer optimised (not geoeval's recomputed\n" +
        "reward). Per group, as TRL's GRPOTrainer: mean; std = sample std (Bessel, n - 1, as torch.std);\n" +
        "advantage = (r - mean) / (std + 1e-4) with the group's std (--scale-rewards group, TRL's\n" +
        "default), the step's std over all its rewards (batch), or r - mean (none); zero spread =\n" +
        "isclose(std, 0) (|std| <= 1e-8). A group of one rollout has no sample std (torch: NaN, so TRL's\n" +
        "advantage would be NaN): georeplay reports std null and advantage 0, and does not count it as\n" +
        "zero spread (torch's isclose(NaN, 0) is false). Numbers are float64 (TRL's are float32).\n\n" +
        "Columns, one row per step:\n" +
        "  groups, episodes  groups and rollouts of the step\n" +
        "  mean env reward   mean of the step's rollouts' outcome.reward\n" +
        "  zero-std          frac_reward_zero_std: share of the step's rollouts in zero-spread groups\n" +
        "  median std        median of the step's group stds (groups of one left out)\n" +
        "  multiplier        1 / (median std + 1e-4): how much the typical advantage is scaled up\n" +
        "Then the run: its median group std, the steps where no group had any spread, and the steps\n" +
        "with the largest multipliers (steps whose median std is 0 left out: nothing there is scaled).\n\n" +
        "Siblings are numbered by rank, #1 the highest advantage (ties in sibling order), as the page\n" +
        "and `render --group` number them. Siblings whose trajectories are byte-identical (the same\n" +
        "actions and view hashes, turn by turn) are listed as identical: zero spread often comes from them.\n\n" +
        "Order does not depend on the order of the files: groups by run, step, split, index; siblings by\n" +
        "file (rank2 before rank10), then line. --json names each sibling as file:line (see\n" +
        "`georeplay schema groups`).\n\n" +
        "Rollouts that record outcome.advantage (the crops gym's `r - mean`, the mean summed in\n" +
        "`sibling` order) have it checked exactly against the recomputed r - mean, whatever\n" +
        "--scale-rewards shows; each that differs is a MISMATCH line naming file:line (--json:\n" +
        "recorded_advantages.findings).\n\n" +
        "Exit codes: 0 printed; 1 printed, and a recorded advantage differs from the recomputed one\n" +
        "(drift, as verify's); 2 unreadable input, a record of an unknown env, or a record without run,\n" +
        "step, task or outcome.reward (each named by file, line and field).",
    )
    .argument("<rollouts...>", "GRPO rollouts*.jsonl files (several ranks at once), or folders holding them")
    .addOption(
      new Option("--scale-rewards <mode>", "what advantages are divided by: the group's std, the step's std, or nothing (TRL's scale_rewards)")
        .choices(["group", "batch", "none"])
        .default("group"),
    )
    .option(
      "--detail",
      "after the step table, each step's groups: task, size, mean, std, zero spread, rewards, advantages, identical siblings; then its siblings by rank (#1 = highest advantage) with file:line",
    )
    .option("--json", "print one JSON object on stdout instead (full precision; `georeplay schema groups`)")
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay groups run/traces/rollouts-rank0.jsonl run/traces/rollouts-rank1.jsonl\n" +
        "  georeplay groups run/traces/ --scale-rewards batch --detail\n" +
        "  georeplay groups run/traces/ --json > groups.json",
    )
    .action(async (inputs: string[], o: { scaleRewards: "group" | "batch" | "none"; json?: boolean; detail?: boolean }) => {
      // Loaded when the command runs: other commands never load the groups engine.
      const { readGroups } = await import("../../replay/groups/read.ts");
      const { formatGroups } = await import("../../replay/groups/format.ts");
      const { envOfRecord } = await import("../../envs/index.ts");
      const collected = await readGroups(inputs, { signal: interruptSignal(), checkEnv: envOfRecord });
      const report = collected.report(o.scaleRewards);
      process.stdout.write(o.json ? JSON.stringify(report, null, 2) + "\n" : formatGroups(report, { detail: o.detail }));
      // A recorded advantage that is not r - mean is drift, as a view that does not reproduce is for verify.
      process.exitCode = report.recorded_advantages.findings.length ? EXIT_MISMATCH : EXIT_OK;
    });
}
