/**
 * One GRPO group, `#group/<step>/<split>/<index>`: its siblings side by
 * side, ranked by advantage (highest first), each with the trainer's reward
 * and its components, its advantage, turns, distance, outcome map, and its
 * views and transcript turn by turn (the episode detail's own cards); the
 * group's mean and std above them, a zero-spread group flagged; and every
 * sibling's video on one clock (the player's tiles). Numbers ride in data
 * attributes at full precision (the text is rounded).
 */
import type { PageEpisode } from "../../../model.ts";
import type { PageGroup } from "../../../training.ts";
import type { ScaleRewards } from "../../../../../../../replay/groups/stats.ts";
import { badge, el, fmt, km } from "../../../../../../../src/page/client/dom.ts";
import { episodeHash, formatRoute } from "../../state/route.ts";
import { groupRoute, rankSiblings, type RankedSibling, type TrainIndex } from "../../state/training.ts";
import { runSource, tilesSlot } from "../../../player/hook.ts";
import { outcomeBox, turnCard, type Media } from "../detail/detail.ts";

/** The tiles player's key for a group (the hook's one current player). */
export const TILES = "group:";

export const signed = (x: number, d = 3): string => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(d);

/** Each sibling's byte-identical siblings, by rank: rank -> the other ranks of its set. */
export function identicalByRank(g: Pick<PageGroup, "identical" | "ranks">): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const set of g.identical) {
    const ranks = set.map((i) => g.ranks[i]).sort((a, b) => a - b);
    for (const r of ranks)
      out.set(
        r,
        ranks.filter((x) => x !== r),
      );
  }
  return out;
}

/** The group's numbers: size, mean, std, zero spread, and how its advantages were computed. */
export function groupFacts(g: PageGroup, scale: string): HTMLElement {
  const p = el("p", "train-facts group-facts");
  const stat = (key: string, label: string, value: number | null, text: string) => {
    const s = el("span", "stat", `${label} `);
    s.dataset.stat = key;
    s.dataset.value = value === null ? "" : String(value);
    s.appendChild(el("b", null, text));
    p.appendChild(s);
    p.appendChild(document.createTextNode(" · "));
  };
  stat("size", "siblings", g.size, String(g.size));
  stat("mean", "mean env reward", g.mean, g.mean.toFixed(4));
  stat("std", "std", g.std, g.std === null ? "none (one rollout)" : g.std.toFixed(4));
  if (g.group_id !== null) p.appendChild(document.createTextNode(`group_id ${g.group_id} · `));
  p.appendChild(
    document.createTextNode(
      scale === "none" ? "advantage = r − mean" : `advantage = (r − mean) / (${scale === "batch" ? "the step's std" : "std"} + 1e-4) (scale_rewards ${scale})`,
    ),
  );
  if (g.zero_std) p.appendChild(badge("warn", "zero spread: every sibling scored the same, no learning signal"));
  if (g.identical.length) {
    const sets = g.identical.map((set) =>
      set
        .map((i) => g.ranks[i])
        .sort((a, b) => a - b)
        .map((r) => `#${r}`)
        .join(" = "),
    );
    const b = badge("warn", `identical siblings: ${sets.join("; ")}`);
    b.classList.add("identical");
    b.title = "byte-identical trajectories (the same actions and views): they score alike, which is where zero spread comes from";
    p.appendChild(b);
  } else if (g.std === null) p.appendChild(badge("muted", "a group of one: advantage 0"));
  return p;
}

