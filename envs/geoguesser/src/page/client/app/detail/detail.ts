/**
 * An episode's detail: header, config, outcome box and one card per turn,
 * built from the page model. Replies are rendered as Markdown (markdown.ts,
 * with a raw toggle; a long one clamped, clamp.ts); the prompt of each turn,
 * reasoning and the config are collapsed, and one "expand all" opens them
 * all. Trace text reaches the DOM as text nodes only.
 */
import type { PageEpisode, PageTurn, PanoRef } from "../../../model.ts";
import { badge, el, fmt, km } from "../../../../../../../src/page/client/dom.ts";
import { drawMap, mapLegend } from "../../maps.ts";
import { renderMarkdown } from "./markdown.ts";
import { isLongReply, setClamp } from "./clamp.ts";
import type { MapSpec } from "../../../../../../../src/page/geo.ts";

/** Where a turn's picture comes from: the image table, or (board pages) a browser reprojection of a panorama. */
export interface Media {
  image(n: number, alt: string, size: number): HTMLElement;
  reprojection?(p: PanoRef, alt: string): HTMLElement;
}
import { episodeHash } from "../../state/route.ts";

const CHECK_LABEL: Record<string, string> = {
  match: "match",
  resolved: "match (resolved)",
  mismatch: "mismatch",
  error: "not rendered",
  recorded: "recorded image",
};
const CHECK_CLASS: Record<string, string> = { match: "match", resolved: "resolved", mismatch: "mismatch", error: "error", recorded: "muted" };

function kv(parent: HTMLElement, label: string, value: string | null): void {
  if (value == null) return;
  const s = el("span", null, label + " ");
  s.appendChild(el("b", null, value));
  parent.appendChild(s);
}

function collapsible(label: string, text: string, open: boolean, cut = "", cls = ""): HTMLElement {
  const d = el("details", cls || null) as HTMLDetailsElement;
  d.open = open;
  d.appendChild(el("summary", null, cut ? `${label} (${cut.slice(2)})` : `${label} (${text.length.toLocaleString("en-US")} chars)`));
  const pre = el("pre", "text", text);
  pre.dir = "auto";
  d.appendChild(pre);
  return d;
}

/** A reply: Markdown rendered, with a toggle to the raw text as recorded; a long one clamped until asked. */
function replyBlock(text: string, cut: string): HTMLElement {
  const box = el("div", "reply");
  const head = el("div", "reply-head");
  head.appendChild(el("span", "label", cut ? `reply (${cut.slice(2)})` : "reply"));
  const rendered = renderMarkdown(text);
  if (isLongReply(text)) {
    rendered.dataset.clamp = "on";
    const more = el("button", "clamp-toggle", "show all") as HTMLButtonElement;
    more.type = "button";
    more.title = `show the whole reply (${text.length.toLocaleString("en-US")} chars)`;
    more.setAttribute("aria-expanded", "false");
    more.addEventListener("click", () => setClamp(box, rendered.dataset.clamp === "off"));
    head.appendChild(more);
  }
  const toggle = el("button", "raw-toggle", "raw") as HTMLButtonElement;
  toggle.type = "button";
  toggle.setAttribute("aria-pressed", "false");
  toggle.title = "show the reply as recorded (no Markdown)";
  head.appendChild(toggle);
  box.appendChild(head);
  const raw = el("pre", "text raw", text);
  raw.dir = "auto";
  raw.hidden = true;
  box.appendChild(rendered);
  box.appendChild(raw);
  toggle.addEventListener("click", () => {
    raw.hidden = !raw.hidden;
    rendered.hidden = !raw.hidden;
    toggle.setAttribute("aria-pressed", String(!raw.hidden));
  });
  return box;
}

function zoomable(n: HTMLElement): HTMLElement {
  n.classList.add("zoomable");
  n.tabIndex = 0;
  n.title = "enlarge (click, or v on the current turn)";
  return n;
}

