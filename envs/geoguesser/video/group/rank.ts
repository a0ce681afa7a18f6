/** How a group's siblings rank: by advantage, best first (ties by reward, then sibling order). Pure. */

/** Sibling indices, best first. */
export function rankSiblings(siblings: readonly { advantage: number; reward: number }[]): number[] {
  return siblings.map((_, i) => i).sort((a, b) => siblings[b].advantage - siblings[a].advantage || siblings[b].reward - siblings[a].reward || a - b);
}

/** A signed advantage as tiles and the score card write it: "+1.23", "-0.87", "0.00". */
export function formatAdvantage(a: number): string {
  const s = a.toFixed(2);
  return a > 0 && s !== "0.00" ? `+${s}` : s === "-0.00" ? "0.00" : s;
}

/** A reward as tiles and the score card write it (outcome.reward, 4 decimals as `groups` prints). */
export const formatGroupReward = (r: number): string => r.toFixed(4);
