/**
 * The page's state in one place: what is viewed (the route) and how the
 * list is shown (search, filters, sort, the filter expression, the board's
 * task table), kept in the address so that reload restores it and Back and
 * Forward step through what was viewed. Views subscribe and render from the
 * state; they change it only through `set`, never each other.
 *
 * History: a change of what is viewed (another episode, a compare view) is a
 * new entry; turn steps, typing and filter changes replace the current one.
 */
import { formatAddress, parseAddress, sameRoute, type Address, type Query, type Route } from "./route.ts";

export interface PageState {
  route: Route;
  /** List state, by address key ("" = unset): q, arm, country, verdict, status, task, min, expr, sort; board: tarm, tcountry, tverdict, torder. */
  query: Query;
}

export type Listener = (s: PageState, prev: PageState) => void;

export class Store {
  private state: PageState;
  private listeners: Listener[] = [];

  constructor(initial: PageState) {
    this.state = initial;
  }

  get(): PageState {
    return this.state;
  }

  q(key: string): string {
    return this.state.query[key] ?? "";
  }

  subscribe(l: Listener): void {
    this.listeners.push(l);
  }

  /** Changes the state, records it in the address (push when what is viewed changes) and tells every view. */
  set(change: { route?: Route; query?: Query }, history: "auto" | "push" | "replace" | "none" = "auto"): void {
    const prev = this.state;
    const next: PageState = { route: change.route ?? prev.route, query: change.query ? { ...prev.query, ...change.query } : prev.query };
    this.state = next;
    if (history !== "none") {
      const hash = formatAddress(next);
      const url = location.pathname + location.search + hash;
      if (hash !== location.hash && !(hash === "" && location.hash === "")) {
        const viewedChanged =
          !sameRoute(prev.route, next.route) && !(prev.route.kind === "episode" && next.route.kind === "episode" && prev.route.id === next.route.id);
        if (history === "push" || (history === "auto" && viewedChanged)) window.history.pushState(null, "", url);
        else window.history.replaceState(null, "", url);
      }
    }
    for (const l of this.listeners) l(next, prev);
  }

  /** Follows the address (load, Back, Forward, a followed link): the state becomes what it names. */
  followAddress(): void {
    const a: Address | null = parseAddress(location.hash);
    if (!a) return;
    // A plain link (`#<id>`, `#compare/...`) changes what is viewed and keeps the list as it is.
    if (!location.hash.includes("?")) {
      if (formatAddress({ route: a.route, query: {} }) === formatAddress({ route: this.state.route, query: {} })) return;
      this.set({ route: a.route }, "none");
      if (Object.values(this.state.query).some((v) => v !== ""))
        window.history.replaceState(null, "", location.pathname + location.search + formatAddress(this.state));
      return;
    }
    this.set({ route: a.route, query: { ...emptyQuery(this.state.query), ...a.query } }, "none");
  }
}

/** Every key of a query, unset (so that following an address clears what it leaves out). */
function emptyQuery(q: Query): Query {
  const out: Query = {};
  for (const k of Object.keys(q)) out[k] = "";
  return out;
}

/** A store holding what the address names now. */
export function storeFromAddress(): Store {
  const a = parseAddress(location.hash) ?? { route: { kind: "none" as const }, query: {} };
  return new Store({ route: a.route, query: a.query });
}
