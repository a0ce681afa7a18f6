/**
 * A crops training page's groups: one step at a time (a select, or `#step/<n>` from a chart's
 * point), each group a row of its siblings side by side in rank order (highest advantage first):
 * rank, sibling, score, advantage, boxes, matched, misses and false alarms, and its final boxes
 * over the image with the ground truth dashed. Every number carries its exact value in a data
 * attribute (what tests read); a sibling opens its episode. Trace text as text nodes only.
 */
import { el, svg } from "../../../../../src/page/client/dom.ts";
import type { CropsDetail, CropsRow } from "../model.ts";
import type { CropsPageGroup, CropsTrainingData } from "../training.ts";
import type { Images } from "./detail.ts";
import { boxColour } from "./detail.ts";

const f = (x: number | null | undefined, d: number) => (x == null ? "–" : x.toFixed(d));
const signed = (x: number, d: number) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(d)}`;

/** The image with a sibling's final boxes (its label colours) over the ground truth (dashed). */
function boxesOnImage(d: CropsDetail, imgs: Images): HTMLElement {
  const frame = el("div", "frame");
  const img = document.createElement("img");
  img.src = imgs.pictures[d.image.id] ?? "";
  img.alt = `the image ${d.image.id} with the final boxes`;
  img.width = d.image.width;
  img.height = d.image.height;
  frame.appendChild(img);
  const s = svg("svg", { viewBox: `0 0 ${d.image.width} ${d.image.height}`, class: "overlay", "stroke-width": "0" });
  const line = Math.max(2, d.image.width / 250);
  for (const g of d.gt)
    s.appendChild(svg("rect", { x: g.box[0], y: g.box[1], width: g.box[2] - g.box[0], height: g.box[3] - g.box[1], class: "gt", "stroke-width": line }));
  for (const b of d.turns[d.turns.length - 1].boxes)
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
  frame.appendChild(s);
  return frame;
}

function siblingCard(
  g: CropsPageGroup,
  i: number,
  row: CropsRow | undefined,
  d: CropsDetail | undefined,
  imgs: Images,
  open: (key: string) => void,
): HTMLElement {
  const key = g.episode_ids[i];
  const card = el("article", "sibling");
  card.dataset.key = key;
  card.dataset.rank = String(g.ranks[i]);
  card.dataset.reward = String(g.rewards[i]);
  card.dataset.advantage = String(g.advantages[i]);
  const head = el("header");
  head.appendChild(el("b", "rank", `#${g.ranks[i]}`));
  head.appendChild(document.createTextNode(` sibling ${row?.sibling ?? i} · `));
  const a = el("a", "ep-link", key) as HTMLAnchorElement;
  a.href = `#${encodeURIComponent(key)}`;
  head.appendChild(a);
  card.appendChild(head);
  const nums = el("p", "nums");
  const num = (label: string, text: string, stat: string, exact: number | null) => {
    const s = el("span", "kv");
    s.appendChild(el("span", "k", label + " "));
    const b = el("b", null, text);
    b.dataset.stat = stat;
    b.dataset.value = exact === null ? "" : String(exact);
    s.appendChild(b);
    nums.appendChild(s);
  };
  num("score", f(g.rewards[i], 3), "score", g.rewards[i]);
  num("advantage", signed(g.advantages[i], 3), "advantage", g.advantages[i]);
  if (row) {
    num("boxes", String(row.boxes), "boxes", row.boxes);
    num("matched", String(row.matched), "matched", row.matched);
    num("missed", String(row.misses), "misses", row.misses);
    num("false alarms", String(row.falseAlarms), "false_alarms", row.falseAlarms);
    num("turns", String(row.turns), "turns", row.turns);
  }
  card.appendChild(nums);
  if (d) card.appendChild(boxesOnImage(d, imgs));
  if (row && !row.flags.includes("clean")) card.appendChild(el("p", "drift", `verify: ${row.flags.join(", ")}`));
  card.addEventListener("click", (e) => {
    if ((e.target as HTMLElement).closest("a")) return;
    open(key);
  });
  return card;
}

function groupRow(g: CropsPageGroup, rows: Map<string, CropsRow>, details: Map<string, CropsDetail>, imgs: Images, open: (key: string) => void): HTMLElement {
  const box = el("section", "group");
  box.dataset.group = g.group_id ?? `${g.step}/${g.task.split}/${g.task.index}`;
  box.dataset.mean = String(g.mean);
  box.dataset.std = g.std === null ? "" : String(g.std);
  box.dataset.zero = String(g.zero_std);
  const first = rows.get(g.episode_ids[0]);
  box.appendChild(
    el(
      "h4",
      null,
      `${g.group_id ?? "group"} · ${g.task.split}/${g.task.index}${first ? ` · ${first.image}` : ""} · ${g.size} siblings · mean ${f(g.mean, 4)} · std ${f(g.std, 4)}${g.zero_std ? " · zero spread: no learning signal" : ""}`,
    ),
  );
  if (g.identical.length)
    box.appendChild(el("p", "explain", `byte-identical trajectories: ${g.identical.map((s) => s.map((i) => g.episode_ids[i]).join(" = ")).join("; ")}`));
  const grid = el("div", "siblings");
  const order = g.ranks.map((r, i) => [r, i]).sort((x, y) => x[0] - y[0]);
  for (const [, i] of order) grid.appendChild(siblingCard(g, i, rows.get(g.episode_ids[i]), details.get(g.episode_ids[i]), imgs, open));
  box.appendChild(grid);
  return box;
}

export class CropsGroups {
  private readonly steps: number[];
  private readonly select: HTMLSelectElement;
  private readonly body: HTMLElement;
  private shown: number | null = null;
  constructor(
    private readonly root: HTMLElement,
    private readonly data: CropsTrainingData,
    private readonly rows: Map<string, CropsRow>,
    private readonly details: Map<string, CropsDetail>,
    private readonly imgs: Images,
    private readonly open: (key: string) => void,
    pick: (step: number) => void,
  ) {
    this.steps = [...new Set(data.groups.map((g) => g.step))].sort((a, b) => a - b);
    const bar = el("p", "step-pick");
    bar.appendChild(el("span", "k", "groups of step "));
    this.select = document.createElement("select");
    this.select.id = "gr-step";
    this.select.setAttribute("aria-label", "training step");
    for (const s of this.steps) {
      const st = data.steps.find((x) => x.step === s);
      const o = el("option", null, `${s}${st ? ` · mean score ${st.mean_reward.toFixed(3)} · ${st.groups} groups` : ""}`) as HTMLOptionElement;
      o.value = String(s);
      this.select.appendChild(o);
    }
    this.select.addEventListener("change", () => pick(Number(this.select.value)));
    bar.appendChild(this.select);
    this.body = el("div", "groups-of-step");
    root.append(bar, this.body);
  }

  /** Shows a step's groups (the first step when `step` is not one of the run's). */
  show(step: number | null): void {
    const s = step !== null && this.steps.includes(step) ? step : (this.steps[0] ?? null);
    if (s === null || s === this.shown) return;
    this.shown = s;
    this.select.value = String(s);
    this.body.textContent = "";
    this.root.dataset.step = String(s);
    for (const g of this.data.groups.filter((x) => x.step === s)) this.body.appendChild(groupRow(g, this.rows, this.details, this.imgs, this.open));
  }
}
