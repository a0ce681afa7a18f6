/**
 * The board page: per-task table (the report's means and deltas for one arm
 * against the baseline, sorted and filtered), the episode list (from small
 * rows; details load per task chunk), an episode's detail, and the compare
 * view `#compare/<task>/<arm A>/<arm B>`: one task's attempts of two arms
 * side by side, turn by turn. Existing deep links `#<episode_id>/<turn>` work.
 */
import type { BoardData, BoardEpisodeRow } from "../board/data.ts";
import type { PageEpisode } from "../model.ts";
import { badge, el, fmt, readJson } from "./dom.ts";
import { Chunks, PanoMedia } from "./board-media.ts";
import { outcomeBox, renderEpisode, turnCard, episodeMeta } from "./detail.ts";
import { compareHash, episodeHash, parseHash } from "./route.ts";
import { episodesByTask, filterRows, taskRows, type RowSortKey, type TaskFilters } from "./tasks.ts";
import { selectValues } from "./list.ts";
import { bindKeys } from "./keys.ts";

const PAGE_ROWS = 300;
const sgn = (x: number | null) => (x == null ? "–" : (x >= 0 ? "+" : "") + x.toFixed(4));

export function startBoard(): void {
  const doc = document;
  const data = readJson<BoardData>("gr-board-data");
  const byId = new Map<string, BoardEpisodeRow>();
  for (const e of data.episodes) if (!byId.has(e.id)) byId.set(e.id, e);
  const byTask = episodesByTask(data.episodes);
  const chunks = new Chunks();
  const media = new PanoMedia(data.pano.width, data.pano.height);
  const episodeOf = async (r: BoardEpisodeRow): Promise<PageEpisode | null> => (await chunks.get(r.chunk))[r.at] ?? null;

  function fill(s: HTMLSelectElement, values: string[]): void {
    for (const v of values) {
      const o = el("option", null, v) as HTMLOptionElement;
      o.value = v;
      s.appendChild(o);
    }
  }
  const epLink = (r: BoardEpisodeRow) => {
    const a = el("a", "ep-link", r.score.toFixed(3)) as HTMLAnchorElement;
    a.href = episodeHash(r.id, null);
    a.dataset.id = r.id;
    a.title = `${r.arm} · attempt ${r.sample ?? "?"} · episode ${r.id} · env reward ${fmt(r.env, 3)}`;
    return a;
  };

  // ---- per-task table ----
  const t = {
    arm: doc.getElementById("t-arm") as HTMLSelectElement,
    country: doc.getElementById("t-country") as HTMLSelectElement,
    verdict: doc.getElementById("t-verdict") as HTMLSelectElement,
    order: doc.getElementById("t-sort") as HTMLSelectElement,
  };
  const compared = data.arms.filter((a) => a !== data.baseline);
  fill(t.arm, compared.length ? compared : [data.baseline]);
  fill(t.country, selectValues(Object.values(data.countries)));
  fill(t.verdict, selectValues(data.episodes.map((e) => e.verdict)));
  const tBody = doc.getElementById("t-rows") as HTMLElement;
  (doc.querySelector("#gr-task-table .base-h") as HTMLElement).textContent = `${data.baseline} mean`;
  function renderTasks(): void {
    const arm = t.arm.value;
    const f: TaskFilters = { country: t.country.value, verdict: t.verdict.value, order: t.order.value as TaskFilters["order"] };
    const rows = taskRows(data, byTask, arm, f);
    const frag = doc.createDocumentFragment();
    for (const r of rows) {
      const tr = doc.createElement("tr");
      tr.dataset.task = String(r.index);
      tr.dataset.arm = arm;
      const c0 = el("td");
      const a = el("a", null, `task ${r.index}`) as HTMLAnchorElement;
      a.href = compareHash(r.index, arm, data.baseline);
      a.className = "cmp-link";
      a.title = `${arm} and ${data.baseline} side by side on task ${r.index}`;
      c0.appendChild(a);
      tr.appendChild(c0);
      tr.appendChild(el("td", null, r.country ?? "–"));
      const num = (stat: string, v: number | null, text: string) => {
        const td = el("td", null, text);
        td.dataset.stat = stat;
        td.dataset.value = v == null ? "" : String(v);
        tr.appendChild(td);
      };
      num("base_mean", r.baseMean, fmt(r.baseMean, 4));
      num("mean", r.mean, fmt(r.mean, 4));
      num("delta", r.delta, sgn(r.delta));
      if (r.delta != null) tr.lastElementChild!.className = r.delta > 0 ? "up" : r.delta < 0 ? "down" : "";
      for (const eps of [r.armEpisodes, r.baseEpisodes]) {
        const td = el("td", "attempts");
        eps.forEach((e) => {
          td.appendChild(epLink(e));
          td.appendChild(doc.createTextNode(" "));
        });
        tr.appendChild(td);
      }
      frag.appendChild(tr);
    }
    tBody.replaceChildren(frag);
    (doc.getElementById("t-count") as HTMLElement).textContent = `${rows.length} tasks`;
  }
  for (const s of Object.values(t)) s.addEventListener("input", renderTasks);
  doc.querySelector('#gr-task-table th[data-sort="delta"]')!.addEventListener("click", () => {
    t.order.value = t.order.value === "improved" ? "regressed" : "improved";
    renderTasks();
  });

  // ---- episode list (small rows; a page of them at a time) ----
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
  f.q.placeholder = "search episode ids and arms (press /)";
  f.q.setAttribute("aria-label", "search episode ids and arms");
  (f.model.options[0] as HTMLOptionElement).textContent = "all arms";
  fill(f.model, selectValues(data.episodes.map((e) => e.arm)));
  fill(f.country, selectValues(data.episodes.map((e) => e.country)));
  fill(f.verdict, selectValues(data.episodes.map((e) => e.verdict)));
  fill(f.status, selectValues(data.episodes.flatMap((e) => e.flags)));
  let sort: { key: RowSortKey; dir: 1 | -1 } | null = null;
  let shown: BoardEpisodeRow[] = data.episodes;
  let limit = PAGE_ROWS;
  let current: BoardEpisodeRow | null = null;
  let currentEp: PageEpisode | null = null;
  let currentTurn: number | null = null;

  function applyFilters(): void {
    shown = filterRows(
      data.episodes,
      {
        q: f.q.value.trim().toLowerCase(),
        arm: f.model.value,
        country: f.country.value,
        verdict: f.verdict.value,
        status: f.status.value,
        minScore: f.reward.value === "" ? null : Number(f.reward.value),
      },
      sort,
    );
    limit = PAGE_ROWS;
    renderRows();
  }
  function renderRows(): void {
    const frag = doc.createDocumentFragment();
    for (const e of shown.slice(0, limit)) {
      const tr = doc.createElement("tr");
      tr.dataset.id = e.id;
      tr.setAttribute("aria-selected", String(current !== null && current.id === e.id));
      tr.appendChild(el("td", "mono", e.id));
      tr.appendChild(el("td", "model", e.arm));
      tr.appendChild(el("td", "num", String(e.task)));
      tr.appendChild(el("td", null, e.country ?? "–"));
      tr.appendChild(el("td", "wide", e.verdict ?? "–"));
      tr.appendChild(el("td", "num", e.score.toFixed(3)));
      tr.appendChild(el("td", "num opt", fmt(e.env, 3)));
      tr.appendChild(el("td", "num", e.km == null ? "–" : Math.round(e.km).toLocaleString("en-US")));
      const st = el("td");
      st.appendChild(
        e.flags.indexOf("mismatch") >= 0 ? badge("mismatch", "mismatch") : e.flags.indexOf("view-error") >= 0 ? badge("error", "error") : badge("match", "✓"),
      );
      tr.appendChild(st);
      frag.appendChild(tr);
    }
    if (shown.length > limit) {
      const tr = doc.createElement("tr");
      tr.className = "more";
      const td = el("td", null, `show ${Math.min(PAGE_ROWS, shown.length - limit)} more of ${(shown.length - limit).toLocaleString("en-US")}`);
      (td as HTMLTableCellElement).colSpan = 9;
      tr.appendChild(td);
      frag.appendChild(tr);
    }
    list.replaceChildren(frag);
    countEl.textContent = `${shown.length} of ${data.episodes.length}`;
  }
  for (const k of Object.keys(f) as (keyof typeof f)[]) f[k].addEventListener("input", applyFilters);
  doc.querySelectorAll<HTMLElement>("table.episodes th[data-sort]").forEach((th) => {
    th.addEventListener("click", () => {
      const k = th.dataset.sort as RowSortKey;
      const dir = sort && sort.key === k ? (sort.dir === 1 ? -1 : 1) : k === "score" || k === "env" ? -1 : 1;
      sort = { key: k, dir };
      doc.querySelectorAll("table.episodes th[data-sort]").forEach((o) => o.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      applyFilters();
    });
  });
  list.addEventListener("click", (ev) => {
    const tr = (ev.target as HTMLElement).closest("tr");
    if (!tr) return;
    if (tr.classList.contains("more")) {
      limit += PAGE_ROWS;
      renderRows();
    } else if (tr.dataset.id) void go(tr.dataset.id, null, true);
  });

  // ---- episode detail ----
  const detail = doc.getElementById("gr-detail") as HTMLElement;
  const compare = doc.getElementById("gr-compare") as HTMLElement;
  function markTurn(turn: number | null, scroll: boolean): void {
    detail.querySelectorAll(".turn.current").forEach((n) => n.classList.remove("current"));
    currentTurn = turn;
    if (turn === null || !current) return;
    const card = detail.querySelector(`[id="t-${CSS.escape(current.id)}-${turn}"]`);
    if (!card) return;
    card.classList.add("current");
    card.setAttribute("aria-current", "step");
    if (scroll) card.scrollIntoView({ block: "start" });
  }
  const rewardLine = (r: BoardEpisodeRow) =>
    el("p", "meta", `reward ${r.score.toFixed(4)} (recomputed as geoeval report does) · env reward ${fmt(r.env, 4)} (the environment's stored reward)`);
  async function go(id: string, at: number | "first" | null, fromUser: boolean): Promise<void> {
    const r = byId.get(id);
    if (!r) {
      current = null;
      detail.replaceChildren(el("p", "empty", `Episode ${id} is not in this page.`));
      return;
    }
    if (current !== r) {
      current = r;
      const e = await episodeOf(r);
      if (current !== r) return;
      currentEp = e;
      if (!e) {
        detail.replaceChildren(el("p", "empty", `Episode ${id}: its detail is missing from this page.`));
        return;
      }
      const frag = renderEpisode(e, media, "env reward");
      frag.insertBefore(rewardLine(r), frag.childNodes[1]);
      detail.replaceChildren(frag);
      detail.dataset.episode = e.id;
      list.querySelectorAll("tr[data-id]").forEach((tr) => tr.setAttribute("aria-selected", String((tr as HTMLElement).dataset.id === id)));
    }
    const e = currentEp;
    if (!e) return;
    const turn = at === "first" ? (e.turns[0]?.turn ?? null) : at;
    const tn = turn !== null && e.turns.some((x) => x.turn === turn) ? turn : e.turns.length ? e.turns[0].turn : null;
    markTurn(tn, turn !== null || fromUser);
    if (fromUser && turn === null) detail.scrollIntoView({ block: "start" });
    const hash = episodeHash(id, tn !== null && turn !== null ? tn : null);
    if (fromUser && location.hash !== hash) history.replaceState(null, "", hash);
  }

  // ---- compare: one task, two arms, attempts side by side turn by turn ----
  async function showCompare(task: number, a: string, b: string): Promise<void> {
    const eps = byTask.get(task);
    const ra = eps?.get(a) ?? [];
    const rb = eps?.get(b) ?? [];
    compare.hidden = false;
    compare.dataset.task = String(task);
    compare.dataset.a = a;
    compare.dataset.b = b;
    const head = el("div", "cmp-head");
    head.appendChild(el("h2", null, `Task ${task}${data.countries[String(task)] ? " · " + data.countries[String(task)] : ""}: ${a} vs ${b}`));
    const tr = data.tasks.find((x) => x.index === task);
    const stat = (arm: string) => {
      const s = tr?.arms.find((x) => x.arm === arm);
      return s
        ? `${arm}: mean ${s.mean.toFixed(4)} over ${s.attempts}, best ${s.best.toFixed(4)}${s.delta != null ? `, delta ${sgn(s.delta)}` : arm === data.baseline ? " (baseline)" : ""}`
        : `${arm}: no attempt`;
    };
    head.appendChild(el("p", "meta", `${stat(a)} · ${stat(b)}`));
    const close = el("a", "close", "close") as HTMLAnchorElement;
    close.href = "#gr-tasks";
    head.appendChild(close);
    const body = el("div", "cmp-body");
    compare.replaceChildren(head, body);
    if (!ra.length && !rb.length) {
      body.appendChild(el("p", "empty", `Neither ${a} nor ${b} attempted task ${task} in this page.`));
      return;
    }
    const chunk = (ra[0] ?? rb[0]).chunk;
    const all = await chunks.get(chunk);
    if (compare.dataset.task !== String(task) || compare.dataset.a !== a || compare.dataset.b !== b) return;
    const k = Math.max(ra.length, rb.length);
    for (let j = 0; j < k; j++) {
      const pair = [ra[j] ?? null, rb[j] ?? null];
      const full = pair.map((r) => (r ? (all[r.at] ?? null) : null));
      const block = el("section", "cmp-attempt");
      block.dataset.attempt = String(j);
      const grid = el("div", "cmp-grid");
      pair.forEach((r, side) => {
        const col = el("div", "cmp-col");
        col.dataset.arm = side === 0 ? a : b;
        const e = full[side];
        if (!r || !e) {
          col.appendChild(el("p", "empty", `${side === 0 ? a : b}: no attempt ${j + 1}`));
        } else {
          col.dataset.episode = e.id;
          const h = el("h3");
          const link = el("a", null, `${r.arm} · attempt ${r.sample ?? j}`) as HTMLAnchorElement;
          link.href = episodeHash(e.id, null);
          h.appendChild(link);
          h.appendChild(badge("match", `reward ${r.score.toFixed(3)}`));
          h.appendChild(badge("muted", `env reward ${fmt(r.env, 3)}`));
          col.appendChild(h);
          col.appendChild(el("div", "meta", episodeMeta(e)));
          col.appendChild(outcomeBox(e, "env reward"));
        }
        grid.appendChild(col);
      });
      block.appendChild(grid);
      const turns = Math.max(...full.map((e) => (e ? e.turns.length : 0)));
      for (let i = 0; i < turns; i++) {
        const row = el("div", "cmp-grid cmp-turn");
        row.dataset.turnIndex = String(i);
        for (const e of full) {
          const cell = el("div", "cmp-col");
          const turn = e?.turns[i];
          if (e && turn) {
            const card = turnCard(e, turn, media);
            card.id = `c-${e.id}-${turn.turn}`;
            cell.appendChild(card);
          }
          row.appendChild(cell);
        }
        block.appendChild(row);
      }
      body.appendChild(block);
    }
    compare.scrollIntoView({ block: "start" });
  }

  function fromHash(followed: boolean): void {
    const r = parseHash(location.hash);
    if (!r) return;
    if (r.kind === "compare") {
      void showCompare(r.task, r.a, r.b);
      return;
    }
    if (!byId.has(r.id) && r.turn === null && doc.getElementById(r.id)) {
      if (r.id === "gr-tasks") compare.hidden = true;
      return;
    }
    void go(r.id, r.turn, false).then(() => {
      if (followed && r.turn === null && current) detail.scrollIntoView({ block: "start" });
    });
  }
  window.addEventListener("hashchange", () => fromHash(true));

  // ---- keyboard (keys.ts): j/k turn, n/p episode, / search ----
  bindKeys(doc, {
    open: () => (current && currentEp ? { id: current.id, turns: currentEp.turns.map((x) => x.turn), turn: currentTurn } : null),
    shown: () => shown.map((r) => r.id),
    go: (id, turn) => void go(id, turn, true),
    search: f.q,
  });

  renderTasks();
  applyFilters();
  if (location.hash) fromHash(false);
  doc.documentElement.dataset.ready = "1";
  (window as unknown as { grReadyAt: number }).grReadyAt = performance.now();
}
