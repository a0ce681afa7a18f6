/**
 * An episode of a crops run: its numbers, its findings in the alarm colour with full hashes,
 * the image with boxes toggled (ground truth, the final boxes, or any turn's boxes and view),
 * the per-box table, and the transcript turn by turn (each turn's re-rendered view at its own
 * size and the thumbnail, badged match / mismatch). Trace text only ever as text nodes.
 */
import { el, svg } from "../../../../../src/page/client/dom.ts";
import type { CropsDetail, CropsTurnView } from "../model.ts";
import type { BoxRow } from "../boxes.ts";

export interface Images {
  images: Record<string, string>;
  pictures: Record<string, string>;
}

const f = (x: number | null | undefined, d: number) => (x == null ? "–" : x.toFixed(d));
const rect = (r: readonly number[] | null) => (r ? `[${r.map((v) => v.toFixed(1)).join(", ")}]` : "–");
/** The gym's box colours by id (render.ts PALETTE), so the overlay matches the views. */
const PALETTE = ["#ff3b30", "#34c759", "#007aff", "#ff9500", "#af52de", "#ffcc00", "#5ac8fa", "#ff2d55"];
export const boxColour = (id: number): string => PALETTE[(((id - 1) % 8) + 8) % 8];

function kv(label: string, value: string, key?: string, exact?: number | null): HTMLElement {
  const s = el("span", "kv");
  s.appendChild(el("span", "k", label + " "));
  const b = el("b", null, value);
  if (key) {
    b.dataset.key = key;
    b.dataset.value = exact == null ? "" : String(exact);
  }
  s.appendChild(b);
  return s;
}

function findings(d: CropsDetail): HTMLElement | null {
  if (!d.findings.length) return null;
  const box = el("section", "drift-hashes crops-findings");
  box.id = "gr-episode-drift";
  box.setAttribute("role", "alert");
  box.appendChild(el("p", "drift-head", `${d.findings.length} finding(s): what the recording says is not what the gym's rules give`));
  for (const x of d.findings) {
    const item = el("div", "finding");
    item.dataset.kind = x.kind;
    item.dataset.turn = x.turn === null ? "" : String(x.turn);
    item.appendChild(el("p", null, `${x.turn === null ? "episode" : `turn ${x.turn}`} · ${x.kind}: ${x.message}`));
    if (x.recorded !== undefined || x.rendered !== undefined) {
      const dl = el("dl");
      for (const [k, v] of [
        ["recorded", x.recorded],
        ["re-rendered", x.rendered],
      ] as const) {
        dl.appendChild(el("dt", null, k));
        const dd = el("dd");
        const code = el("code", "hash", v ?? "–");
        code.dataset.hash = k;
        dd.appendChild(code);
        dl.appendChild(dd);
      }
      item.appendChild(dl);
    }
    box.appendChild(item);
  }
  return box;
}

