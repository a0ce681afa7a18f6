/**
 * The run page, composed from the shared parts: one store (state/store.ts)
 * holding the route and the list state, the episode list (app/list), the
 * open episode (app/detail) and the keyboard, each rendering from the store.
 */
import type { PageEpisode } from "../../model.ts";
import { readJson } from "../dom.ts";
import { LazyImages } from "../images.ts";
import { storeFromAddress } from "../state/store.ts";
import { detailText, rowOfEpisode, rowText, type ListRow } from "../state/rows.ts";
import { EpisodeList } from "./list/list.ts";
import { DetailView } from "./detail/view.ts";
import { playerHooks } from "./player/player.ts";
import { bindLightbox, enlarge, lightboxOpen } from "./detail/lightbox.ts";
import { bindKeys, episodeKeyMap } from "../keys.ts";
import { enlargeKey } from "./keys.ts";

export function startRun(): void {
  const doc = document;
  const episodes = readJson<PageEpisode[]>("gr-episodes");
  const byId = new Map<string, PageEpisode>();
  for (const e of episodes) if (!byId.has(e.id)) byId.set(e.id, e);
  const rows = episodes.map(rowOfEpisode);
  const texts = new Map<string, string>();
  const text = (r: ListRow) => {
    let t = texts.get(r.id);
    if (t === undefined) texts.set(r.id, (t = rowText(r) + "\n" + detailText(byId.get(r.id)!)));
    return t;
  };

  const store = storeFromAddress();
  const root = doc.getElementById("gr-detail") as HTMLElement;
  const detail: DetailView = new DetailView(
    doc,
    store,
    { has: (id) => byId.has(id), get: (id) => byId.get(id) ?? null },
    new LazyImages("gr-images"),
    playerHooks(root, (t) => detail.markTurn(t, false)),
  );
  const list = new EpisodeList(doc, store, { rows, text, kind: "run" }, (id) => detail.open(id, null));
  bindLightbox(doc);
  const episodeKeys = episodeKeyMap({
    open: () => (detail.current ? { id: detail.current.id, turns: detail.current.turns.map((t) => t.turn), turn: detail.currentTurn } : null),
    shown: () => list.shown.map((r) => r.id),
    go: (id, turn) => detail.open(id, turn),
  });
  bindKeys(doc, () => ({ ...episodeKeys, v: () => enlargeKey(doc, enlarge) }), doc.getElementById("f-q") as HTMLInputElement, lightboxOpen);
  window.addEventListener("popstate", () => store.followAddress());
  window.addEventListener("hashchange", () => store.followAddress());

  list.apply();
  const s = store.get();
  if (s.route.kind !== "none") void detail.render(s, null);
  else if (episodes.length && window.matchMedia("(min-width: 821px)").matches) {
    // The first episode, shown without a history entry (the address stays as it was).
    store.set({ route: { kind: "episode", id: list.shown[0]?.id ?? episodes[0].id, turn: null } }, "none");
  }
  doc.documentElement.dataset.ready = "1";
  (window as unknown as { grReadyAt: number }).grReadyAt = performance.now();
}
