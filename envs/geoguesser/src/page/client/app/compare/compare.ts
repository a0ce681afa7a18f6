/**
 * The compare view, `#compare/<task>/<A>/<B>`: any two arms' attempts at one
 * task, side by side turn by turn, paired by attempt number (pair.ts). The
 * header carries a picker for both arms and the report's numbers for each,
 * over exactly the counted attempts listed; attempts geoeval does not count
 * are listed apart with the reason. An arm the board does not have gets a
 * message naming the arms it has. Each pair of attempts plays as the two-up
 * video (the Compare composition `render --versus` encodes), both on one
 * clock; `#compare/<task>/<A>/<B>/t=<seconds>` opens the first pair's at a moment.
 */
import type { BoardData, BoardEpisodeRow, CompareMaps, TaskChunk } from "../../../board/data.ts";
import type { MapSpec } from "../../../../../../../src/page/geo.ts";
import type { PageEpisode } from "../../../model.ts";
import { isErrored, rewardText } from "../../../list-row.ts";
import { badge, el, fmt } from "../../../../../../../src/page/client/dom.ts";
import type { Store, PageState } from "../../state/store.ts";
import { compareHash, episodeHash } from "../../state/route.ts";
import { playerSlot, startPlayer, stopPlayer } from "../../../player/hook.ts";
import { outcomeBox, turnCard, episodeMeta, type Media } from "../detail/detail.ts";
import { pairAttempts } from "./pair.ts";

/** The two-up player's id prefix (the hook's one current player may be an episode's). */
const TWO_UP = "compare:";

const sgn = (x: number | null) => (x == null ? "–" : (x >= 0 ? "+" : "") + x.toFixed(4));

export class CompareView {
  private readonly root: HTMLElement;
  private readonly tasks: number[];
  /** The episodes the view shows, by id (the two-up player's sides). */
  private readonly shown = new Map<string, PageEpisode>();

  constructor(
    private readonly doc: Document,
    private readonly store: Store,
    private readonly data: BoardData,
    private readonly byTask: Map<number, Map<string, BoardEpisodeRow[]>>,
    private readonly chunk: (chunk: number) => Promise<TaskChunk>,
    private readonly media: Media,
  ) {
    this.root = doc.getElementById("gr-compare") as HTMLElement;
    this.tasks = data.tasks.map((t) => t.index);
    store.subscribe((s, prev) => {
      if (s.route.kind === "compare") void this.render(s, prev);
      else if (prev.route.kind === "compare") {
        this.root.hidden = true;
        stopPlayer(TWO_UP); // a two-up playing in a closed view would go on painting
      }
    });
  }

  get open(): boolean {
    return !this.root.hidden;
  }

  /** Next/previous task with the same two arms. */
  stepTask(d: number): void {
    const r = this.store.get().route;
    if (r.kind !== "compare") return;
    const i = this.tasks.indexOf(r.task);
    const next = this.tasks[Math.min(this.tasks.length - 1, Math.max(0, (i < 0 ? 0 : i) + d))];
    if (next !== undefined && next !== r.task) this.store.set({ route: { kind: "compare", task: next, a: r.a, b: r.b } });
  }

  /** Next/previous attempt row inside the view. */
  stepAttempt(d: number): void {
    const blocks = Array.from(this.root.querySelectorAll<HTMLElement>(".cmp-attempt"));
    if (!blocks.length) return;
    const cur = blocks.findIndex((b) => b.classList.contains("current"));
    const i = cur < 0 ? 0 : Math.min(blocks.length - 1, Math.max(0, cur + d));
    blocks.forEach((b, j) => b.classList.toggle("current", j === i));
    blocks[i].scrollIntoView({ block: "start" });
  }

  close(): void {
    this.store.set({ route: { kind: "none" } });
    this.doc.getElementById("gr-tasks")?.scrollIntoView({ block: "start" });
  }

  private picker(label: string, value: string, side: "a" | "b"): HTMLElement {
    const s = el("select", "cmp-pick") as HTMLSelectElement;
    s.setAttribute("aria-label", label);
    s.dataset.side = side;
    const arms = this.data.arms.includes(value) ? this.data.arms : [value, ...this.data.arms];
    for (const a of arms) {
      const o = el("option", null, this.data.arms.includes(a) ? a : `${a} (not on this board)`) as HTMLOptionElement;
      o.value = a;
      s.appendChild(o);
    }
    s.value = value;
    s.addEventListener("input", () => {
      const r = this.store.get().route;
      if (r.kind !== "compare") return;
      const { t: _, ...rest } = r;
      this.store.set({ route: side === "a" ? { ...rest, a: s.value } : { ...rest, b: s.value } });
    });
    return s;
  }

