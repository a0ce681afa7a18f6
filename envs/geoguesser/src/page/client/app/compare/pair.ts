/**
 * Two arms' attempts at one task, paired by the records' own attempt number
 * (task.sample), as pure functions. Only what geoeval's report counts is
 * paired: a row without an env reward (unscored) is listed apart with the
 * reason, and so is its being a duplicate of an attempt number. Several
 * counted records of one attempt number (geoeval counts each) take one row
 * each, numbered, so no row ever pairs different attempt numbers.
 */
import type { ListRow } from "../../state/rows.ts";

export interface PairedRow<R> {
  sample: number | null;
  /** 0 for the first counted record of this attempt number on either side, 1 for the second, ... */
  record: number;
  /** How many rows this attempt number takes (records > 1: label them). */
  records: number;
  a: R | null;
  b: R | null;
}

export interface Uncounted<R> {
  side: "a" | "b";
  row: R;
  why: string;
}

export interface Pairing<R> {
  rows: PairedRow<R>[];
  uncounted: Uncounted<R>[];
  /** Counted attempts per side (what the report's mean is over). */
  counted: { a: number; b: number };
}

const key = (s: number | null) => (s === null ? "none" : String(s));

export function pairAttempts<R extends Pick<ListRow, "sample" | "env"> & { flags?: readonly string[] }>(a: readonly R[], b: readonly R[]): Pairing<R> {
  const group = (xs: readonly R[]) => {
    const m = new Map<string, R[]>();
    for (const r of xs) {
      if (r.env === null) continue;
      const k = key(r.sample);
      m.set(k, [...(m.get(k) ?? []), r]);
    }
    return m;
  };
  const ga = group(a);
  const gb = group(b);
  const samples = [...new Set([...a, ...b].filter((r) => r.env !== null).map((r) => r.sample))].sort((x, y) => (x ?? Infinity) - (y ?? Infinity));
  const rows: PairedRow<R>[] = [];
  for (const s of samples) {
    const xa = ga.get(key(s)) ?? [];
    const xb = gb.get(key(s)) ?? [];
    const n = Math.max(xa.length, xb.length);
    for (let i = 0; i < n; i++) rows.push({ sample: s, record: i, records: n, a: xa[i] ?? null, b: xb[i] ?? null });
  }
  const uncounted: Uncounted<R>[] = [];
  for (const [side, xs, g] of [
    ["a", a, ga],
    ["b", b, gb],
  ] as const) {
    for (const r of xs) {
      if (r.env !== null) continue;
      const dup = g.has(key(r.sample)) ? `; a duplicate of attempt ${r.sample ?? "?"}, which is counted` : "";
      const what = r.flags?.includes("errored") ? "errored in the environment (no turns)" : "unscored (no env reward)";
      uncounted.push({ side, row: r, why: `${what}: geoeval's report leaves it out${dup}` });
    }
  }
  return { rows, uncounted, counted: { a: a.filter((r) => r.env !== null).length, b: b.filter((r) => r.env !== null).length } };
}
