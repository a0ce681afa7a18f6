/**
 * The page's one script, inlined as text and pinned by its hash in the CSP.
 *
 * It is written as a self-contained function so it is type-checked with the
 * rest of the code; `clientScript()` returns its source. It may use nothing
 * from this module's scope. Every trace string reaches the DOM through
 * textContent or attribute setters, never as markup.
 *
 * Rendering is lazy: the episode list renders at once, an episode's timeline
 * only when it is opened, and each image is decoded only when its turn
 * scrolls into view (IntersectionObserver sets `src` from the image table).
 */

/* eslint-disable */
function pageClient(): void {
  type MapSpec = { vb: number[]; k: number; pins: number[][]; guess: number[] | null; truth: number[] | null };
  type Turn = {
    turn: number; status: string; failed: boolean; kind: string; image: number | null; check: string | null;
    checkNote: string | null; camera: { heading: number | null; pitch: number | null; fov: number | null; frame: number | null } | null;
    overwritten: boolean;
    call: string | null; stepsLeft: number | null; cost: number | null; movedM: number | null; feedback: string | null;
    tokensIn: number | null; tokensOut: number | null; latencyS: number | null; errors: string[];
    reply: string | null; reasoning: string | null; finish: string | null; map: MapSpec | null; reward: number | null;
  };
  type Ep = {
    id: string; format: string; train: { run: string; step: number; guessed: boolean | null } | null; model: string; source: string; split: string; index: number; sample: number | null; country: string | null;
    recordedAt: string | null; mode: string | null; verdict: string | null; reward: number | null; distanceKm: number | null;
    guess: number[] | null; truth: number[] | null; guessCountry: string | null; cost: number | null; turnsUsed: number;
    flags: string[]; views: { match: number; resolved: number; mismatch: number; error: number };
    credit: { creator: string | null; licence: string | null; source: string | null }; errors: string[];
    outcomeMap: MapSpec | null; turns: Turn[];
  };

  const doc = document;
  const SVG = "http://www.w3.org/2000/svg";
  const readJson = (id: string): any => JSON.parse((doc.getElementById(id) as HTMLElement).textContent || "null");
  const episodes: Ep[] = readJson("gr-episodes");
  const byId = new Map<string, Ep>();
  episodes.forEach((e) => { if (!byId.has(e.id)) byId.set(e.id, e); });

  // ---- small DOM helpers (text only, never markup) ----
  function el(tag: string, cls?: string | null, text?: string | null): HTMLElement {
    const n = doc.createElement(tag);
    if (cls) n.className = cls;
    if (text != null) n.textContent = text;
    return n;
  }
  function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
    const n = doc.createElementNS(SVG, tag) as SVGElement;
    for (const k in attrs) n.setAttribute(k, String(attrs[k]));
    return n;
  }
  const fmt = (x: number | null | undefined, d: number): string => (x == null ? "–" : x.toFixed(d));
  const km = (x: number | null): string => (x == null ? "–" : x < 10 ? x.toFixed(2) + " km" : Math.round(x).toLocaleString("en-US") + " km");
  function badge(kind: string, text: string): HTMLElement { return el("span", "badge b-" + kind, text); }
  const CHECK_LABEL: Record<string, string> = { match: "match", resolved: "match (resolved)", mismatch: "mismatch", error: "not rendered", recorded: "recorded image" };
  const CHECK_CLASS: Record<string, string> = { match: "match", resolved: "resolved", mismatch: "mismatch", error: "error", recorded: "muted" };

  // ---- images: parsed on first use; the table sits after this script in the file ----
  let images: string[] | null = null;
  // While the parser is still inside the table its text is partial: wait for DOMContentLoaded.
  let parsed = doc.readyState !== "loading";
  function imageUrl(n: number): string | null {
    if (!images) {
      const node = parsed ? doc.getElementById("gr-images") : null;
      if (!node) return null;
      images = JSON.parse(node.textContent || "[]");
    }
    const u = images![n];
    return typeof u === "string" && u.startsWith("data:image/") ? u : null;
  }
  const pending = new Set<HTMLImageElement>();
  const observer = "IntersectionObserver" in window
    ? new IntersectionObserver((entries) => {
        for (const en of entries) if (en.isIntersecting) load(en.target as HTMLImageElement);
      }, { rootMargin: "400px 0px" })
    : null;
  function load(img: HTMLImageElement): void {
    const url = imageUrl(Number(img.dataset.img));
    if (!url) { pending.add(img); return; }
    pending.delete(img);
    img.src = url;
    observer && observer.unobserve(img);
  }
  doc.addEventListener("DOMContentLoaded", () => {
    parsed = true;
    pending.forEach(load);
  });

  // ---- maps: one shared world path, a viewBox per map ----
  function drawMap(m: MapSpec, label: string): SVGElement {
    const [x, y, w, h] = m.vb;
    const s = svg("svg", { viewBox: `${x} ${y} ${w} ${h}`, class: "map", role: "img", "aria-label": label, preserveAspectRatio: "xMidYMid slice" });
    s.appendChild(svg("rect", { class: "sea", x, y, width: w, height: h }));
    const g = svg("g", { transform: `scale(${m.k} 1)` });
    for (const dx of [-360, 0, 360]) {
      g.appendChild(svg("use", { href: "#gr-land", class: "land", x: dx }));
      g.appendChild(svg("use", { href: "#gr-borders", class: "borders", x: dx }));
    }
    s.appendChild(g);
    const r = w * 0.022;
    if (m.guess && m.truth) s.appendChild(svg("line", { class: "link", x1: m.guess[0], y1: m.guess[1], x2: m.truth[0], y2: m.truth[1] }));
    for (const p of m.pins) s.appendChild(svg("circle", { class: "pin", cx: p[0], cy: p[1], r: r * 0.8 }));
    if (m.truth) s.appendChild(svg("circle", { class: "truth", cx: m.truth[0], cy: m.truth[1], r }));
    if (m.guess) s.appendChild(svg("circle", { class: "guess", cx: m.guess[0], cy: m.guess[1], r }));
    return s;
  }
  function legend(m: MapSpec): HTMLElement {
    const p = el("div", "legend");
    const item = (c: string, t: string) => { p.appendChild(el("i", c)); p.appendChild(doc.createTextNode(t)); };
    if (m.guess) item("g", "guess");
    if (m.truth) item("t", "truth");
    if (m.pins.length) item("p", "pins");
    return p;
  }

  // ---- episode list: sort and filter ----
  const list = doc.getElementById("gr-rows") as HTMLTableSectionElement;
  const countEl = doc.getElementById("gr-count") as HTMLElement;
  const f = {
    q: doc.getElementById("f-q") as HTMLInputElement,
    model: doc.getElementById("f-model") as HTMLSelectElement,
    country: doc.getElementById("f-country") as HTMLSelectElement,
    verdict: doc.getElementById("f-verdict") as HTMLSelectElement,
    status: doc.getElementById("f-status") as HTMLSelectElement,
    reward: doc.getElementById("f-reward") as HTMLInputElement,
  };
  function fillSelect(s: HTMLSelectElement, values: (string | null)[]): void {
    const seen = Array.from(new Set(values.map((v) => v ?? "(unknown)"))).sort();
    for (const v of seen) { const o = el("option", null, v) as HTMLOptionElement; o.value = v; s.appendChild(o); }
  }
  fillSelect(f.model, episodes.map((e) => e.model));
  if (f.model.options.length <= 2) (list.parentElement as HTMLElement).classList.add("one-model");
  fillSelect(f.country, episodes.map((e) => e.country));
  fillSelect(f.verdict, episodes.map((e) => e.verdict));
  fillSelect(f.status, episodes.flatMap((e) => e.flags));

  const haystacks = new Map<Ep, string>();
  function haystack(e: Ep): string {
    let h = haystacks.get(e);
    if (h === undefined) {
      h = e.turns.map((t) => [t.reply, t.reasoning].filter(Boolean).join("\n")).join("\n").toLowerCase();
      haystacks.set(e, h);
    }
    return h;
  }
  type SortKey = "id" | "model" | "country" | "verdict" | "reward" | "distanceKm" | "turnsUsed";
  let sortKey: SortKey | null = null;
  let sortDir = 1;
  let shown: Ep[] = episodes.slice();
  const rowOf = new Map<string, HTMLTableRowElement>();

  function applyFilters(): void {
    const q = f.q.value.trim().toLowerCase();
    const minReward = f.reward.value === "" ? null : Number(f.reward.value);
    const pick = (s: HTMLSelectElement, v: string | null) => s.value === "" || s.value === (v ?? "(unknown)");
    shown = episodes.filter((e) =>
      pick(f.model, e.model) && pick(f.country, e.country) && pick(f.verdict, e.verdict) &&
      (f.status.value === "" || e.flags.indexOf(f.status.value) >= 0) &&
      (minReward === null || isNaN(minReward) || (e.reward != null && e.reward >= minReward)) &&
      (q === "" || haystack(e).indexOf(q) >= 0));
    if (sortKey) {
      const k = sortKey;
      shown.sort((a, b) => {
        const x = a[k], y = b[k];
        if (x == null && y == null) return 0;
        if (x == null) return 1;
        if (y == null) return -1;
        return (x < y ? -1 : x > y ? 1 : 0) * sortDir;
      });
    }
    renderRows();
  }
  function renderRows(): void {
    const frag = doc.createDocumentFragment();
    rowOf.clear();
    for (const e of shown) {
      const tr = doc.createElement("tr");
      tr.dataset.id = e.id;
      tr.setAttribute("aria-selected", String(current !== null && current.id === e.id));
      tr.appendChild(el("td", "mono", e.id));
      tr.appendChild(el("td", "model", e.model));
      tr.appendChild(el("td", null, e.country ?? "–"));
      tr.appendChild(el("td", "wide", e.verdict ?? "–"));
      tr.appendChild(el("td", "num", fmt(e.reward, 3)));
      tr.appendChild(el("td", "num", e.distanceKm == null ? "–" : Math.round(e.distanceKm).toLocaleString("en-US")));
      tr.appendChild(el("td", "num opt", String(e.turnsUsed)));
      const st = el("td");
      if (e.flags.indexOf("mismatch") >= 0) st.appendChild(badge("mismatch", "mismatch"));
      else if (e.flags.indexOf("view-error") >= 0) st.appendChild(badge("error", "error"));
      else if (e.flags.indexOf("overwritten-images") >= 0) st.appendChild(badge("warn", "overwritten"));
      else if (e.format === "example") st.appendChild(badge("muted", "recorded"));
      else st.appendChild(badge("match", "✓"));
      tr.appendChild(st);
      rowOf.set(e.id, tr);
      frag.appendChild(tr);
    }
    list.replaceChildren(frag);
    countEl.textContent = `${shown.length} of ${episodes.length}`;
  }
  for (const k of Object.keys(f) as (keyof typeof f)[]) f[k].addEventListener("input", applyFilters);
  doc.querySelectorAll<HTMLElement>("table.episodes th[data-sort]").forEach((th) => {
    th.addEventListener("click", () => {
      const k = th.dataset.sort as SortKey;
      sortDir = sortKey === k ? -sortDir : k === "reward" ? -1 : 1;
      sortKey = k;
      doc.querySelectorAll("table.episodes th[data-sort]").forEach((o) => o.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending");
      applyFilters();
    });
  });
  list.addEventListener("click", (ev) => {
    const tr = (ev.target as HTMLElement).closest("tr");
    if (tr && tr.dataset.id) go(tr.dataset.id, null, true);
  });

  // ---- episode detail ----
  const detail = doc.getElementById("gr-detail") as HTMLElement;
  let current: Ep | null = null;
  let currentTurn: number | null = null;

  function kv(parent: HTMLElement, label: string, value: string | null): void {
    if (value == null) return;
    const s = el("span", null, label + " ");
    s.appendChild(el("b", null, value));
    parent.appendChild(s);
  }
  function collapsible(label: string, text: string, open: boolean): HTMLElement {
    const d = el("details") as HTMLDetailsElement;
    d.open = open;
    d.appendChild(el("summary", null, `${label} (${text.length.toLocaleString("en-US")} chars)`));
    d.appendChild(el("pre", "text", text));
    return d;
  }
  function turnCard(e: Ep, t: Turn): HTMLElement {
    const card = el("article", "turn" + (t.failed ? " failed" : ""));
    card.id = `t-${e.id}-${t.turn}`;
    card.dataset.turn = String(t.turn);
    const media = el("div", "media");
    if (t.kind === "map" && t.map) {
      media.appendChild(drawMap(t.map, `map at turn ${t.turn}`));
    } else if (t.image != null) {
      const img = doc.createElement("img");
      img.dataset.img = String(t.image);
      img.alt = `view at turn ${t.turn}`;
      img.decoding = "async";
      img.width = 320;
      img.height = 320;
      media.appendChild(img);
      observer ? observer.observe(img) : load(img);
    } else {
      media.appendChild(el("div", "none", t.kind === "none" ? "no image this turn" : "view not recoverable"));
    }
    if (t.check === "recorded" && t.overwritten) media.appendChild(badge("warn", "recorded image · overwritten"));
    else if (t.check) media.appendChild(badge(CHECK_CLASS[t.check] || "muted", CHECK_LABEL[t.check] || t.check));
    else if (t.kind === "map") media.appendChild(badge("muted", "map (redrawn)"));
    card.appendChild(media);

    const body = el("div");
    const h = el("h3");
    const a = el("a", null, `Turn ${t.turn}`) as HTMLAnchorElement;
    a.href = "#" + encodeURIComponent(e.id) + "/" + t.turn;
    h.appendChild(a);
    if (t.status !== "ok") h.appendChild(badge(t.failed ? "warn" : "muted", t.status));
    if (t.reward != null) h.appendChild(badge("match", "reward " + t.reward.toFixed(3)));
    body.appendChild(h);
    if (t.call) body.appendChild(el("code", "call", t.call));
    const k1 = el("div", "kv");
    if (t.camera) {
      const c = t.camera;
      kv(k1, "heading", c.heading == null ? null : fmt(c.heading, 1) + "°");
      kv(k1, "pitch", c.pitch == null ? null : fmt(c.pitch, 1) + "°");
      kv(k1, "fov", c.fov == null ? null : fmt(c.fov, 1) + "°");
      kv(k1, "frame", c.frame == null ? null : String(c.frame));
    }
    kv(k1, "steps left", t.stepsLeft == null ? null : String(t.stepsLeft));
    kv(k1, "cost", t.cost == null ? null : t.cost.toFixed(2));
    if (t.movedM) kv(k1, "moved", t.movedM.toFixed(1) + " m");
    body.appendChild(k1);
    if (t.feedback) body.appendChild(el("div", "feedback", t.feedback));
    const k2 = el("div", "kv");
    kv(k2, "tokens in", t.tokensIn == null ? null : String(t.tokensIn));
    kv(k2, "out", t.tokensOut == null ? null : String(t.tokensOut));
    kv(k2, "latency", t.latencyS == null ? null : t.latencyS.toFixed(2) + " s");
    kv(k2, "finish", t.finish);
    body.appendChild(k2);
    if (t.checkNote) body.appendChild(el("div", "note", t.checkNote));
    for (const msg of t.errors) body.appendChild(el("div", "errors", msg));
    if (t.reply != null) body.appendChild(collapsible("reply", t.reply, t.reply.length <= 600));
    if (t.reasoning) body.appendChild(collapsible("reasoning", t.reasoning, false));
    card.appendChild(body);
    return card;
  }
  function renderEpisode(e: Ep): void {
    const frag = doc.createDocumentFragment();
    const head = el("div", "ep-head");
    const h2 = el("h2", null, `Episode ${e.id}`);
    head.appendChild(h2);
    const run = e.train ? `${e.train.run} · step ${e.train.step}` : null;
    const kind = e.format === "train" ? "training rollout" : e.format === "example" ? "example rollout (recorded images)" : null;
    const attempt = e.sample != null ? `attempt ${e.sample}` : null;
    const meta = [e.model, run, `${e.split}/${e.index}`, attempt, kind, e.mode, e.recordedAt, e.source].filter(Boolean).join(" · ");
    head.appendChild(el("div", "meta", meta));
    frag.appendChild(head);

    const out = el("section", "outcome");
    if (e.outcomeMap) {
      const box = el("div");
      const m = el("div", "media");
      m.appendChild(drawMap(e.outcomeMap, "outcome map: guess and truth"));
      box.appendChild(m);
      box.appendChild(legend(e.outcomeMap));
      out.appendChild(box);
    }
    const dl = el("dl");
    const row = (k: string, v: string | null) => { if (v == null) return; dl.appendChild(el("dt", null, k)); dl.appendChild(el("dd", null, v)); };
    row("verdict", e.verdict ?? "–");
    row("distance", km(e.distanceKm));
    row("reward", fmt(e.reward, 4));
    row("country", e.country);
    row("guess", e.guess ? `${e.guess[0].toFixed(4)}, ${e.guess[1].toFixed(4)}${e.guessCountry ? " (" + e.guessCountry + ")" : ""}` : e.format !== "eval" && e.distanceKm != null ? "not recorded (this format keeps the distance only)" : "no parsed guess");
    row("truth", e.truth ? `${e.truth[0].toFixed(4)}, ${e.truth[1].toFixed(4)}` : null);
    row("action cost", e.cost == null ? null : e.cost.toFixed(2));
    row("turns", String(e.turnsUsed));
    if (e.train && e.train.guessed === false) row("guessed", "never guessed");
    const v = e.views;
    if (e.format === "example") {
      const rec = e.turns.filter((t) => t.check === "recorded" && t.image != null).length;
      row("images", `${rec} recorded images (no hashes to verify)${e.flags.indexOf("overwritten-images") >= 0 ? " · overwritten by a later episode of this task" : ""}`);
    } else row("views", `${v.match} match${v.resolved ? ` (${v.resolved} resolved)` : ""} · ${v.mismatch} mismatch${v.error ? ` · ${v.error} not rendered` : ""}`);
    row("imagery", e.credit.creator ? `© ${e.credit.creator}${e.credit.source ? " / " + e.credit.source : ""}, ${e.credit.licence ?? "licence unknown"}` : null);
    out.appendChild(dl);
    frag.appendChild(out);
    for (const msg of e.errors) frag.appendChild(el("div", "errors", msg));
    for (const t of e.turns) frag.appendChild(turnCard(e, t));
    detail.replaceChildren(frag);
    detail.dataset.episode = e.id;
  }

  function markTurn(turn: number | null, scroll: boolean): void {
    detail.querySelectorAll(".turn.current").forEach((n) => n.classList.remove("current"));
    currentTurn = turn;
    if (turn === null || !current) return;
    const card = doc.getElementById(`t-${current.id}-${turn}`);
    if (!card) return;
    card.classList.add("current");
    card.setAttribute("aria-current", "step");
    if (scroll) card.scrollIntoView({ block: "start" });
  }
  /** Opens an episode (and a turn), updating the address for deep links. */
  function go(id: string, turn: number | null, fromUser: boolean): void {
    const e = byId.get(id);
    if (!e) {
      current = null;
      detail.replaceChildren(el("p", "empty", `Episode ${id} is not in this page.`));
      return;
    }
    if (current !== e) {
      current = e;
      renderEpisode(e);
      rowOf.forEach((tr, k) => tr.setAttribute("aria-selected", String(k === id)));
      const tr = rowOf.get(id);
      if (tr) tr.scrollIntoView({ block: "nearest" });
    }
    const t = turn !== null && e.turns.some((x) => x.turn === turn) ? turn : e.turns.length ? e.turns[0].turn : null;
    markTurn(t, turn !== null || fromUser);
    if (fromUser && turn === null) detail.scrollIntoView({ block: "start" });
    const hash = "#" + encodeURIComponent(id) + (t !== null && turn !== null ? "/" + t : "");
    if (fromUser && location.hash !== hash) history.replaceState(null, "", hash);
  }
  function fromHash(followed: boolean): void {
    const m = /^#([^/]+)(?:\/(\d+))?$/.exec(location.hash);
    if (!m) return;
    let id: string;
    try { id = decodeURIComponent(m[1]); } catch { return; }
    // Anchors inside the page (a training step's row) are the browser's to scroll to.
    if (!byId.has(id) && m[2] === undefined && doc.getElementById(id)) return;
    const turn = m[2] === undefined ? null : Number(m[2]);
    go(id, turn, false);
    // A followed link (sweep or step tables) opens the episode where it can be seen.
    if (followed && turn === null && current) detail.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", () => fromHash(true));

  // ---- keyboard: j/k turn, n/p episode, / search ----
  function stepTurn(d: number): void {
    if (!current) { if (shown.length) go(shown[0].id, null, true); return; }
    const ts = current.turns.map((t) => t.turn);
    const i = currentTurn === null ? -1 : ts.indexOf(currentTurn);
    const j = Math.min(ts.length - 1, Math.max(0, i + d));
    if (ts.length) go(current.id, ts[j], true);
  }
  function stepEpisode(d: number): void {
    if (!shown.length) return;
    const i = current ? shown.indexOf(current) : -1;
    const j = i < 0 ? 0 : Math.min(shown.length - 1, Math.max(0, i + d));
    go(shown[j].id, shown[j].turns.length ? shown[j].turns[0].turn : null, true);
  }
  doc.addEventListener("keydown", (ev) => {
    const tag = (ev.target as HTMLElement).tagName;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (ev.key === "Escape") (ev.target as HTMLElement).blur();
      return;
    }
    const k = ev.key;
    if (k === "j") stepTurn(1);
    else if (k === "k") stepTurn(-1);
    else if (k === "n") stepEpisode(1);
    else if (k === "p") stepEpisode(-1);
    else if (k === "/") f.q.focus();
    else return;
    ev.preventDefault();
  });

  applyFilters();
  if (location.hash) fromHash(false);
  else if (episodes.length && window.matchMedia("(min-width: 821px)").matches) go(shown[0].id, null, false);
  doc.documentElement.dataset.ready = "1";
  (window as unknown as { grReadyAt: number }).grReadyAt = performance.now();
}

/**
 * The script's source text, as inlined into the page (its hash goes into the CSP).
 * Run through tsc the function text is plain ES2022; esbuild-based runners (tsx)
 * wrap named functions in `__name(...)` calls, which the local no-op makes harmless.
 */
export function clientScript(): string {
  return `(function(){var __name=function(f){return f};(${pageClient.toString()})();})();`;
}