/** The turn's image, map, or a note saying why there is none, with its verification badge. */
export function turnMedia(t: PageTurn, images: Media): HTMLElement {
  const media = el("div", "media");
  if (t.kind === "map" && t.map) {
    media.appendChild(drawMap(t.map, `map at turn ${t.turn}`));
  } else if (t.image != null) {
    media.appendChild(zoomable(images.image(t.image, `view at turn ${t.turn}`, 320)));
  } else if (t.pano && images.reprojection) {
    media.appendChild(zoomable(images.reprojection(t.pano, `view at turn ${t.turn} (browser reprojection)`)));
    media.appendChild(el("span", "reproj", "browser reprojection"));
    media.dataset.source = "reprojected";
  } else {
    media.appendChild(el("div", "none", t.kind === "none" ? "no image this turn" : "view not recoverable"));
  }
  if (t.check) media.dataset.check = t.check;
  media.dataset.turn = String(t.turn);
  const reprojected = media.dataset.source === "reprojected";
  if (reprojected && (t.check === "match" || t.check === "resolved")) {
    // Verified while building, but what is drawn here is the browser's approximation, not those bytes.
    const b = badge("reprojected", `${CHECK_LABEL[t.check]} at build · shown reprojected`);
    b.title =
      "the re-rendered view hashed to the recorded sha256 while the page was built; its bytes did not fit this one-file page (--max-mb), so the browser draws it from the panorama (approximate)";
    media.appendChild(b);
  } else if (t.check === "recorded" && t.overwritten) media.appendChild(badge("warn", "recorded image · overwritten"));
  else if (t.check) media.appendChild(badge(CHECK_CLASS[t.check] || "muted", CHECK_LABEL[t.check] || t.check));
  else if (t.kind === "map") media.appendChild(badge("muted", "map (redrawn)"));
  return media;
}

/** The turn's text: tool call, camera, feedback, tokens, notes, reply and reasoning. */
export function turnBody(e: PageEpisode, t: PageTurn): HTMLElement {
  const body = el("div");
  const h = el("h3");
  const a = el("a", null, `Turn ${t.turn}`) as HTMLAnchorElement;
  a.href = episodeHash(e.id, t.turn);
  h.appendChild(a);
  if (t.status !== "ok") h.appendChild(badge(t.failed ? "warn" : "muted", t.status));
  // The turn the environment scored: geoeval's reward (the page's "reward"), and the stored one named as such.
  if (t.reward != null) {
    h.appendChild(badge("match", "reward " + e.score.toFixed(4)));
    h.appendChild(badge("muted", "env reward " + t.reward.toFixed(4)));
  }
  body.appendChild(h);
  if (t.call) body.appendChild(callCode(t.call));
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
  if (t.hashes) body.appendChild(driftBox(t.turn, t.hashes));
  else if (t.checkNote) body.appendChild(el("div", "note", t.checkNote));
  for (const msg of t.errors) body.appendChild(el("div", "errors", msg));
  const cutNote = (n: number | undefined, s: string) =>
    n !== undefined && n > s.length ? `; first ${s.length.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} chars, full text at ${e.source}` : "";
  if (t.prompt) body.appendChild(collapsible("prompt", t.prompt, false, cutNote(t.promptChars, t.prompt), "prompt"));
  if (t.reply != null) body.appendChild(replyBlock(t.reply, cutNote(t.replyChars, t.reply)));
  if (t.reasoning) body.appendChild(collapsible("reasoning", t.reasoning, false, cutNote(t.reasoningChars, t.reasoning), "reasoning"));
  return body;
}

export function turnCard(e: PageEpisode, t: PageTurn, images: Media): HTMLElement {
  const card = el("article", "turn" + (t.failed ? " failed" : ""));
  card.id = `t-${e.id}-${t.turn}`;
  card.dataset.turn = String(t.turn);
  card.appendChild(turnMedia(t, images));
  card.appendChild(turnBody(e, t));
  return card;
}

export function episodeMeta(e: PageEpisode): string {
  const run = e.train ? `${e.train.run} · step ${e.train.step}` : null;
  const kind = e.format === "train" ? "training rollout" : e.format === "example" ? "example rollout (recorded images)" : null;
  const attempt = e.sample != null ? `attempt ${e.sample}` : null;
  return [e.model, run, `${e.split}/${e.index}`, attempt, kind, e.mode, e.recordedAt, e.source].filter(Boolean).join(" · ");
}

/** A tool call that wraps only between its arguments: each `key=value` is one unbreakable piece. */
export function callCode(call: string): HTMLElement {
  const code = el("code", "call");
  call.split(/(?<=,) (?=[A-Za-z_][A-Za-z0-9_]*=)/).forEach((part, i) => {
    if (i) code.appendChild(document.createTextNode(" "));
    code.appendChild(el("span", "arg", part));
  });
  return code;
}