  async render(s: PageState, prev: PageState | null): Promise<void> {
    const r = s.route;
    if (r.kind !== "compare") return;
    const { task, a, b } = r;
    if (prev && prev.route.kind === "compare" && prev.route.task === task && prev.route.a === a && prev.route.b === b && !this.root.hidden) {
      if (r.t !== undefined && r.t !== prev.route.t) this.playAt(r.t);
      return;
    }
    const data = this.data;
    this.root.hidden = false;
    this.root.dataset.task = String(task);
    this.root.dataset.a = a;
    this.root.dataset.b = b;
    const head = el("div", "cmp-head");
    const country = data.countries[String(task)];
    head.appendChild(el("h2", null, `Task ${task}${country ? " · " + country : ""}: ${a} vs ${b}`));
    const pick = el("div", "cmp-picker");
    pick.appendChild(el("span", null, "compare "));
    pick.appendChild(this.picker("arm A", a, "a"));
    pick.appendChild(el("span", null, " with "));
    pick.appendChild(this.picker("arm B", b, "b"));
    pick.appendChild(el("span", "keys", " · keys: n/p next/previous task, j/k next/previous attempt, Esc closes"));
    head.appendChild(pick);
    const close = el("button", "close", "close") as HTMLButtonElement;
    close.type = "button";
    close.addEventListener("click", () => this.close());
    head.appendChild(close);
    const body = el("div", "cmp-body");
    this.root.replaceChildren(head, body);
    this.root.scrollIntoView({ block: "start" });

    const unknown = [a, b].filter((x) => !data.arms.includes(x));
    if (unknown.length) {
      const msg = el(
        "p",
        "errors cmp-unknown",
        `No arm named ${unknown.map((x) => `“${x}”`).join(" or ")} on this board. Its arms are: ${data.arms.join(", ")}. Pick two above.`,
      );
      body.appendChild(msg);
      return;
    }
    if (!data.tasks.some((t) => t.index === task) && !this.byTask.has(task)) {
      body.appendChild(el("p", "errors", `No task ${task} on this board (tasks ${this.tasks[0]}–${this.tasks[this.tasks.length - 1]}).`));
      return;
    }
    const ra = this.byTask.get(task)?.get(a) ?? [];
    const rb = this.byTask.get(task)?.get(b) ?? [];
    const pairing = pairAttempts(ra, rb);
    const tr = data.tasks.find((x) => x.index === task);
    const stat = (arm: string, listed: number) => {
      const st = tr?.arms.find((x) => x.arm === arm);
      if (!st) return `${arm}: no counted attempt`;
      // The report's delta is against the page's baseline; without one it is not shown (the report's default pairing is not this page's).
      const d =
        data.baseline === null ? "" : st.delta != null ? `, delta ${sgn(st.delta)} vs ${data.baseline}` : arm === data.baseline ? ` (the baseline)` : "";
      return `${arm}: mean ${st.mean.toFixed(4)} over ${st.attempts} counted attempt${st.attempts === 1 ? "" : "s"} (${listed} listed), best ${st.best.toFixed(4)}${d}`;
    };
    const stats = el("p", "meta cmp-stats", `${stat(a, pairing.counted.a)} · ${stat(b, pairing.counted.b)}`);
    if (pairing.uncounted.length) stats.appendChild(this.doc.createTextNode(` · ${pairing.uncounted.length} not counted, listed below`));
    head.insertBefore(stats, close);
    if (!ra.length && !rb.length) {
      body.appendChild(el("p", "empty", `Neither ${a} nor ${b} attempted task ${task} in this page.`));
      return;
    }
    // The task's chunk holds its compare maps; a served board's live attempts are in their own chunks.
    const first = (ra[0] ?? rb[0]).chunk;
    const { compare: maps } = await this.chunk(first);
    const chunks = new Map<number, PageEpisode[]>();
    for (const c of new Set([...ra, ...rb].map((r) => r.chunk))) chunks.set(c, (await this.chunk(c)).episodes);
    const now = this.store.get().route;
    if (now.kind !== "compare" || now.task !== task || now.a !== a || now.b !== b) return;
    this.shown.clear();
    for (const p of pairing.rows) {
      const pair = [p.a, p.b];
      const full = pair.map((x) => (x ? (chunks.get(x.chunk)?.[x.at] ?? null) : null));
      for (const e of full) if (e) this.shown.set(e.id, e);
      const block = el("section", "cmp-attempt");
      block.dataset.attempt = p.sample === null ? "" : String(p.sample);
      block.dataset.record = String(p.record);
      const label = `attempt ${p.sample ?? "?"}${p.records > 1 ? ` · record ${p.record + 1} of ${p.records}` : ""}`;
      block.appendChild(el("h3", "cmp-label", label));
      const grid = el("div", "cmp-grid");
      pair.forEach((x, side) => {
        const arm = side === 0 ? a : b;
        const col = el("div", "cmp-col");
        col.dataset.arm = arm;
        const e = full[side];
        if (!x || !e) col.appendChild(el("p", "empty", `${arm}: no counted ${label}`));
        else {
          col.dataset.episode = e.id;
          col.appendChild(this.attemptHead(x, e, maps));
        }
        grid.appendChild(col);
      });
      block.appendChild(grid);
      const [ea, eb] = full;
      if (ea && eb) {
        const slot = playerSlot(
          `${TWO_UP}${ea.id}:${eb.id}`,
          { source: { kind: "compare", a: ea, b: eb }, link: (t) => compareHash(task, a, b, t) },
          "▶ Play both attempts (two-up video)",
        );
        if (slot) {
          slot.dataset.a = ea.id;
          slot.dataset.b = eb.id;
          block.insertBefore(slot, grid);
        }
      }
      const turns = Math.max(...full.map((e) => (e ? e.turns.length : 0)));
      for (let i = 0; i < turns; i++) {
        const row = el("div", "cmp-grid cmp-turn");
        row.dataset.turnIndex = String(i);
        for (const e of full) {
          const cell = el("div", "cmp-col");
          const turn = e?.turns[i];
          if (e && turn) {
            const card = turnCard(e, turn, this.media);
            card.id = `c-${e.id}-${turn.turn}`;
            cell.appendChild(card);
          }
          row.appendChild(cell);
        }
        block.appendChild(row);
      }
      body.appendChild(block);
    }
    if (pairing.uncounted.length) {
      const sec = el("section", "cmp-uncounted");
      sec.appendChild(el("h3", null, `Not counted (${pairing.uncounted.length})`));
      const ul = el("ul");
      for (const u of pairing.uncounted) {
        const li = el("li");
        li.dataset.episode = u.row.id;
        li.dataset.arm = u.row.arm;
        const link = el("a", null, `${u.row.arm} · attempt ${u.row.sample ?? "?"} · episode ${u.row.id}`) as HTMLAnchorElement;
        link.href = episodeHash(u.row.id, null);
        li.appendChild(link);
        li.appendChild(this.doc.createTextNode(` · reward ${rewardText(u.row, 4)} · ${u.why}`));
        ul.appendChild(li);
      }
      sec.appendChild(ul);
      body.appendChild(sec);
    }
    if (r.t !== undefined) this.playAt(r.t);
  }

