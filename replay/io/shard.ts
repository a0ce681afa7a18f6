/**
 * `--shard i/n`: the i-th of n deterministic slices of a run, for CI matrices. Every environment's
 * verify, and the batch renderer, take the same words and the same rule (record ordinal i, i+n, ...).
 */
import { GeoreplayError } from "./errors.ts";

export interface Shard {
  index: number; // 1-based
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new GeoreplayError(`--shard ${text}: expected i/n, e.g. 1/4 (i from 1 to n)`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new GeoreplayError(`--shard ${text}: i must be between 1 and n (got ${index}/${count})`);
  return { index, count };
}