/** The outcome box: the map of guess and truth, and the outcome's numbers ("reward": geoeval's; "env reward": the stored one). */
export function outcomeBox(e: PageEpisode, map: MapSpec | null = e.outcomeMap): HTMLElement {
  const out = el("section", "outcome");
  if (map) {
    const box = el("div");
    const m = el("div", "media");
    m.appendChild(drawMap(map, "outcome map: guess and truth"));
    box.appendChild(m);
    box.appendChild(mapLegend(map));
    out.appendChild(box);
  }
  const dl = el("dl");
  const row = (k: string, v: string | null) => {
    if (v == null) return;
    dl.appendChild(el("dt", null, k));
    dl.appendChild(el("dd", null, v));
  };
  row("verdict", e.verdict ?? "–");
  row("distance", km(e.distanceKm));
  row("reward", e.flags.includes("errored") ? "–" : e.score.toFixed(4));
  row("env reward", fmt(e.reward, 4));
  row("country", e.country);
  row(
    "guess",
    e.guess
      ? `${e.guess[0].toFixed(4)}, ${e.guess[1].toFixed(4)}${e.guessCountry ? " (" + e.guessCountry + ")" : ""}`
      : e.format !== "eval" && e.distanceKm != null
        ? "not recorded (no submit_guess action with coordinates; the distance is the environment's)"
        : "no parsed guess",
  );
  row("truth", e.truth ? `${e.truth[0].toFixed(4)}, ${e.truth[1].toFixed(4)}` : null);
  row("action cost", e.cost == null ? null : e.cost.toFixed(2));
  row("turns", String(e.turnsUsed));
  if (e.train && e.train.guessed === false) row("guessed", "never guessed");
  const v = e.views;
  if (e.format === "example") {
    const rec = e.turns.filter((t) => t.check === "recorded" && t.image != null).length;
    row(
      "images",
      `${rec} recorded images (no hashes to verify)${e.flags.indexOf("overwritten-images") >= 0 ? " · overwritten by a later episode of this task" : ""}`,
    );
  } else
    row("views", `${v.match} match${v.resolved ? ` (${v.resolved} resolved)` : ""} · ${v.mismatch} mismatch${v.error ? ` · ${v.error} not rendered` : ""}`);
  row("imagery", e.credit.creator ? `© ${e.credit.creator}${e.credit.source ? " / " + e.credit.source : ""}, ${e.credit.licence ?? "licence unknown"}` : null);
  out.appendChild(dl);
  return out;
}

/** The episode's config (mode, prompt_version, max_turns, ...), collapsed. */
export function configBox(e: PageEpisode): HTMLElement | null {
  if (!e.config) return null;
  const d = el("details", "config") as HTMLDetailsElement;
  d.appendChild(el("summary", null, `config (${Object.keys(e.config).length} fields)`));
  const dl = el("dl");
  for (const [k, v] of Object.entries(e.config)) {
    dl.appendChild(el("dt", null, k));
    dl.appendChild(el("dd", null, v === null ? "null" : String(v)));
  }
  d.appendChild(dl);
  return d;
}

/** The settings shown first, in this order, under the names people search for; the rest follow as recorded. */
const SETTINGS_ORDER: [string, string][] = [
  ["provider", "provider"],
  ["model", "model"],
  ["temperature", "temperature"],
  ["max_tokens", "max tokens"],
  ["thinking", "thinking"],
];

/** The model's settings as recorded (provider, model, temperature, max tokens, thinking, ...), in sight beside the config. */
export function settingsLine(e: PageEpisode): HTMLElement | null {
  const s = e.settings;
  if (!s || !Object.keys(s).length) return null;
  const line = el("div", "kv settings");
  line.setAttribute("aria-label", "the model's settings");
  line.appendChild(el("span", "label", "model settings"));
  const known = new Set(SETTINGS_ORDER.map(([k]) => k));
  const show = (k: string, label: string) => {
    if (!(k in s)) return;
    const v = s[k];
    const span = el("span", null, label + " ");
    span.dataset.setting = k;
    span.appendChild(el("b", null, v === null ? "null" : String(v)));
    line.appendChild(span);
  };
  for (const [k, label] of SETTINGS_ORDER) show(k, label);
  for (const k of Object.keys(s)) if (!known.has(k)) show(k, k);
  return line;
}

