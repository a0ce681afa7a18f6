/**
 * The open episode, rendered from the store's route (`#<id>` or
 * `#<id>/<turn>`): its detail, the current turn marked and scrolled to,
 * search matches highlighted. Both pages use it; where an episode comes
 * from (the run page's JSON, the board's task chunks) is the source's.
 */
import { el } from "../../../../../../../src/page/client/dom.ts";
import type { PageEpisode } from "../../../model.ts";
import type { Store, PageState } from "../../state/store.ts";
import { renderEpisode, type Media } from "./detail.ts";
import { highlight } from "./highlight.ts";

export interface EpisodeSource {
  has(id: string): boolean;
  get(id: string): PageEpisode | null | Promise<PageEpisode | null>;
  /** Board pages: the reward line above the outcome (geoeval's, and whether it is counted). */
  header?(e: PageEpisode): HTMLElement | null;
}

/** What another feature adds to the open episode once it is shown (the run page's player). */
export interface DetailHooks {
  /** After every render of an episode; `fresh` when its detail was just built. */
  shown?(e: PageEpisode, root: HTMLElement, s: PageState, fresh: boolean): void;
}

export class DetailView {
  current: PageEpisode | null = null;
  currentTurn: number | null = null;
  private shownId: string | null = null;
  private readonly root: HTMLElement;

  constructor(
    private readonly doc: Document,
    private readonly store: Store,
    private readonly source: EpisodeSource,
    private readonly media: Media,
    private readonly hooks: DetailHooks = {},
  ) {
    this.root = doc.getElementById("gr-detail") as HTMLElement;
    store.subscribe((s, prev) => void this.render(s, prev));
  }

  /** Opens an episode at a turn, as a user action (a new history entry when the episode changes). */
  open(id: string, turn: number | "first" | null): void {
    const e = this.current && this.current.id === id ? this.current : null;
    const t = turn === "first" ? (e?.turns[0]?.turn ?? 0) : turn;
    this.scrollOnRender = true;
    this.store.set({ route: { kind: "episode", id, turn: t } });
  }

  /**
   * Shows an episode without moving the page: the first row, opened when the address names none.
   * The reader is at the page's top, reading its header and charts (scrolling to the detail once
   * a folder page's rows arrived pulled them away seconds into reading).
   */
  showQuietly(id: string): void {
    this.quietId = id;
    this.store.set({ route: { kind: "episode", id, turn: null } }, "none");
  }

  private scrollOnRender = false;
  private quietId: string | null = null;
  /** The address's episode when the source did not hold it (a served page's new episodes come after it opened). */
  private missing: string | null = null;
  /** A served page whose stream has not yet caught up: an episode not held may be on its way. */
  private waiting = false;

  /** A served page: while its stream catches up, an address's episode not held yet is being read, not absent. */
  setWaiting(waiting: boolean): void {
    this.waiting = waiting;
    if (!waiting) this.retry(true);
  }

  /**
   * The source grew (a served page's stream): an address naming an episode it did not hold
   * (a deep link, a reload, a second tab) opens now. True when it did.
   */
  grew(): boolean {
    return this.retry(false);
  }

  private retry(always: boolean): boolean {
    const id = this.missing;
    const r = this.store.get().route;
    if (id === null || (r.kind !== "episode" && r.kind !== "moment") || r.id !== id) return false;
    if (!always && !this.source.has(id)) return false;
    this.shownId = null;
    void this.render(this.store.get(), null);
    return this.source.has(id);
  }

  async render(s: PageState, prev: PageState | null): Promise<void> {
    // A moment (#<id>/t=<s>) shows its episode; the player's hook takes it from there.
    const r = s.route.kind === "moment" ? { kind: "episode" as const, id: s.route.id, turn: null } : s.route;
    if (r.kind !== "episode") return;
    let fresh = false;
    // Anchors inside the page (a training step's row, a section) are the browser's to scroll to.
    if (!this.source.has(r.id) && r.turn === null && this.doc.getElementById(r.id)) return;
    const qChanged = !prev || (prev.query.q ?? "") !== (s.query.q ?? "");
    if (r.id !== this.shownId || qChanged) {
      this.shownId = r.id;
      if (!this.source.has(r.id)) {
        this.current = null;
        this.missing = r.id;
        const why = this.waiting ? `Episode ${r.id}: reading the server's new episodes…` : `Episode ${r.id} is not in this page.`;
        this.root.replaceChildren(el("p", "empty", why));
        return;
      }
      this.missing = null;
      const e = await this.source.get(r.id);
      const now = this.store.get().route;
      if ((now.kind !== "episode" && now.kind !== "moment") || now.id !== r.id) return;
      this.current = e;
      if (!e) {
        this.root.replaceChildren(el("p", "empty", `Episode ${r.id}: its detail is missing from this page.`));
        return;
      }
      const frag = renderEpisode(e, this.media);
      const extra = this.source.header?.(e);
      if (extra) frag.insertBefore(extra, frag.childNodes[1]);
      this.root.replaceChildren(frag);
      this.root.dataset.episode = e.id;
      highlight(this.root, s.query.q ?? "");
      fresh = true;
      if (r.id === this.quietId) this.scrollOnRender = false;
      else if (!prev || prev.route.kind !== "episode" || prev.route.id !== r.id) this.scrollOnRender = true;
      this.quietId = null;
    }
    const e = this.current;
    if (!e) return;
    const want = r.turn;
    const tn = want !== null && e.turns.some((x) => x.turn === want) ? want : e.turns.length ? e.turns[0].turn : null;
    this.markTurn(tn, want !== null);
    if (this.scrollOnRender && want === null && s.route.kind !== "moment") this.root.scrollIntoView({ block: "start" });
    this.scrollOnRender = false;
    this.hooks.shown?.(e, this.root, s, fresh);
  }

  /** Shows no episode, saying why (the list's filters left none). */
  clear(message: string): void {
    this.shownId = null;
    this.current = null;
    this.currentTurn = null;
    this.missing = null;
    delete this.root.dataset.episode;
    this.root.replaceChildren(el("p", "empty", message));
  }

  /** Marks a turn's card as the current one (and scrolls to it if asked). */
  markTurn(turn: number | null, scroll: boolean): void {
    this.root.querySelectorAll(".turn.current").forEach((n) => {
      n.classList.remove("current");
      n.removeAttribute("aria-current");
    });
    this.currentTurn = turn;
    if (turn === null || !this.current) return;
    const card = this.root.querySelector(`[id="t-${CSS.escape(this.current.id)}-${turn}"]`);
    if (!card) return;
    card.classList.add("current");
    card.setAttribute("aria-current", "step");
    if (scroll) card.scrollIntoView({ block: "start" });
  }
}
