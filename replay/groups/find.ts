/**
 * One group of a run, named as `render --group` names it: `<step>/<split>/<index>`.
 * Pure: a group that is not there is an input error that lists the groups
 * nearby (the same step's, and the same task's at other steps), so the next
 * command can be typed from the message.
 */
import { GeoreplayError } from "../io/errors.ts";
import type { GroupEntry, GroupsReport } from "./groups-schema.ts";

export interface GroupRef {
  step: number;
  split: string;
  index: number;
}

/** `<step>/<split>/<index>`, e.g. `12/eval/3`. */
export function parseGroupRef(text: string): GroupRef {
  const m = /^(\d+)\/([^/]+)\/(\d+)$/.exec(text.trim());
  if (!m)
    throw new GeoreplayError(`--group ${JSON.stringify(text)}: expected <step>/<split>/<index>, e.g. 0/eval/3 (as \`georeplay groups --detail\` lists them)`);
  return { step: Number(m[1]), split: m[2], index: Number(m[3]) };
}

/** A group as `--group` names it. */
export const groupName = (step: number, split: string, index: number): string => `${step}/${split}/${index}`;
const refName = (r: GroupRef) => groupName(r.step, r.split, r.index);
const entryName = (g: GroupEntry) => groupName(g.step, g.task.split, g.task.index);

/** How many nearby groups a message lists at most. */
const NEARBY = 8;

/** The one group `ref` names; throws (an input error: exit 2) when there is none, or more than one (several runs or group ids). */
export function findGroup(report: GroupsReport, ref: GroupRef): GroupEntry {
  const want = (g: GroupEntry) => g.step === ref.step && g.task.split === ref.split && g.task.index === ref.index;
  const found = report.groups.filter(want);
  if (found.length === 1) return found[0];
  const label = (g: GroupEntry) =>
    `${entryName(g)} (${g.size} rollout${g.size === 1 ? "" : "s"}${g.group_id !== null ? `, group_id ${g.group_id}` : ""}${runs(report) > 1 ? `, run ${g.run}` : ""})`;
  if (found.length > 1)
    throw new GeoreplayError(
      `--group ${refName(ref)}: ${found.length} groups match (${found.map(label).join("; ")}): give the rollout files of one run, or files whose rollouts share one group_id`,
    );
  const sameStep = report.groups.filter((g) => g.step === ref.step);
  const sameTask = report.groups
    .filter((g) => g.task.split === ref.split && g.task.index === ref.index)
    .sort((a, b) => Math.abs(a.step - ref.step) - Math.abs(b.step - ref.step) || a.step - b.step);
  const steps = [...new Set(report.groups.map((g) => g.step))];
  const nearest = steps.sort((a, b) => Math.abs(a - ref.step) - Math.abs(b - ref.step) || a - b).slice(0, 3);
  const lines: string[] = [];
  if (sameStep.length) lines.push(`groups of step ${ref.step}: ${list(sameStep, label)}`);
  else lines.push(`no rollouts of step ${ref.step}; nearest steps: ${nearest.join(", ") || "none"}`);
  if (sameTask.length) lines.push(`task ${ref.split}/${ref.index} at other steps: ${list(sameTask, label)}`);
  if (!sameStep.length && !sameTask.length && nearest.length)
    lines.push(
      `groups of step ${nearest[0]}: ${list(
        report.groups.filter((g) => g.step === nearest[0]),
        label,
      )}`,
    );
  throw new GeoreplayError(
    `--group ${refName(ref)}: no such group among ${report.groups.length} group(s) of ${report.rollouts} rollout(s)\n${lines.join("\n")}\n(georeplay groups <rollouts...> --detail lists every group)`,
  );
}

const runs = (r: GroupsReport) => new Set(r.groups.map((g) => g.run)).size;

function list(groups: GroupEntry[], label: (g: GroupEntry) => string): string {
  const shown = groups.slice(0, NEARBY).map(label).join(", ");
  return groups.length > NEARBY ? `${shown} and ${groups.length - NEARBY} more` : shown;
}