/** One button that opens (or closes) every collapsed part of the episode: prompts, reasoning, config, long replies. */
function expandAll(root: () => ParentNode): HTMLElement {
  const b = el("button", "expand-all", "expand all") as HTMLButtonElement;
  b.type = "button";
  b.addEventListener("click", () => {
    const open = b.textContent === "expand all";
    root()
      .querySelectorAll("details")
      .forEach((d) => ((d as HTMLDetailsElement).open = open));
    root()
      .querySelectorAll(".reply")
      .forEach((r) => setClamp(r, !open));
    b.textContent = open ? "collapse all" : "expand all";
  });
  return b;
}

export function renderEpisode(e: PageEpisode, images: Media): DocumentFragment {
  const frag = document.createDocumentFragment();
  const head = el("div", "ep-head");
  head.appendChild(el("h2", null, `Episode ${e.id}`));
  head.appendChild(el("div", "meta", episodeMeta(e)));
  const settings = settingsLine(e);
  if (settings) head.appendChild(settings);
  const tools = el("div", "ep-tools");
  tools.appendChild(expandAll(() => head.parentElement ?? head));
  const cfg = configBox(e);
  if (cfg) tools.appendChild(cfg);
  head.appendChild(tools);
  frag.appendChild(head);
  frag.appendChild(outcomeBox(e));
  for (const msg of e.errors) frag.appendChild(el("div", "errors", msg));
  const reprojected = e.turns.filter((t) => t.pano && t.image == null);
  const exact = e.turns.filter((t) => t.pano && t.image != null);
  if (reprojected.length) {
    const checks = reprojected.map((t) => t.check ?? "not checked");
    const ok = checks.filter((c) => c === "match" || c === "resolved").length;
    frag.appendChild(
      el(
        "p",
        "note reproj-note",
        `${reprojected.length} view(s) marked “browser reprojection” (turns ${reprojected.map((t) => t.turn).join(", ")}) are drawn here from the embedded panorama (approximate); ${exact.length ? `the other ${exact.length} view(s) (turns ${exact.map((t) => t.turn).join(", ")}) are the exact verified bytes. ` : ""}Every view was re-rendered while the page was built and its bytes checked against the recorded sha256: ${ok} of ${reprojected.length} reprojected ones match.`,
      ),
    );
  }
  for (const t of e.turns) frag.appendChild(turnCard(e, t, images));
  return frag;
}

/**
 * A drifted view's two digests in full, each copyable, and what the record can and cannot show:
 * it holds only the hash of the image the model saw, so that image cannot be shown; the picture
 * above is georeplay's re-render, which differs.
 */
export function driftBox(turn: number, h: { recorded: string; rendered: string | null }): HTMLElement {
  const box = el("div", "drift-hashes");
  box.dataset.turn = String(turn);
  box.appendChild(
    el(
      "p",
      "drift-head",
      `Turn ${turn} drifted: the view re-rendered from its recorded camera does not hash to the recorded digest. The record holds only the hash of the image the model saw, not the image, so that image cannot be shown; the view here is georeplay's re-render.`,
    ),
  );
  const dl = el("dl");
  const kind = (d: string) => (/^[0-9a-f]{64}$/i.test(d) ? "sha256" : "hash");
  for (const [label, value, key] of [
    [`recorded ${kind(h.recorded)}`, h.recorded, "recorded"],
    [`rendered ${h.rendered ? kind(h.rendered) : "sha256"}`, h.rendered, "rendered"],
  ] as const) {
    dl.appendChild(el("dt", null, label));
    const dd = el("dd");
    if (value === null) dd.appendChild(el("span", null, "–"));
    else {
      const code = el("code", "hash", value);
      code.dataset.hash = key;
      dd.appendChild(code);
      dd.appendChild(copyButton(value, `copy the ${label}`));
    }
    dl.appendChild(dd);
  }
  box.appendChild(dl);
  return box;
}

/** A button that copies `text` (the clipboard API, else the selection and execCommand, as file:// pages may lack the API). */
function copyButton(text: string, title: string): HTMLElement {
  const b = el("button", "copy", "copy") as HTMLButtonElement;
  b.type = "button";
  b.title = title;
  b.dataset.copy = text;
  b.addEventListener("click", (ev) => {
    ev.stopPropagation();
    const done = (ok: boolean) => (b.textContent = ok ? "copied" : "select and copy");
    const fallback = () => {
      const code = b.previousElementSibling;
      const sel = window.getSelection();
      if (!code || !sel) return done(false);
      const range = document.createRange();
      range.selectNodeContents(code);
      sel.removeAllRanges();
      sel.addRange(range);
      done(document.execCommand("copy"));
    };
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(() => done(true), fallback);
    else fallback();
  });
  return b;
}
