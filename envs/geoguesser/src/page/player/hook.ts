/**
 * The page client's side of the player, the only part in the page's main
 * bundle: a slot with a play button per episode, which loads the player's
 * own script (inert until then: `window.grPlayerLoad`, see bundle.ts) on the
 * first press or on a `#<episode_id>/t=<seconds>` link. A page written with
 * --no-player has no loader, and no slot is shown.
 */
import type { MountOptions, PlayerHandle, TilesHandle, TilesOptions } from "./main.ts";
import type { TilesGroup } from "./tiles.ts";
import type { PageEpisode } from "../model.ts";
import type { PlaySource } from "./video.ts";

export { parseTimeHash, timeHash } from "./clock.ts";

type Loader = () => {
  mount(container: HTMLElement, id: string, opts?: MountOptions): PlayerHandle;
  mountTiles(container: HTMLElement, ids: string[], opts?: TilesOptions): TilesHandle;
};

const IDS = "gr-player-ids";
let ids: Set<string> | null = null;

function loader(): Loader | null {
  const l = (window as unknown as { grPlayerLoad?: Loader }).grPlayerLoad;
  return typeof l === "function" ? l : null;
}

let impl: ReturnType<Loader> | null = null;
/** The one player playing: an episode's (or the two-up), or a group's tiles. */
let current: { id: string; handle: PlayerHandle; tiles?: undefined } | { id: string; handle?: undefined; tiles: TilesHandle } | null = null;

function stopCurrent(): void {
  current?.handle?.destroy();
  current?.tiles?.destroy();
  current = null;
}

/** Whether this page has a video for an episode (null: not known yet, the page is still loading). */
function hasVideo(id: string, source?: MountOptions["source"]): boolean | null {
  // A board's episodes say so themselves (their chunk's play record), a live episode by its row; a run page lists its ids.
  if (source?.kind === "live") return true;
  if (source?.kind === "board") return Boolean(source.episode.play);
  if (source?.kind === "compare") return Boolean(source.a.play && source.b.play);
  if (!ids) {
    const node = document.readyState === "loading" ? null : document.getElementById(IDS);
    if (!node) return document.readyState === "loading" ? null : false;
    ids = new Set(JSON.parse(node.textContent || "[]") as string[]);
  }
  return ids.has(id);
}

/**
 * Where a run page's episode plays from: its own PlayRecord where its detail carries one (the folder
 * form: the browser plans the video), else (undefined) the one-file page's embedded table.
 */
export function runSource(e: PageEpisode | null): PlaySource | undefined {
  return e?.play ? { kind: "board", episode: e, run: true } : undefined;
}

/** Starts the player of `id` in `slot` (replacing its button), at `at` seconds. */
export function startPlayer(slot: HTMLElement, id: string, opts: MountOptions = {}): PlayerHandle | null {
  const load = loader();
  if (!load) return null;
  stopCurrent();
  impl ??= load();
  const handle = impl.mount(slot, id, opts);
  current = { id, handle };
  void handle.ready.then(() => slot.querySelector<HTMLElement>(".player")?.focus({ preventScroll: true }));
  return handle;
}

/** Stops and removes the player started last when its id is `id` or starts with it (its view was closed). */
export function stopPlayer(id: string): void {
  if (!current || !current.id.startsWith(id)) return;
  stopCurrent();
}

/** The player of the episode shown, if one was started. */
export function currentPlayer(id: string): PlayerHandle | null {
  return current && current.id === id ? (current.handle ?? null) : null;
}

/** A slot for an episode's video (or the two-up's): a play button (or nothing on a page without the player). */
export function playerSlot(id: string, opts: MountOptions = {}, label = "▶ Play the video"): HTMLElement | null {
  if (!loader()) return null;
  stopCurrent();
  const slot = document.createElement("div");
  slot.className = "player-slot";
  slot.dataset.playerFor = id;
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = "start";
  btn.textContent = label;
  // One press plays: the player loads, then starts at once.
  btn.addEventListener("click", () => startPlayer(slot, id, { ...opts, autoplay: true }));
  slot.appendChild(btn);
  // Known now (a board's episode, a loaded page): no slot at all; else removed once the page has loaded.
  const known = hasVideo(id, opts.source);
  if (known === false) return null;
  if (known === null) document.addEventListener("DOMContentLoaded", () => hasVideo(id, opts.source) === false && slot.remove(), { once: true });
  return slot;
}

/** Starts N episodes' videos on one clock in `slot` (replacing its button). */
export function startTiles(slot: HTMLElement, key: string, ids: string[], opts: TilesOptions = {}): TilesHandle | null {
  const load = loader();
  if (!load) return null;
  stopCurrent();
  impl ??= load();
  const tiles = impl.mountTiles(slot, ids, opts);
  current = { id: key, tiles };
  void tiles.ready.then(() => slot.querySelector<HTMLElement>(".player")?.focus({ preventScroll: true }));
  return tiles;
}

/**
 * A slot that plays several episodes side by side on one clock (a group's siblings), or null on a
 * page without the player. Which of them have a video is read on the press (the page has loaded by then);
 * `sources`, one per id: where each plays from (runSource), default the one-file page's table.
 */
export function tilesSlot(
  key: string,
  ids: () => { ids: string[]; labels: string[]; sources?: (PlaySource | undefined)[]; group?: TilesGroup },
  label: string,
): HTMLElement | null {
  if (!loader()) return null;
  stopCurrent();
  const slot = document.createElement("div");
  slot.className = "player-slot tiles-slot";
  slot.dataset.playerFor = key;
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = "start";
  btn.textContent = label;
  btn.addEventListener("click", () => {
    const want = ids();
    const keep = want.ids
      .map((id, i) => [id, want.labels[i], want.sources?.[i], want.group?.siblings[i]] as const)
      .filter(([id, , s]) => hasVideo(id, s) === true);
    if (!keep.length) {
      btn.disabled = true;
      btn.textContent = "no sibling of this group has a video in this page";
      return;
    }
    startTiles(
      slot,
      key,
      keep.map(([id]) => id),
      {
        labels: keep.map(([, l]) => l),
        sources: keep.map(([, , s]) => s),
        // The score card ranks the siblings that play.
        group: want.group ? { info: want.group.info, siblings: keep.map(([, , , g]) => g!) } : undefined,
        autoplay: true,
      },
    );
  });
  slot.appendChild(btn);
  return slot;
}
