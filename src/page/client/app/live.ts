/**
 * A page served by `georeplay serve` follows its run: the server marks it
 * (<meta name="georeplay-live">) and this opens its event stream
 * (EventSource, which resumes from the last event id it saw after a drop),
 * hands each batch of new episodes to the page (and, on a training page, the
 * steps they touched: `training`), and keeps a live mark: the
 * time of the last episode, and "writer stopped" when the server says no
 * input has grown for a while. A page opened from disk never connects.
 * Everything from the stream is shown as text (textContent), never markup.
 */
import type { WriterEvent } from "../../live-stream.ts";

/** True on a page `georeplay serve` serves (and not on a copy of it opened from disk). */
export const isLive = (doc: Document): boolean =>
  doc.querySelector('meta[name="georeplay-live"]') !== null && (location.protocol === "http:" || location.protocol === "https:");

const clock = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString("en-GB", { hour12: false });
};

/** An event as the stream carries it. */
interface Wire {
  id: number;
  type: string;
  data: string;
}

const TYPES = ["episodes", "training", "board", "writer", "restart"];

/** What this module reads of an episodes event; the rest is the page's (each environment's own event: GeoGuesser's run page's EpisodesEvent, crops'). */
export interface LiveCounts {
  /** Problems found in the new lines, each said once. */
  problems: string[];
  /** The header's facts and the summary over every episode now (the page writer's HTML); "" when unchanged. */
  facts: string;
  summary: string;
  /** When the server read them (ISO 8601). */
  at: string;
}

/** What this module reads of a board event (GeoGuesser's BoardEvent): its problems, when, and the episodes its report counts (null: no report now). */
export interface LiveBoardCounts {
  problems: string[];
  at: string;
  report: { episodes: number } | null;
}

/** What the page does with the stream's events (E, T, B: the environment's episodes, training and board events). */
export interface LiveHandlers<E extends LiveCounts = LiveCounts, T = unknown, B extends LiveBoardCounts = LiveBoardCounts> {
  /** New episodes (a run page); returns how many it did not hold yet. */
  episodes?(e: E): number;
  /** A training page's touched steps (after the episodes event of their rollouts). */
  training?(e: T): void;
  /** A board page's new episodes and its report, anew. */
  board?(e: B): void;
  /** The events sent before the page opened are applied: an episode it still lacks is not on its way. */
  caughtUp?(): void;
}

/** The events of a finite event-stream response (a catch-up), in order. */
export function parseFrames(text: string): Wire[] {
  const out: Wire[] = [];
  for (const frame of text.split("\n\n")) {
    const f: Record<string, string> = {};
    for (const line of frame.split("\n")) {
      const at = line.indexOf(":");
      if (at > 0) f[line.slice(0, at)] = line.slice(at + 1).replace(/^ /, "");
    }
    if (f.event && f.data !== undefined) out.push({ id: Number(f.id ?? 0), type: f.event, data: f.data });
  }
  return out;
}

/** Nodes of HTML the page writer made (view/template.ts, every text escaped), parsed inert: DOMParser runs nothing. */
const parsed = (doc: Document, html: string): Node[] =>
  Array.from(new DOMParser().parseFromString(html, "text/html").body.childNodes, (n) => doc.importNode(n, true));

/** The header's facts (counts, views, how they verified) and the per-model summary table over every episode now. */
function showCounts(doc: Document, e: LiveCounts): void {
  const facts = doc.getElementById("gr-facts");
  if (facts && e.facts) facts.replaceChildren(...parsed(doc, e.facts));
  const box = doc.querySelector("section.summary");
  if (!box || !e.summary) return;
  const heading = box.querySelector(":scope > h3");
  box.replaceChildren(...(heading ? [heading] : []), ...parsed(doc, e.summary));
}

/**
 * Tabs of one served page share one stream: a browser keeps at most 6 connections to a server
 * (HTTP/1.1), so 20 tabs each holding an EventSource would leave the 7th unable to load. The tab
 * holding the Web Lock follows the stream and passes each event to the others (BroadcastChannel);
 * the others catch up with short requests (?once=1) when they open or see a gap, and one of them
 * takes the lock over when that tab closes. Without those APIs each tab follows its own stream.
 */
