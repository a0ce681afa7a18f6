/**
 * The page's address, as pure functions. The hash holds what is viewed (a
 * route) and how the list is shown (the query), `#<route>?<query>`:
 *
 *   #<episode_id>            an episode;  #<episode_id>/<turn>  at a turn
 *   #compare/<task>/<A>/<B>  board pages: two arms' attempts on a task
 *   #compare/<task>/<A>/<B>/t=<seconds>  the same, the two-up video playing at a moment
 *   #step/<n>                training pages: a step's GRPO groups (…/run=<run> on a page of several runs)
 *   #group/<step>/<split>/<index>  a group's siblings side by side (…/id=<group_id>, …/run=<run>)
 *   #?q=moldova&arm=base     no selection, only list state
 *
 * Ids and names are URI-encoded so any string round-trips. Each route kind
 * is one entry of ROUTES (parse + format); a new view (an in-page player
 * at `#<episode_id>/t=<seconds>`, say) adds its entry before "episode",
 * which takes anything else.
 */

export type Route =
  | { kind: "none" }
  | { kind: "episode"; id: string; turn: number | null }
  /** An episode with its video player at a moment (`#<episode_id>/t=<seconds>`). */
  | { kind: "moment"; id: string; t: number }
  /** `t`: the two-up video of the first paired attempt at a moment (`…/t=<seconds>`). */
  | { kind: "compare"; task: number; a: string; b: string; t?: number }
  /** Training pages: a step's groups; `run` left out means the page's first run. */
  | { kind: "step"; step: number; run?: string }
  /** Training pages: one GRPO group, named by its step and task (and its recorded group_id, where one defines it). */
  | { kind: "group"; step: number; split: string; index: number; id?: string; run?: string };

interface RouteKind<K extends Route["kind"]> {
  kind: K;
  /** The route a hash path (without `#` and query) names, or null when it is not this kind. */
  parse(path: string): Extract<Route, { kind: K }> | null;
  format(r: Extract<Route, { kind: K }>): string;
}

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

const compareKind: RouteKind<"compare"> = {
  kind: "compare",
  parse(path) {
    const c = /^compare\/(-?\d+)\/([^/]+)\/([^/]+)(?:\/t=(\d+(?:\.\d+)?))?$/.exec(path);
    if (!c) return null;
    const a = decode(c[2]);
    const b = decode(c[3]);
    if (a === null || b === null) return null;
    return { kind: "compare", task: Number(c[1]), a, b, ...(c[4] !== undefined ? { t: Number(c[4]) } : {}) };
  },
  format: (r) => `compare/${r.task}/${encodeURIComponent(r.a)}/${encodeURIComponent(r.b)}${r.t !== undefined ? `/t=${Number(r.t.toFixed(3))}` : ""}`,
};

/** `/key=<value>` tails (run, id): unambiguous after the fixed parts, in a fixed order. */
function tail(rest: string | undefined, keys: readonly string[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  if (!rest) return out;
  let at = 0;
  for (const part of rest.split("/").slice(1)) {
    const eq = part.indexOf("=");
    const key = part.slice(0, eq);
    const k = keys.indexOf(key, at);
    const v = eq > 0 && k >= 0 ? decode(part.slice(eq + 1)) : null;
    if (v === null) return null;
    out[key] = v;
    at = k + 1;
  }
  return out;
}
const withTail = (pairs: [string, string | undefined][]) =>
  pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `/${k}=${encodeURIComponent(v!)}`)
    .join("");

const stepKind: RouteKind<"step"> = {
  kind: "step",
  parse(path) {
    const m = /^step\/(\d+)((?:\/[a-z]+=[^/]*)*)$/.exec(path);
    const t = m ? tail(m[2], ["run"]) : null;
    if (!m || !t) return null;
    return { kind: "step", step: Number(m[1]), ...(t.run !== undefined ? { run: t.run } : {}) };
  },
  format: (r) => `step/${r.step}${withTail([["run", r.run]])}`,
};

