/**
 * What the two sides of a comparison share or are called. Apart from the
 * props' schema so that the scenes load no validator.
 */
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";

type Side = { timeline: { episode: Pick<Timeline["episode"], "split" | "index"> } };

/** Whether both sides play the same task (split and index); different tasks are allowed but said on screen. */
export function sameTask(p: { a: Side; b: Side }): boolean {
  const x = p.a.timeline.episode;
  const y = p.b.timeline.episode;
  return x.split === y.split && x.index === y.index;
}

/** Labels for the two sides: the arm names, made distinct with the attempt (task.sample; or A/B) when both arms are the same. */
export function sideLabels(a: { arm: string; pass: number | null }, b: { arm: string; pass: number | null }): [string, string] {
  if (a.arm !== b.arm) return [`A · ${a.arm}`, `B · ${b.arm}`];
  if (a.pass !== b.pass) return [`A · ${a.arm} attempt ${a.pass ?? "?"}`, `B · ${b.arm} attempt ${b.pass ?? "?"}`];
  return [`A · ${a.arm}`, `B · ${b.arm}`];
}
