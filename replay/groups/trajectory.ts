/**
 * A rollout's trajectory as a key: its turns' actions and the views they
 * returned (the image hashes). Siblings with the same key played the same
 * game byte for byte, so they score the same: that is where a group's zero
 * spread comes from when the policy is (near) deterministic. Pure.
 */
import { createHash } from "node:crypto";

/** The turns as recorded: each one's action (any form) and its view's hash. */
export interface TrajectoryTurn {
  action?: unknown;
  image_sha256?: string | null;
}

/** sha256 over each turn's action (as JSON, keys in recorded order) and view hash; 16 hex digits. */
export function trajectoryKey(turns: readonly TrajectoryTurn[]): string {
  const h = createHash("sha256");
  for (const t of turns) h.update(JSON.stringify([t.action ?? null, (t.image_sha256 ?? "").toLowerCase()]) + "\n");
  return h.digest("hex").slice(0, 16);
}

/** The sets (2 or more) of sibling positions sharing a key, in sibling order; siblings without a key share nothing. */
export function identicalSets(keys: readonly (string | null)[]): number[][] {
  const by = new Map<string, number[]>();
  keys.forEach((k, i) => {
    if (k === null) return;
    const list = by.get(k);
    if (list) list.push(i);
    else by.set(k, [i]);
  });
  return [...by.values()].filter((s) => s.length > 1);
}

/** The key of a record's `turns` as read (unchecked); null when it records no turn (nothing to compare). */
export function trajectoryOf(turns: unknown): string | null {
  if (!Array.isArray(turns) || turns.length === 0) return null;
  return trajectoryKey(turns.map((t) => (t !== null && typeof t === "object" ? (t as TrajectoryTurn) : { action: t })));
}