/** The image with an SVG overlay: ground truth (dashed), and the chosen boxes and view. */
function overlayPanel(d: CropsDetail, imgs: Images): HTMLElement {
  const panel = el("section", "crops-image");
  panel.id = "gr-image";
  const controls = el("div", "toggles");
  const mk = (label: string, checked: boolean) => {
    const l = el("label");
    const c = document.createElement("input");
    c.type = "checkbox";
    c.checked = checked;
    l.appendChild(c);
    l.appendChild(document.createTextNode(" " + label));
    controls.appendChild(l);
    return c;
  };
  const gtBox = mk("ground truth", true);
  gtBox.id = "t-gt";
  const predBox = mk("boxes", true);
  predBox.id = "t-boxes";
  const which = document.createElement("select");
  which.id = "t-turn";
  which.setAttribute("aria-label", "whose boxes");
  const final = el("option", null, "final boxes") as HTMLOptionElement;
  final.value = "final";
  which.appendChild(final);
  for (const t of d.turns) {
    const o = el("option", null, `turn ${t.turn}: boxes and view`) as HTMLOptionElement;
    o.value = String(t.turn);
    which.appendChild(o);
  }
  controls.appendChild(which);
  panel.appendChild(controls);
  const frame = el("div", "frame");
  const img = document.createElement("img");
  img.src = imgs.pictures[d.image.id] ?? "";
  img.alt = `the image ${d.image.id}`;
  img.width = d.image.width;
  img.height = d.image.height;
  frame.appendChild(img);
  const s = svg("svg", { viewBox: `0 0 ${d.image.width} ${d.image.height}`, class: "overlay" });
  frame.appendChild(s);
  panel.appendChild(frame);
  const draw = () => {
    s.textContent = "";
    const line = Math.max(1.5, d.image.width / 400);
    // Labels scale with the image (an SVG attribute: the CSP allows no inline style).
    s.setAttribute("font-size", String(Math.max(10, Math.round(d.image.width / 36))));
    s.setAttribute("stroke-width", "0");
    if (gtBox.checked)
      for (const g of d.gt) {
        const r = svg("rect", {
          x: g.box[0],
          y: g.box[1],
          width: g.box[2] - g.box[0],
          height: g.box[3] - g.box[1],
          class: "gt",
          "stroke-width": line,
          "data-gt": g.id,
        });
        s.appendChild(r);
        const t = svg("text", { x: g.box[0] + 2, y: g.box[3] - 3, class: "gt-label" });
        t.textContent = `${g.id} ${g.label}`;
        s.appendChild(t);
      }
    const turn = which.value === "final" ? d.turns[d.turns.length - 1] : d.turns.find((t) => String(t.turn) === which.value)!;
    if (which.value !== "final") {
      const v = turn.viewAfter;
      s.appendChild(svg("rect", { x: v[0], y: v[1], width: v[2] - v[0], height: v[3] - v[1], class: "view", "stroke-width": line }));
    }
    if (predBox.checked)
      for (const b of turn.boxes) {
        s.appendChild(
          svg("rect", {
            x: b.box[0],
            y: b.box[1],
            width: b.box[2] - b.box[0],
            height: b.box[3] - b.box[1],
            class: "pred",
            stroke: boxColour(b.id),
            "stroke-width": line,
            "data-box": b.id,
          }),
        );
        const t = svg("text", { x: b.box[0] + 2, y: b.box[1] + Math.max(10, d.image.width / 36), class: "pred-label", fill: boxColour(b.id) });
        t.textContent = `${b.id} ${b.label}`;
        s.appendChild(t);
      }
    panel.dataset.showing = which.value;
  };
  for (const c of [gtBox, predBox, which]) c.addEventListener("change", draw);
  draw();
  return panel;
}

function boxTable(rows: BoxRow[]): HTMLElement {
  const t = el("table", "stats boxes");
  t.id = "gr-boxes";
  const head = el("tr");
  for (const h of ["box", "label", "box (image px)", "matched object", "GIoU", "credit", "label", "error"]) head.appendChild(el("th", null, h));
  const thead = el("thead");
  thead.appendChild(head);
  t.appendChild(thead);
  const body = el("tbody");
  for (const r of rows) {
    const tr = el("tr", `e-${r.error}`);
    tr.dataset.error = r.error;
    tr.dataset.box = r.box === null ? "" : String(r.box);
    tr.dataset.gt = r.gt ?? "";
    tr.dataset.giou = r.giou === null ? "" : String(r.giou);
    tr.dataset.credit = r.credit === null ? "" : String(r.credit);
    const cells = [
      r.box === null ? "–" : String(r.box),
      r.label ?? "–",
      rect(r.rect),
      r.gt ? `${r.gt} ${r.gtLabel ?? ""}`.trim() + (r.error === "duplicate" ? " (taken by another box)" : "") : "–",
      f(r.giou, 3),
      f(r.credit, 3),
      r.labelOk === null ? "–" : r.labelOk ? "right" : "wrong",
      r.error,
    ];
    for (const c of cells) tr.appendChild(el("td", null, c));
    body.appendChild(tr);
  }
  t.appendChild(body);
  return t;
}

