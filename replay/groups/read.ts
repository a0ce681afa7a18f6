/**
 * Streams GRPO rollout files (`rollouts*.jsonl`, one per rank) into a
 * GroupCollector, keeping only each rollout's numbers. Every record must
 * carry what grouping needs (run, step, task, outcome.reward); a record that
 * does not is a problem naming its file, line and field, and the run is
 * refused: advantages over a group with a sibling missing would be wrong.
 */
import { z } from "zod";
import { GeoreplayError, describeValue, fileError } from "../io/errors.ts";
import { readJsonl, statInput } from "../io/jsonl.ts";
import { throwIfAborted } from "../io/abort.ts";
import { formatIssues } from "../io/issues.ts";
import { GroupCollector } from "./groups.ts";
import { rolloutFilesIn } from "../formats/inputs.ts";
import { trajectoryOf } from "./trajectory.ts";

/** What grouping reads of a rollout; everything else on the line is left alone (and not kept). */
export const GroupRolloutSchema = z.looseObject({
  run: z.string(),
  step: z.number().int().nonnegative(),
  task: z.looseObject({ split: z.string().min(1), index: z.number().int().nonnegative() }),
  /** A recorded group id wins over (step, split, index); optional, not in the environment's format today. */
  group_id: z.string().min(1).nullish(),
  /** The sibling's number in its group (the crops gym records it): a recorded advantage's mean sums in this order. */
  sibling: z.number().int().nonnegative().nullish(),
  /** The advantage the trainer recorded (the crops gym: r - mean), checked against the recomputed one. */
  outcome: z.looseObject({ reward: z.number(), advantage: z.number().nullish() }),
});

/**
 * Records name their environment in `env`: none, or a GeoGuesser server's URL, is GeoGuesser's;
 * "crops" is the detection gym's. Any other value is a recording this command does not know.
 */
export interface ReadGroupsOptions {
  signal?: AbortSignal;
  /**
   * Checks each record's `env` against the environments the caller knows (the registry,
   * envs/index.ts), throwing a one-line error naming file, line and field for an unknown one. The
   * groups themselves need no environment: every GRPO recording has a run, step, task and reward.
   */
  checkEnv?: (record: unknown, file: string, line: number) => void;
  /** Problems listed in the error before it says "and N more". */
  maxProblems?: number;
}

/** The rollout files an input names: a file itself, or a folder's `rollouts*.jsonl`. */
export function rolloutFiles(inputs: string[]): string[] {
  if (inputs.length === 0) throw new GeoreplayError("no input given (GRPO rollouts*.jsonl files, or a folder holding them)");
  const out: string[] = [];
  for (const p of inputs) {
    const st = statInput(p);
    if (st.isDirectory()) {
      const found = rolloutFilesIn(p);
      if (found.length === 0) throw fileError(p, "is a directory without rollouts*.jsonl files");
      out.push(...found);
    } else if (st.isFile()) out.push(p);
    else throw fileError(p, "not a regular file");
  }
  return [...new Set(out)];
}

/** Reads every rollout of the inputs into a collector; throws a GeoreplayError naming every bad line. */
export async function readGroups(inputs: string[], opts: ReadGroupsOptions = {}): Promise<GroupCollector> {
  const files = rolloutFiles(inputs);
  const collector = new GroupCollector();
  const problems: string[] = [];
  for (const file of files) {
    let records = 0;
    for await (const item of readJsonl(file)) {
      if ((++records & 1023) === 0) throwIfAborted(opts.signal);
      if (item.kind === "error") {
        problems.push(`${file}:${item.line}: ${item.message}`);
        continue;
      }
      const v = item.value;
      if (v === null || typeof v !== "object" || Array.isArray(v)) {
        problems.push(`${file}:${item.line}: expected a JSON object (one rollout), got ${describeValue(v)}`);
        continue;
      }
      // A record of an environment nobody knows: one line naming it (its rewards mean nothing here).
      opts.checkEnv?.(v, file, item.line);
      const parsed = GroupRolloutSchema.safeParse(v);
      if (!parsed.success && records === 1 && !("run" in v)) {
        // The whole file is another recording: one message for it, not one per line.
        const what = "schema_version" in v || "episode_id" in v ? "an eval episode" : "trace" in v ? "an example-rollout trace row" : "not a rollout";
        throw new GeoreplayError(
          `${file}:${item.line}: run: expected string, got nothing (field missing): this record is ${what}, not a GRPO training rollout (groups reads rollouts*.jsonl)`,
        );
      }
      if (!parsed.success) {
        problems.push(`${file}:${item.line}: ${formatIssues(parsed.error, v).join("; ")}`);
        continue;
      }
      const r = parsed.data;
      collector.add({
        run: r.run,
        step: r.step,
        split: r.task.split,
        index: r.task.index,
        groupId: r.group_id ?? null,
        reward: r.outcome.reward,
        sibling: r.sibling ?? null,
        recordedAdvantage: r.outcome.advantage ?? null,
        file,
        line: item.line,
        trajectory: trajectoryOf(r.turns),
      });
    }
    if (records === 0) problems.push(`${file}: no rollout records (the file is empty or only blank lines)`);
  }
  throwIfAborted(opts.signal);
  if (problems.length) {
    const max = opts.maxProblems ?? 20;
    const more = problems.length > max ? [`(and ${problems.length - max} more problem(s))`] : [];
    throw new GeoreplayError(
      `${problems.length} rollout record(s) cannot be grouped (every sibling's reward is needed for its group's advantages):\n` +
        [...problems.slice(0, max), ...more].join("\n"),
    );
  }
  return collector;
}
