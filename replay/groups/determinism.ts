/**
 * The determinism contract of GRPO: every sibling of a group starts from the
 * same first view. If the starting observation drifts between them, the
 * group's advantages measure that noise, not the policy. Pure: the verifier
 * hands in each training rollout's start, this says which groups break it.
 */
import { compareFiles, groupKey } from "./groups.ts";

/** What a rollout's first turn showed the model, as compared across siblings. */
export interface FirstView {
  /** The recorded image hash of the first turn (null when none was recorded). */
  hash: string | null;
  /** The first turn's camera as its environment words it (GeoGuesser: `heading H pitch P fov F frame N`). */
  camera: string | null;
  /** The first turn's prompt, where the format records prompts (training traces do not). */
  prompt: string | null;
}

export interface SiblingStart extends FirstView {
  run: string;
  step: number;
  split: string;
  index: number;
  groupId: string | null;
  file: string;
  line: number;
}

export interface StartVariant {
  value: string | null;
  /** Siblings (`file:line`) with this value. */
  siblings: string[];
}

export interface StartDifference {
  what: "first image hash" | "first camera" | "first prompt";
  variants: StartVariant[];
}

/** One group whose siblings did not start from the same view (the verify report's `group_starts[]`). */
export interface GroupStartFailure {
  run: string;
  step: number;
  split: string;
  index: number;
  group_id: string | null;
  siblings: string[];
  differs: StartDifference[];
  message: string;
}

const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const show = (what: StartDifference["what"], v: string | null) =>
  v === null ? "none" : what === "first prompt" ? JSON.stringify(v.length > 60 ? v.slice(0, 60) + "…" : v) : v;

/** Groups (of two or more siblings) whose siblings' first views differ, in group order; siblings by file, then line. */
export function checkGroupStarts(starts: Iterable<SiblingStart>): { groups: number; compared: number; failures: GroupStartFailure[] } {
  const groups = new Map<string, SiblingStart[]>();
  for (const s of starts) {
    const k = groupKey(s);
    const g = groups.get(k);
    if (g) g.push(s);
    else groups.set(k, [s]);
  }
  const failures: GroupStartFailure[] = [];
  let compared = 0;
  for (const sibs of groups.values()) {
    if (sibs.length < 2) continue;
    compared++;
    sibs.sort((a, b) => compareFiles(a.file, b.file) || a.line - b.line);
    const where = (s: SiblingStart) => `${s.file}:${s.line}`;
    const differs: StartDifference[] = [];
    const fields: [StartDifference["what"], (s: SiblingStart) => string | null][] = [
      ["first image hash", (s) => s.hash],
      ["first camera", (s) => s.camera],
      ["first prompt", (s) => s.prompt],
    ];
    for (const [what, get] of fields) {
      const variants = new Map<string | null, string[]>();
      for (const s of sibs) {
        const v = get(s);
        const l = variants.get(v);
        if (l) l.push(where(s));
        else variants.set(v, [where(s)]);
      }
      if (variants.size > 1) differs.push({ what, variants: [...variants].map(([value, siblings]) => ({ value, siblings })) });
    }
    if (!differs.length) continue;
    const first = sibs[0];
    const name = `step ${first.step} task ${first.split}/${first.index}${first.groupId !== null ? ` group_id ${first.groupId}` : ""}`;
    const what = differs.map((d) => `${d.what}: ${d.variants.map((v) => `${show(d.what, v.value)} (${v.siblings.join(", ")})`).join(" vs ")}`).join("; ");
    failures.push({
      run: first.run,
      step: first.step,
      split: first.split,
      index: first.index,
      group_id: first.groupId,
      siblings: sibs.map(where),
      differs,
      message: `group ${name} (run ${first.run}): its ${sibs.length} siblings do not start from the same view, so its advantages measure that difference, not the policy: ${what}`,
    });
  }
  failures.sort(
    (a, b) => cmpStr(a.run, b.run) || a.step - b.step || cmpStr(a.split, b.split) || a.index - b.index || cmpStr(a.group_id ?? "", b.group_id ?? ""),
  );
  return { groups: groups.size, compared, failures };
}