export function startLive<E extends LiveCounts = LiveCounts, T = unknown, B extends LiveBoardCounts = LiveBoardCounts>(
  doc: Document,
  on: LiveHandlers<E, T, B>,
): void {
  const header = doc.querySelector("header.top") ?? doc.body;
  const mark = doc.createElement("p");
  mark.id = "gr-live";
  mark.setAttribute("role", "status");
  const problems = doc.createElement("ul");
  problems.id = "gr-live-problems";
  problems.hidden = true;
  header.append(mark, problems);
  let added = 0;
  /** A board's episodes counted by its report (null on a run page). */
  let counted: number | null = null;
  let last: string | null = null;
  let stopped = false;
  const render = (state = "live") => {
    const shown = state === "live" && stopped ? "live · writer stopped" : state;
    mark.dataset.state = shown;
    mark.dataset.added = String(added);
    if (counted !== null) mark.dataset.counted = String(counted);
    const news = counted !== null ? ` · ${counted} episodes counted` : added ? ` · ${added} new episode(s)` : "";
    mark.textContent = `● ${shown}${news}${last ? ` · last at ${clock(last)}` : ""}`;
  };
  render("connecting…");

  const said = (list: readonly string[]) => {
    for (const p of list) {
      const li = doc.createElement("li");
      li.textContent = p;
      problems.appendChild(li);
      problems.hidden = false;
    }
  };
  const handle = (w: Wire) => {
    if (w.type === "episodes") {
      const e = JSON.parse(w.data) as E;
      const n = on.episodes?.(e) ?? 0;
      showCounts(doc, e);
      added += n;
      if (n) last = e.at;
      said(e.problems);
    } else if (w.type === "training") on.training?.(JSON.parse(w.data) as T);
    else if (w.type === "board") {
      const e = JSON.parse(w.data) as B;
      on.board?.(e);
      if (e.report) counted = e.report.episodes;
      last = e.at;
      said(e.problems);
    } else if (w.type === "writer") stopped = (JSON.parse(w.data) as WriterEvent).stopped;
    render();
  };

  // Events are applied once each, in order: `seen` is the cursor; a gap is filled from the server first.
  let seen = 0;
  let wanted = 0;
  let catching: Promise<void> | null = null;
  const catchUp = (): Promise<void> =>
    (catching ??= fetch(`events?after=${seen}&once=1`, { cache: "no-store" })
      .then((r) => r.text())
      .then((t) => parseFrames(t).forEach(take))
      .catch(() => render("reconnecting…"))
      .finally(() => {
        catching = null;
        if (wanted > seen) void catchUp();
      }));
  const take = (w: Wire) => {
    // The server was restarted: its page is built anew, and this one's rows and cursor are another server's.
    if (w.type === "restart") return location.reload();
    if (w.id <= seen) return;
    if (w.id > seen + 1) {
      wanted = Math.max(wanted, w.id);
      return void catchUp();
    }
    seen = w.id;
    handle(w);
  };

  const server = doc.querySelector('meta[name="georeplay-live"]')?.getAttribute("content") ?? "";
  const channel = "BroadcastChannel" in window ? new BroadcastChannel(`georeplay-live-${server}`) : null;
  const follow = () => {
    const es = new EventSource(`events?after=${seen}`);
    for (const type of TYPES)
      es.addEventListener(type, (ev) => {
        const m = ev as MessageEvent<string>;
        const w = { id: Number(m.lastEventId), type, data: m.data };
        take(w);
        channel?.postMessage(w);
      });
    es.addEventListener("open", () => render());
    es.addEventListener("error", () => render("reconnecting…"));
  };
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  const shared = channel && locks ? { channel, locks } : null;
  if (shared) shared.channel.onmessage = (m: MessageEvent<Wire>) => take(m.data);
  // What the server sent before this page opened (a reload, a new tab, a deep link to a new episode)
  // is applied first; a tab without the shared stream then follows its own from there.
  void catchUp().then(() => {
    render();
    on.caughtUp?.();
    if (!shared) follow();
  });
  // Held until the tab closes; then the next waiting tab follows the stream from its own cursor.
  if (shared)
    void shared.locks.request(`georeplay-live-${server}`, () => {
      follow();
      return new Promise<never>(() => {});
    });
}