/** A sibling's column head: rank, advantage, the trainer's reward and its parts, turns, distance, outcome. */
function siblingHead(s: RankedSibling, e: PageEpisode | null, twins: number[]): DocumentFragment {
  const f = document.createDocumentFragment();
  const h = el("h3");
  const a = el("a", null, `#${s.rank} · ${s.id}`) as HTMLAnchorElement;
  a.href = episodeHash(s.id, null);
  h.appendChild(a);
  h.appendChild(badge(s.advantage > 0 ? "match" : s.advantage < 0 ? "mismatch" : "muted", `advantage ${signed(s.advantage)}`));
  if (twins.length) {
    const b = badge("warn", `identical to ${twins.map((r) => `#${r}`).join(", ")}`);
    b.title = "byte-identical trajectory: the same actions and the same views, turn by turn (so the same reward)";
    h.appendChild(b);
  }
  f.appendChild(h);
  // Where it is (file:line), the one numbering `groups --detail` and `render --group` share.
  if (e) f.appendChild(el("p", "meta sib-source mono", e.source));
  const kv = el("div", "kv sib-numbers");
  const item = (key: string, label: string, text: string, value: number | null) => {
    const span = el("span", null, `${label} `);
    span.dataset.stat = key;
    span.dataset.value = value === null ? "" : String(value);
    span.appendChild(el("b", null, text));
    kv.appendChild(span);
  };
  item("reward", "env reward (outcome.reward, the trainer's)", s.reward.toFixed(4), s.reward);
  if (e) {
    item("distance", "distance", km(e.distanceKm), e.distanceKm);
    item("cost", "action cost", fmt(e.cost, 2), e.cost);
    item("turns", "turns", String(e.turnsUsed), e.turnsUsed);
    item("geoeval", "reward (geoeval's)", e.score.toFixed(4), e.score);
  }
  f.appendChild(kv);
  if (e) f.appendChild(outcomeBox(e));
  else f.appendChild(el("p", "empty", `${s.id}: its detail is missing from this page.`));
  return f;
}

/**
 * The siblings side by side: one column each, ranked; then their turns row
 * by row (turn i of every sibling on one row), with the tiles player above.
 */
export function renderGroup(g: PageGroup, episodes: (PageEpisode | null)[], media: Media, scale: ScaleRewards = "group"): DocumentFragment {
  const frag = document.createDocumentFragment();
  const ranked = rankSiblings(g);
  const ordered = ranked.map((s) => episodes[s.at]);
  const twins = identicalByRank(g);
  const slot = tilesSlot(
    `${TILES}${g.run}/${g.step}/${g.task.split}/${g.task.index}/${g.group_id ?? ""}`,
    () => ({
      ids: ranked.map((s) => s.id),
      labels: ranked.map((s) => `#${s.rank} · advantage ${signed(s.advantage)} · env reward ${s.reward.toFixed(3)}`),
      // The folder form: each sibling plays from its loaded detail's PlayRecord.
      sources: ordered.map(runSource),
      // The score card after the tiles: the group video's, numbered by rank as the tiles are.
      group: {
        info: {
          run: g.run,
          step: g.step,
          split: g.task.split,
          index: g.task.index,
          groupId: g.group_id,
          scaleRewards: scale,
          mean: g.mean,
          std: g.std,
          zeroStd: g.zero_std,
        },
        siblings: ranked.map((s, i) => ({ reward: s.reward, advantage: s.advantage, rollout: ordered[i]?.source ?? s.id })),
      },
    }),
    `▶ Play the ${g.size} siblings on one clock`,
  );
  if (slot) frag.appendChild(slot);
  // Every row is a grid of one column per sibling; the rows scroll sideways together when they do not fit.
  const scroll = el("div", "grp-scroll");
  const grid = el("div", "grp-grid grp-heads");
  ranked.forEach((s, i) => {
    const col = el("div", "grp-col");
    col.dataset.episode = s.id;
    col.dataset.rank = String(s.rank);
    col.dataset.advantage = String(s.advantage);
    col.dataset.reward = String(s.reward);
    if (twins.has(s.rank)) col.dataset.identical = twins.get(s.rank)!.join(" ");
    col.appendChild(siblingHead(s, ordered[i], twins.get(s.rank) ?? []));
    grid.appendChild(col);
  });
  scroll.appendChild(grid);
  const turns = Math.max(0, ...ordered.map((e) => (e ? e.turns.length : 0)));
  for (let t = 0; t < turns; t++) {
    const row = el("div", "grp-grid grp-turn");
    row.dataset.turnIndex = String(t);
    for (const e of ordered) {
      const cell = el("div", "grp-col");
      const turn = e?.turns[t];
      if (e && turn) {
        const card = turnCard(e, turn, media);
        card.id = `g-${e.id}-${turn.turn}`;
        cell.appendChild(card);
      }
      row.appendChild(cell);
    }
    scroll.appendChild(row);
  }
  frag.appendChild(scroll);
  return frag;
}

/** An episode's line under its heading on a training page: its group, advantage and rank, one click from the siblings. */
export function groupLine(ix: TrainIndex, id: string): HTMLElement | null {
  const hit = ix.byEpisode.get(id);
  if (!hit) return null;
  const g = hit.group;
  const me = rankSiblings(g).find((s) => s.at === hit.at)!;
  const p = el("p", "meta group-line");
  p.appendChild(document.createTextNode(`GRPO group `));
  const a = el("a", null, `${g.task.split}/${g.task.index} at step ${g.step}`) as HTMLAnchorElement;
  a.href = "#" + formatRoute(groupRoute(ix, g));
  p.appendChild(a);
  p.appendChild(
    document.createTextNode(
      ` · advantage ${signed(me.advantage)} (rank ${me.rank} of ${g.size}) · group mean ${g.mean.toFixed(4)}, std ${g.std === null ? "none" : g.std.toFixed(4)}`,
    ),
  );
  if (g.zero_std) p.appendChild(badge("warn", "zero spread"));
  return p;
}