  /** The first pair's two-up video at a moment (a `…/t=<seconds>` link). */
  private playAt(t: number): void {
    const slot = this.root.querySelector<HTMLElement>(".cmp-attempt .player-slot");
    const ea = slot?.dataset.a !== undefined ? this.shown.get(slot.dataset.a) : undefined;
    const eb = slot?.dataset.b !== undefined ? this.shown.get(slot.dataset.b) : undefined;
    if (!slot || !ea || !eb) return;
    const r = this.store.get().route;
    if (r.kind !== "compare") return;
    startPlayer(slot, slot.dataset.playerFor!, { at: t, source: { kind: "compare", a: ea, b: eb }, link: (s) => compareHash(r.task, r.a, r.b, s) });
    slot.scrollIntoView({ block: "start" });
  }

  private attemptHead(x: BoardEpisodeRow, e: PageEpisode, maps: CompareMaps | undefined): DocumentFragment {
    const f = this.doc.createDocumentFragment();
    const col = f;
    const h = el("h3");
    const link = el("a", null, `${x.arm} · attempt ${x.sample ?? "?"}`) as HTMLAnchorElement;
    link.href = episodeHash(e.id, null);
    h.appendChild(link);
    h.appendChild(badge(isErrored(x) ? "error" : "match", `reward ${rewardText(x, 4)}`));
    h.appendChild(badge("muted", `env reward ${fmt(x.env, 4)}`));
    col.appendChild(h);
    col.appendChild(el("div", "meta", `${episodeMeta(e)} · ${e.id}`));
    // Both sides in the task's one frame (every arm's guess fits it): the pair reads at one scale.
    col.appendChild(outcomeBox(e, (maps && compareMap(maps, e.id)) ?? e.outcomeMap));
    return f;
  }
}

/** An episode's map in its task's shared frame. */
function compareMap(maps: CompareMaps, id: string): MapSpec | null {
  const m = maps.maps[id];
  const paint = m ? maps.paints[m.paint] : undefined;
  return m && paint ? { ...paint, size: m.size, prims: m.prims, has: m.has } : null;
}