function turnCard(t: CropsTurnView, imgs: Images): HTMLElement {
  const card = el("article", "turn crops-turn");
  card.id = `turn-${t.turn}`;
  card.dataset.turn = String(t.turn);
  const ok = t.view.recorded === t.view.rendered;
  const thumbOk = t.thumb.recorded === t.thumb.rendered;
  const h = el("h4", null, `turn ${t.turn} · ${t.status}`);
  const badge = el("span", `badge b-${ok ? "match" : "mismatch"}`, ok ? "match" : "mismatch");
  badge.dataset.view = ok ? "match" : "mismatch";
  h.appendChild(document.createTextNode(" "));
  h.appendChild(badge);
  if (!thumbOk) h.appendChild(el("span", "badge b-mismatch", "thumbnail mismatch"));
  card.appendChild(h);
  const pics = el("div", "pics");
  const view = document.createElement("img");
  view.className = "view";
  view.src = imgs.images[t.view.rendered] ?? "";
  view.alt = `turn ${t.turn}: the view the model saw`;
  view.dataset.sha256 = t.view.rendered;
  pics.appendChild(view);
  const thumb = document.createElement("img");
  thumb.className = "thumb";
  thumb.src = imgs.images[t.thumb.rendered] ?? "";
  thumb.alt = `turn ${t.turn}: the thumbnail`;
  thumb.dataset.sha256 = t.thumb.rendered;
  pics.appendChild(thumb);
  card.appendChild(pics);
  if (!ok) {
    const dl = el("dl", "drift-hashes");
    for (const [k, v] of [
      ["recorded", t.view.recorded],
      ["re-rendered", t.view.rendered],
    ]) {
      dl.appendChild(el("dt", null, k));
      const dd = el("dd");
      dd.appendChild(el("code", "hash", v));
      dl.appendChild(dd);
    }
    card.appendChild(dl);
  }
  const act = el("p", "action");
  act.appendChild(el("span", "k", "action "));
  act.appendChild(el("code", null, t.action));
  card.appendChild(act);
  card.appendChild(el("p", "feedback", t.feedback));
  if (t.reply !== null) {
    const r = el("pre", "reply", t.reply);
    r.setAttribute("dir", "auto");
    card.appendChild(r);
  }
  const more = (label: string, text: string | null) => {
    if (text === null) return;
    const d = el("details");
    d.appendChild(el("summary", null, label));
    d.appendChild(el("pre", null, text));
    card.appendChild(d);
  };
  more("reasoning", t.reasoning);
  more("prompt", t.prompt);
  const facts = el("p", "facts");
  facts.appendChild(kv("boxes", String(t.boxes.length)));
  facts.appendChild(kv("view", rect(t.viewAfter)));
  if (t.shaping) facts.appendChild(kv("shaping", f(t.shaping.reward, 4)));
  facts.appendChild(kv("tokens", `${t.tokensIn ?? "–"} in · ${t.tokensOut ?? "–"} out`));
  if (t.latency !== null) facts.appendChild(kv("latency", `${t.latency.toFixed(2)} s`));
  card.appendChild(facts);
  return card;
}

/**
 * Renders an episode into `root`. `play`, when the page carries the episode's video: a Play button
 * that mounts the in-page player (one click loads and plays it) into the box it is given.
 */
export function renderDetail(root: HTMLElement, d: CropsDetail, imgs: Images, play?: (host: HTMLElement) => void): void {
  root.textContent = "";
  const head = el("header", "episode-head");
  head.appendChild(el("h2", null, `${d.id} · ${d.arm} · ${d.split}/${d.task}${d.attempt === null ? "" : ` attempt ${d.attempt}`}`));
  const stage = el("section", "crops-stage");
  stage.id = "gr-stage";
  if (play) {
    const btn = el("button", "play-episode", "▶ Play") as HTMLButtonElement;
    btn.type = "button";
    btn.id = "gr-play";
    btn.title = "play the episode's video in the page (the MP4's scene, painted here)";
    btn.addEventListener("click", () => {
      btn.hidden = true;
      play(stage);
      stage.scrollIntoView({ block: "nearest" });
    });
    head.appendChild(btn);
  }
  const nums = el("p", "facts");
  nums.appendChild(kv("score", f(d.outcome.score, 4), "score", d.outcome.score));
  nums.appendChild(kv("recall", f(d.outcome.recall, 4), "recall", d.outcome.recall));
  nums.appendChild(kv("precision", f(d.outcome.precision, 3), "precision", d.outcome.precision));
  nums.appendChild(kv("credit", f(d.outcome.meanCredit, 3), "credit", d.outcome.meanCredit));
  nums.appendChild(kv("labels right", d.outcome.labelAccuracy === null ? "–" : `${Math.round(d.outcome.labelAccuracy * 100)}%`));
  nums.appendChild(kv("ended by", d.outcome.endedBy ?? "–"));
  nums.appendChild(kv("image", `${d.image.id} (${d.image.width}x${d.image.height})`));
  nums.appendChild(kv("record", d.source));
  head.appendChild(nums);
  root.appendChild(head);
  root.appendChild(stage);
  const drift = findings(d);
  if (drift) root.appendChild(drift);
  root.appendChild(overlayPanel(d, imgs));
  root.appendChild(el("h3", null, "Boxes: each final box, the object it matched, and what went wrong"));
  root.appendChild(boxTable(d.boxTable));
  root.appendChild(el("h3", null, "Turn by turn"));
  for (const t of d.turns) root.appendChild(turnCard(t, imgs));
  const cfg = el("details", "config");
  cfg.appendChild(el("summary", null, "config"));
  cfg.appendChild(el("pre", null, d.config));
  root.appendChild(cfg);
  root.dataset.episode = d.key;
}
