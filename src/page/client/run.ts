/**
 * The run page: the episode list (filtered, sorted) and an episode's detail,
 * with deep links and keyboard navigation.
 */
import type { PageEpisode } from "../model.ts";
import { badge, el, readJson } from "./dom.ts";
import { LazyImages } from "./images.ts";
import { filterAndSort, nextSortDir, searchText, selectValues, type ListFilters, type SortKey } from "./list.ts";
import { renderEpisode } from "./detail.ts";
import { episodeHash, parseHash } from "./route.ts";
import { bindKeys } from "./keys.ts";
import { currentPlayer, parseTimeHash, playerSlot, startPlayer } from "../player/hook.ts";

export function startRun(): void {
  const doc = document;
  const episodes = readJson<PageEpisode[]>("gr-episodes");
  const byId = new Map<string, PageEpisode>();
  for (const e of episodes) if (!byId.has(e.id)) byId.set(e.id, e);
  const images = new LazyImages("gr-images");

  // ---- episode list: sort and filter ----
  const list = doc.getElementById("gr-rows") as HTMLTableSectionElement;
  const countEl = doc.getElementById("gr-count") as HTMLElement;
  const f = {
    q: doc.getElementById("f-q") as HTMLInputElement,
    model: doc.getElementById("f-model") as HTMLSelectElement,
    country: doc.getElementById("f-country") as HTMLSelectElement,
    verdict: doc.getElementById("f-verdict") as HTMLSelectElement,
    status: doc.getElementById("f-status") as HTMLSelectElement,
    reward: doc.getElementById("f-reward") as HTMLInputElement,
  };
  function fillSelect(s: HTMLSelectElement, values: (string | null)[]): void {
    for (const v of selectValues(values)) {
      const o = el("option", null, v) as HTMLOptionElement;
      o.value = v;
      s.appendChild(o);
    }
  }
  fillSelect(
    f.model,
    episodes.map((e) => e.model),
  );
  if (f.model.options.length <= 2) (list.parentElement as HTMLElement).classList.add("one-model");
  fillSelect(
    f.country,
    episodes.map((e) => e.country),
  );
  fillSelect(
    f.verdict,
    episodes.map((e) => e.verdict),
  );
  fillSelect(
    f.status,
    episodes.flatMap((e) => e.flags),
  );

  const haystacks = new Map<PageEpisode, string>();
  function haystack(e: PageEpisode): string {
    let h = haystacks.get(e);
    if (h === undefined) haystacks.set(e, (h = searchText(e)));
    return h;
  }
  let sort: { key: SortKey; dir: 1 | -1 } | null = null;
  let shown: PageEpisode[] = episodes.slice();
  const rowOf = new Map<string, HTMLTableRowElement>();
  let current: PageEpisode | null = null;
  let currentTurn: number | null = null;

  function currentFilters(): ListFilters {
    return {
      q: f.q.value.trim().toLowerCase(),
      model: f.model.value,
      country: f.country.value,
      verdict: f.verdict.value,
      status: f.status.value,
      minReward: f.reward.value === "" ? null : Number(f.reward.value),
    };
  }
  function applyFilters(): void {
    shown = filterAndSort(episodes, currentFilters(), sort, haystack);
    renderRows();
  }
  function renderRows(): void {
    const frag = doc.createDocumentFragment();
    rowOf.clear();
    for (const e of shown) {
      const tr = doc.createElement("tr");
      tr.dataset.id = e.id;
      tr.setAttribute("aria-selected", String(current !== null && current.id === e.id));
      tr.appendChild(el("td", "mono", e.id));
      tr.appendChild(el("td", "model", e.model));
      tr.appendChild(el("td", null, e.country ?? "–"));
      tr.appendChild(el("td", "wide", e.verdict ?? "–"));
      tr.appendChild(el("td", "num", e.reward == null ? "–" : e.reward.toFixed(3)));
      tr.appendChild(el("td", "num", e.distanceKm == null ? "–" : Math.round(e.distanceKm).toLocaleString("en-US")));
      tr.appendChild(el("td", "num opt", String(e.turnsUsed)));
      const st = el("td");
      if (e.flags.indexOf("mismatch") >= 0) st.appendChild(badge("mismatch", "mismatch"));
      else if (e.flags.indexOf("view-error") >= 0) st.appendChild(badge("error", "error"));
      else if (e.flags.indexOf("overwritten-images") >= 0) st.appendChild(badge("warn", "overwritten"));
      else if (e.format === "example") st.appendChild(badge("muted", "recorded"));
      else st.appendChild(badge("match", "✓"));
      tr.appendChild(st);
      rowOf.set(e.id, tr);
      frag.appendChild(tr);
    }
    list.replaceChildren(frag);
    countEl.textContent = `${shown.length} of ${episodes.length}`;
  }
  for (const k of Object.keys(f) as (keyof typeof f)[]) f[k].addEventListener("input", applyFilters);
  doc.querySelectorAll<HTMLElement>("table.episodes th[data-sort]").forEach((th) => {
    th.addEventListener("click", () => {
      const k = th.dataset.sort as SortKey;
      sort = { key: k, dir: nextSortDir(sort ? sort.key : null, sort ? sort.dir : 1, k) };
      doc.querySelectorAll("table.episodes th[data-sort]").forEach((o) => o.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", sort.dir > 0 ? "ascending" : "descending");
      applyFilters();
    });
  });
  list.addEventListener("click", (ev) => {
    const tr = (ev.target as HTMLElement).closest("tr");
    if (tr && tr.dataset.id) go(tr.dataset.id, null, true);
  });

  // ---- episode detail ----
  const detail = doc.getElementById("gr-detail") as HTMLElement;

  function markTurn(turn: number | null, scroll: boolean): void {
    detail.querySelectorAll(".turn.current").forEach((n) => n.classList.remove("current"));
    currentTurn = turn;
    if (turn === null || !current) return;
    const card = doc.getElementById(`t-${current.id}-${turn}`);
    if (!card) return;
    card.classList.add("current");
    card.setAttribute("aria-current", "step");
    if (scroll) card.scrollIntoView({ block: "start" });
  }

  /** Opens an episode (and a turn), updating the address for deep links. */
  function go(id: string, at: number | "first" | null, fromUser: boolean): void {
    const e = byId.get(id);
    if (!e) {
      current = null;
      detail.replaceChildren(el("p", "empty", `Episode ${id} is not in this page.`));
      return;
    }
    if (current !== e) {
      current = e;
      detail.replaceChildren(renderEpisode(e, images));
      // The player sits under the episode's heading; the transcript follows it.
      const slot = playerSlot(e.id, { onTurn: (t) => markTurn(t, false) });
      if (slot) detail.insertBefore(slot, detail.children[1] ?? null);
      detail.dataset.episode = e.id;
      rowOf.forEach((tr, k) => tr.setAttribute("aria-selected", String(k === id)));
      const tr = rowOf.get(id);
      if (tr) tr.scrollIntoView({ block: "nearest" });
    }
    const turn = at === "first" ? (e.turns[0]?.turn ?? null) : at;
    const t = turn !== null && e.turns.some((x) => x.turn === turn) ? turn : e.turns.length ? e.turns[0].turn : null;
    markTurn(t, turn !== null || fromUser);
    if (fromUser && turn === null) detail.scrollIntoView({ block: "start" });
    const hash = episodeHash(id, t !== null && turn !== null ? t : null);
    if (fromUser && location.hash !== hash) history.replaceState(null, "", hash);
  }

  function fromHash(followed: boolean): void {
    const moment = parseTimeHash(location.hash);
    if (moment && byId.has(moment.id)) {
      go(moment.id, null, false);
      const slot = detail.querySelector<HTMLElement>(".player-slot");
      if (slot) startPlayer(slot, moment.id, { at: moment.t, onTurn: (t) => markTurn(t, false) });
      slot?.scrollIntoView({ block: "start" });
      return;
    }
    const r = parseHash(location.hash);
    if (!r || r.kind !== "episode") return;
    // Anchors inside the page (a training step's row) are the browser's to scroll to.
    if (!byId.has(r.id) && r.turn === null && doc.getElementById(r.id)) return;
    go(r.id, r.turn, false);
    // A followed link (sweep or step tables) opens the episode where it can be seen.
    if (followed && r.turn === null && current) detail.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", () => fromHash(true));
  // Clicking a turn's card seeks a started player to the turn's start.
  detail.addEventListener("click", (ev) => {
    const card = (ev.target as HTMLElement).closest<HTMLElement>(".turn");
    if (card?.dataset.turn && current) currentPlayer(current.id)?.seekTurn(Number(card.dataset.turn));
  });

  // ---- keyboard (keys.ts): j/k turn, n/p episode, / search ----
  bindKeys(doc, {
    open: () => (current ? { id: current.id, turns: current.turns.map((t) => t.turn), turn: currentTurn } : null),
    shown: () => shown.map((e) => e.id),
    go: (id, turn) => go(id, turn, true),
    search: f.q,
  });

  applyFilters();
  if (location.hash) fromHash(false);
  else if (episodes.length && window.matchMedia("(min-width: 821px)").matches) go(shown[0].id, null, false);
  doc.documentElement.dataset.ready = "1";
  (window as unknown as { grReadyAt: number }).grReadyAt = performance.now();
}
