/**
 * The page's deep links, as pure functions: `#<episode_id>` and
 * `#<episode_id>/<turn>` open an episode (at a turn); board pages add
 * `#compare/<task index>/<arm A>/<arm B>`. Ids and arm names are
 * URI-encoded so any string round-trips.
 */
export type Route = { kind: "episode"; id: string; turn: number | null } | { kind: "compare"; task: number; a: string; b: string };

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** The route a location hash names, or null for anything else (including malformed escapes). */
export function parseHash(hash: string): Route | null {
  const c = /^#compare\/(-?\d+)\/([^/]+)\/([^/]+)$/.exec(hash);
  if (c) {
    const a = decode(c[2]);
    const b = decode(c[3]);
    return a === null || b === null ? null : { kind: "compare", task: Number(c[1]), a, b };
  }
  const m = /^#([^/]+)(?:\/(\d+))?$/.exec(hash);
  if (!m) return null;
  const id = decode(m[1]);
  if (id === null) return null;
  return { kind: "episode", id, turn: m[2] === undefined ? null : Number(m[2]) };
}

export function episodeHash(id: string, turn: number | null): string {
  return "#" + encodeURIComponent(id) + (turn !== null ? "/" + turn : "");
}

export function compareHash(task: number, a: string, b: string): string {
  return `#compare/${task}/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
}
