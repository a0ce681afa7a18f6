/**
 * `--shard i/n` for a batch, in any environment: a deterministic split balanced by frame count.
 * Videos are taken longest first (ties by name) and each goes to the shard
 * with the fewest frames so far (ties: the lower shard). It depends only on
 * the names and planned frame counts, so every machine computes the same split.
 */
export { parseShard } from "../io/shard.ts";

export interface Weighted {
  stem: string;
  /** Planned frames; null (could not be planned) weighs 1, so exactly one shard reports it. */
  frames: number | null;
}

/** The 0-based shard of each item. */
export function assignShards(items: Weighted[], count: number): number[] {
  const order = items.map((it, i) => ({ i, w: Math.max(1, it.frames ?? 1), stem: it.stem }));
  order.sort((x, y) => y.w - x.w || (x.stem < y.stem ? -1 : x.stem > y.stem ? 1 : x.i - y.i));
  const load = new Array<number>(count).fill(0);
  const out = new Array<number>(items.length);
  for (const o of order) {
    let best = 0;
    for (let s = 1; s < count; s++) if (load[s] < load[best]) best = s;
    load[best] += o.w;
    out[o.i] = best;
  }
  return out;
}

/** Each item's 0-based shard and shard `index`'s items, in order (without a shard: all of them, shard 0). */
export function takeShard<T extends Weighted>(items: T[], shard: { index: number; count: number } | null | undefined): { shards: number[]; mine: T[] } {
  if (!shard) return { shards: items.map(() => 0), mine: items };
  const shards = assignShards(items, shard.count);
  return { shards, mine: items.filter((_, i) => shards[i] === shard.index - 1) };
}
