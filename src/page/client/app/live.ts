/**
 * A page served by `georeplay serve` follows its run: the server marks it
 * (<meta name="georeplay-live">) and this opens its event stream
 * (EventSource, which resumes from the last event id it saw after a drop),
 * hands each batch of new episodes to the page, and keeps a live mark: the
 * time of the last episode, and "writer stopped" when the server says no
 * input has grown for a while. A page opened from disk never connects.
 * Everything from the stream is shown as text (textContent), never markup.
 */
import type { EpisodesEvent, WriterEvent } from "../../live-events.ts";

/** True on a page `georeplay serve` serves (and not on a copy of it opened from disk). */
export const isLive = (doc: Document): boolean =>
  doc.querySelector('meta[name="georeplay-live"]') !== null && (location.protocol === "http:" || location.protocol === "https:");

const clock = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString("en-GB", { hour12: false });
};

export function startLive(doc: Document, onEpisodes: (e: EpisodesEvent) => number): void {
  const header = doc.querySelector("header.top") ?? doc.body;
  const mark = doc.createElement("p");
  mark.id = "gr-live";
  mark.setAttribute("role", "status");
  const problems = doc.createElement("ul");
  problems.id = "gr-live-problems";
  problems.hidden = true;
  header.append(mark, problems);
  let added = 0;
  let last: string | null = null;
  let writer = "writing";
  const render = (state: string) => {
    mark.dataset.state = state;
    mark.dataset.added = String(added);
    mark.textContent = `● ${state}${added ? ` · ${added} new episode(s)` : ""}${last ? ` · last at ${clock(last)}` : ""}`;
  };
  render("connecting…");
  const es = new EventSource("events");
  es.addEventListener("open", () => render(writer === "stopped" ? "live · writer stopped" : "live"));
  es.addEventListener("error", () => render("reconnecting…"));
  es.addEventListener("episodes", (ev) => {
    const e = JSON.parse((ev as MessageEvent<string>).data) as EpisodesEvent;
    const n = onEpisodes(e);
    added += n;
    if (n) last = e.at;
    for (const p of e.problems) {
      const li = doc.createElement("li");
      li.textContent = p;
      problems.appendChild(li);
      problems.hidden = false;
    }
    render(writer === "stopped" ? "live · writer stopped" : "live");
  });
  // The server was restarted: its page is built anew, and this one's rows and cursor are another server's.
  es.addEventListener("restart", () => location.reload());
  es.addEventListener("writer", (ev) => {
    const w = JSON.parse((ev as MessageEvent<string>).data) as WriterEvent;
    writer = w.stopped ? "stopped" : "writing";
    render(w.stopped ? "live · writer stopped" : "live");
  });
}
