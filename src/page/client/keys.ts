/**
 * The pages' keyboard, one module for the run page and the board page:
 * j/k the next/previous turn (the first episode shown when none is open),
 * n/p the next/previous episode of the list at its first turn, / the search
 * box; keys typed into a field are the field's, and Escape leaves it.
 */

export interface KeyTarget {
  /** The open episode: its id, its turns in order and the marked one; null when none is open. */
  open(): { id: string; turns: number[]; turn: number | null } | null;
  /** Ids of the episodes the list shows, in order. */
  shown(): string[];
  /** Opens an episode at a turn ("first": its first turn), as a user action (marks, scrolls, updates the address). */
  go(id: string, turn: number | "first"): void;
  search: HTMLInputElement;
}

/** The index `d` steps from `i` among `n` items, clamped; from nowhere (-1) it is the first. */
export function stepIndex(i: number, d: number, n: number): number {
  return i < 0 ? 0 : Math.min(n - 1, Math.max(0, i + d));
}

function stepTurn(t: KeyTarget, d: number): void {
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

function stepEpisode(t: KeyTarget, d: number): void {
  const shown = t.shown();
  if (!shown.length) return;
  const id = t.open()?.id;
  t.go(shown[stepIndex(id === undefined ? -1 : shown.indexOf(id), d, shown.length)], "first");
}

export function bindKeys(doc: Document, t: KeyTarget): void {
  doc.addEventListener("keydown", (ev) => {
    const tag = (ev.target as HTMLElement).tagName;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (ev.key === "Escape") (ev.target as HTMLElement).blur();
      return;
    }
    const k = ev.key;
    if (k === "j") stepTurn(t, 1);
    else if (k === "k") stepTurn(t, -1);
    else if (k === "n") stepEpisode(t, 1);
    else if (k === "p") stepEpisode(t, -1);
    else if (k === "/") t.search.focus();
    else return;
    ev.preventDefault();
  });
}
