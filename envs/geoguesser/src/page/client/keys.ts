/**
 * The pages' keyboard, one module for the run page and the board page. What
 * a key does depends on the view (the store's route): in an episode, j/k
 * step turns and n/p episodes of the list, v enlarges the current turn's
 * view; in the compare view, n/p step tasks, j/k attempts, Escape closes it.
 * `/` focuses the search box everywhere. Keys typed into a field are the
 * field's, and Escape leaves it; keys never act on a hidden panel.
 */

/** What one view answers to: key -> action. */
export type KeyMap = Partial<Record<string, () => void>>;

export interface EpisodeKeys {
  /** The open episode: its id, its turns in order and the marked one; null when none is open. */
  open(): { id: string; turns: number[]; turn: number | null } | null;
  /** Ids of the episodes the list shows, in order. */
  shown(): string[];
  /** Opens an episode at a turn ("first": its first turn), as a user action. */
  go(id: string, turn: number | "first"): void;
}

/** The index `d` steps from `i` among `n` items, clamped; from nowhere (-1) it is the first. */
export function stepIndex(i: number, d: number, n: number): number {
  return i < 0 ? 0 : Math.min(n - 1, Math.max(0, i + d));
}

export function stepTurn(t: EpisodeKeys, d: number): void {
  const open = t.open();
  if (!open) {
    const first = t.shown()[0];
    if (first !== undefined) t.go(first, "first");
    return;
  }
  if (!open.turns.length) return;
  const i = open.turn === null ? -1 : open.turns.indexOf(open.turn);
  t.go(open.id, open.turns[stepIndex(i, d, open.turns.length)]);
}

export function stepEpisode(t: EpisodeKeys, d: number): void {
  const shown = t.shown();
  if (!shown.length) return;
  const id = t.open()?.id;
  t.go(shown[stepIndex(id === undefined ? -1 : shown.indexOf(id), d, shown.length)], "first");
}

/** The episode keys (j/k turn, n/p episode), shared by both pages. */
export function episodeKeyMap(t: EpisodeKeys): KeyMap {
  return { j: () => stepTurn(t, 1), k: () => stepTurn(t, -1), n: () => stepEpisode(t, 1), p: () => stepEpisode(t, -1) };
}

export function bindKeys(doc: Document, keys: () => KeyMap, search: HTMLInputElement, modalOpen: () => boolean): void {
  doc.addEventListener("keydown", (ev) => {
    const tag = (ev.target as HTMLElement).tagName;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (ev.key === "Escape" && tag !== undefined) (ev.target as HTMLElement).blur();
      return;
    }
    // A modal (the enlarged view) has the keyboard: the browser closes it on Escape.
    if (modalOpen()) return;
    if (ev.key === "/") {
      search.focus();
      ev.preventDefault();
      return;
    }
    const action = keys()[ev.key];
    if (!action) return;
    action();
    ev.preventDefault();
  });
}
