/**
 * The one way a run's episode total is worded, on every surface that states it (the `page`
 * CLI line, the page header, the list's count, `report`'s note): the episodes geoeval's
 * report counts (a stored env reward), then those it leaves out, unscored (no env reward) and
 * errored (the environment failed; no turns), apart. Pure and browser-safe: the list's client
 * uses it too, so the words cannot drift between surfaces.
 */

export interface EpisodeTally {
  /** Episodes with a stored env reward: `georeplay report`'s (and geoeval's) episode count. */
  counted: number;
  /** No env reward recorded (outcome.reward null or missing), not errored. */
  unscored: number;
  /** The environment failed: an `error` row with no turns. */
  errored: number;
}

/** "2 unscored, 1 errored", or "" when every episode counts. */
export function notCountedWords(t: Pick<EpisodeTally, "unscored" | "errored">): string {
  return [t.unscored ? `${n(t.unscored)} unscored` : "", t.errored ? `${n(t.errored)} errored` : ""].filter(Boolean).join(", ");
}

/** "119 episodes (+ 2 unscored, 1 errored: not counted)"; with `of` (a filtered list's total): "12 of 119 episodes …". */
export function tallyWords(t: EpisodeTally, noun = "episodes", of?: number): string {
  const out = notCountedWords(t);
  return `${n(t.counted)}${of === undefined ? "" : ` of ${n(of)}`} ${noun}${out ? ` (+ ${out}: not counted)` : ""}`;
}

const n = (x: number) => x.toLocaleString("en-US");

/**
 * A page's episode count (header and CLI line): eval episodes as tallyWords; training and
 * example rollouts named as such, with the counted ones after them.
 */
export function episodeCount(formats: { eval: number; train: number; example: number }, total: EpisodeTally | undefined): string {
  const f = formats;
  if (!f.train && !f.example) return total ? tallyWords(total) : "0 episodes";
  const kinds = [
    f.eval ? `${n(f.eval)} episodes` : "",
    f.train ? `${n(f.train)} training rollouts` : "",
    f.example ? `${n(f.example)} example-rollout episodes` : "",
  ].filter(Boolean);
  const out = total ? notCountedWords(total) : "";
  return (kinds.join(" + ") || "0 episodes") + (total ? ` · ${n(total.counted)} counted${out ? ` (+ ${out}: not counted)` : ""}` : "");
}

/** `georeplay report --json`'s tally: its episodes, and the rows it drops split into unscored and errored. */
export function reportTally(r: { episodes: number; dropped_unscored: number; dropped_errored?: number }): EpisodeTally {
  const errored = r.dropped_errored ?? 0;
  return { counted: r.episodes, unscored: r.dropped_unscored - errored, errored };
}

/** The tally of list rows: errored rows are flagged so, unscored ones have no env reward. */
export function rowTally(rows: readonly { env: number | null; flags: readonly string[] }[]): EpisodeTally {
  const t = { counted: 0, unscored: 0, errored: 0 };
  for (const r of rows) {
    if (r.flags.includes("errored")) t.errored++;
    else if (r.env === null) t.unscored++;
    else t.counted++;
  }
  return t;
}