const groupKind: RouteKind<"group"> = {
  kind: "group",
  parse(path) {
    const m = /^group\/(\d+)\/([^/=]+)\/(\d+)((?:\/[a-z]+=[^/]*)*)$/.exec(path);
    const split = m ? decode(m[2]) : null;
    const t = m ? tail(m[4], ["id", "run"]) : null;
    if (!m || split === null || !t) return null;
    return {
      kind: "group",
      step: Number(m[1]),
      split,
      index: Number(m[3]),
      ...(t.id !== undefined ? { id: t.id } : {}),
      ...(t.run !== undefined ? { run: t.run } : {}),
    };
  },
  format: (r) =>
    `group/${r.step}/${encodeURIComponent(r.split)}/${r.index}${withTail([
      ["id", r.id],
      ["run", r.run],
    ])}`,
};

const momentKind: RouteKind<"moment"> = {
  kind: "moment",
  parse(path) {
    const m = /^([^/]+)\/t=(\d+(?:\.\d+)?)$/.exec(path);
    if (!m) return null;
    const id = decode(m[1]);
    return id === null ? null : { kind: "moment", id, t: Number(m[2]) };
  },
  format: (r) => `${encodeURIComponent(r.id)}/t=${Number(r.t.toFixed(3))}`,
};

const episodeKind: RouteKind<"episode"> = {
  kind: "episode",
  parse(path) {
    const m = /^([^/]+)(?:\/(\d+))?$/.exec(path);
    if (!m) return null;
    const id = decode(m[1]);
    return id === null ? null : { kind: "episode", id, turn: m[2] === undefined ? null : Number(m[2]) };
  },
  format: (r) => encodeURIComponent(r.id) + (r.turn !== null ? "/" + r.turn : ""),
};

/** Tried in order; the first that parses wins. */
const ROUTES = [compareKind, stepKind, groupKind, momentKind, episodeKind] as const;

/** The list state the address keeps (every value a string; "" = unset, left out of the address). */
export type Query = Record<string, string>;

export interface Address {
  route: Route;
  query: Query;
}

/** Splits a location hash into route and query; null for a hash that names nothing (malformed escapes, a bare turn). */
export function parseAddress(hash: string): Address | null {
  const h = hash.startsWith("#") ? hash.slice(1) : hash;
  const qi = h.indexOf("?");
  const path = qi < 0 ? h : h.slice(0, qi);
  const query: Query = {};
  if (qi >= 0) new URLSearchParams(h.slice(qi + 1)).forEach((v, k) => (query[k] = v));
  if (path === "") return { route: { kind: "none" }, query };
  for (const k of ROUTES) {
    const r = k.parse(path);
    if (r) return { route: r, query };
  }
  return null;
}

/** The route alone (the form older pages and links use). */
export function parseHash(hash: string): Route | null {
  const r = parseAddress(hash)?.route ?? null;
  return r && r.kind !== "none" ? r : null;
}

export function formatRoute(r: Route): string {
  if (r.kind === "none") return "";
  for (const k of ROUTES) if (k.kind === r.kind) return (k.format as (x: Route) => string)(r);
  return "";
}

/** The hash for a route and a query; unset values are left out, keys in a fixed order. */
export function formatAddress(a: Address): string {
  const q = new URLSearchParams();
  for (const k of Object.keys(a.query).sort()) if (a.query[k] !== "") q.set(k, a.query[k]);
  const qs = q.toString();
  const path = formatRoute(a.route);
  return path === "" && qs === "" ? "" : "#" + path + (qs ? "?" + qs : "");
}

export function episodeHash(id: string, turn: number | null): string {
  return "#" + episodeKind.format({ kind: "episode", id, turn });
}

export function compareHash(task: number, a: string, b: string, t?: number): string {
  return "#" + compareKind.format({ kind: "compare", task, a, b, ...(t !== undefined ? { t } : {}) });
}

export function sameRoute(a: Route, b: Route): boolean {
  return formatRoute(a) === formatRoute(b);
}
