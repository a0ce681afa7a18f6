/**
 * The gym's actions: validation (first failing check, exact messages) and what each does to
 * the state (view, boxes, next id). Contract "How actions move the view", "Actions the model
 * writes"; line by line `apply_action` in the reference gym.
 */
import { COORD_MAX, fitView, mapBox, placeView, wholeView, type Rect } from "./geometry.ts";
import { pyFixed, pyLen, pyRepr, pyStrip } from "./pytext.ts";
import type { LabelledBox } from "./score.ts";

export const ACTIONS = ["zoom", "zoom_out", "reset_view", "pan", "box", "adjust", "remove", "done"] as const;
const MIN_VIEW_PX = 8;
const MIN_BOX_PX = 1;
const MAX_BOXES = 16;
const MAX_LABEL_LEN = 64;
const ZOOM_OUT_MAX = 8;

export interface CropsState {
  view: Rect;
  boxes: LabelledBox[];
  nextId: number;
}

export interface MappedBox {
  id: number;
  box_view: number[];
  box: Rect;
}

export type ActionResult = { ok: true; state: CropsState; feedback: string; mapped: MappedBox | null } | { ok: false; message: string };

class Invalid extends Error {}

const isNumber = (v: unknown): v is number => typeof v === "number";
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function num(v: unknown, what: string): number {
  if (!isNumber(v) || !Number.isFinite(v)) throw new Invalid(`${what} must be a number`);
  return v;
}

function coords(a: Record<string, unknown>, what: string): number[] {
  let b: unknown[];
  if (has(a, "box")) {
    if (!Array.isArray(a.box) || a.box.length !== 4) throw new Invalid(`${what} must be [x0, y0, x1, y1]`);
    b = a.box;
  } else if (["x0", "y0", "x1", "y1"].every((k) => has(a, k))) b = [a.x0, a.y0, a.x1, a.y1];
  else throw new Invalid(`${what} must be [x0, y0, x1, y1]`);
  const n = b.map((v) => num(v, "coordinates"));
  if (n.some((v) => v < 0 || v > COORD_MAX)) throw new Invalid("coordinates must be within 0..1000 of the current view");
  if (n[2] <= n[0] || n[3] <= n[1]) throw new Invalid(`${what} is empty or inverted (need x0 < x1 and y0 < y1)`);
  return n;
}

function label(v: unknown): string {
  if (typeof v !== "string" || !pyStrip(v)) throw new Invalid("label must be a non-empty string");
  if (pyLen(pyStrip(v)) > MAX_LABEL_LEN) throw new Invalid(`label longer than ${MAX_LABEL_LEN} characters`);
  return pyStrip(v);
}

function boxById(a: Record<string, unknown>, boxes: readonly LabelledBox[], floatKeys: ReadonlySet<string>): LabelledBox {
  const v = a.id;
  if (!isNumber(v) || !Number.isInteger(v) || floatKeys.has("id")) throw new Invalid("id must be an integer");
  const b = boxes.find((x) => x.id === v);
  if (!b) throw new Invalid(`no box with id ${v}`);
  return b;
}

/** "2.0x" / "12x": the zoom the feedback names. */
export function zoomText(view: readonly number[], iw: number): string {
  const z = iw / (view[2] - view[0]);
  return z < 9.95 ? `${pyFixed(z, 1)}x` : `${pyFixed(z, 0)}x`;
}

/**
 * Validates and applies one parsed action to `state` (not mutated). `floatKeys`: top-level keys
 * written as floats (Python rejects `"id": 2.0`). W x H is the view size.
 */
export function applyAction(
  state: CropsState,
  action: unknown,
  iw: number,
  ih: number,
  W: number,
  H: number,
  floatKeys: ReadonlySet<string> = new Set(),
): ActionResult {
  try {
    return { ok: true, ...apply(state, action, iw, ih, W, H, floatKeys) };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, message: e.message };
    throw e;
  }
}

function apply(state: CropsState, a: unknown, iw: number, ih: number, W: number, H: number, floatKeys: ReadonlySet<string>) {
  if (typeof a !== "object" || a === null || Array.isArray(a)) throw new Invalid("action must be a JSON object");
  const act = a as Record<string, unknown>;
  const name = act.action;
  if (!(ACTIONS as readonly unknown[]).includes(name))
    throw new Invalid(typeof name === "string" ? `unknown action ${pyRepr(name)}` : "action must be a string");
  const view = state.view;
  const boxes = state.boxes;
  let newView: Rect = [...view];
  let newBoxes: LabelledBox[] = boxes.map((b) => ({ ...b }));
  let nextId = state.nextId;
  let mapped: MappedBox | null = null;
  let fb: string;
  if (name === "zoom") {
    const b = coords(act, "zoom region");
    const r = mapBox(b, view);
    const w = r[2] - r[0];
    const h = r[3] - r[1];
    if (w < MIN_VIEW_PX || h < MIN_VIEW_PX) throw new Invalid(`zoom region too small (under ${MIN_VIEW_PX} image pixels)`);
    newView = fitView((r[0] + r[2]) / 2, (r[1] + r[3]) / 2, w, h, iw, ih, W, H);
    fb = `Zoomed in: ${zoomText(newView, iw)}.`;
  } else if (name === "zoom_out") {
    const f = num(has(act, "factor") ? act.factor : 2.0, "factor");
    if (f < 1 || f > ZOOM_OUT_MAX) throw new Invalid(`factor must be within 1..${ZOOM_OUT_MAX}`);
    const w = (view[2] - view[0]) * f;
    const h = (view[3] - view[1]) * f;
    newView = w >= iw || h >= ih ? wholeView(iw, ih) : fitView((view[0] + view[2]) / 2, (view[1] + view[3]) / 2, w, h, iw, ih, W, H);
    fb = `Zoomed out: ${zoomText(newView, iw)}.`;
  } else if (name === "reset_view") {
    newView = wholeView(iw, ih);
    fb = "View reset to the whole image.";
  } else if (name === "pan") {
    const dx = num(has(act, "dx") ? act.dx : 0, "dx");
    const dy = num(has(act, "dy") ? act.dy : 0, "dy");
    if (Math.abs(dx) > COORD_MAX || Math.abs(dy) > COORD_MAX) throw new Invalid("dx and dy must be within -1000..1000 of the current view");
    const w = view[2] - view[0];
    const h = view[3] - view[1];
    newView = placeView(view[0] + (dx * w) / COORD_MAX, view[1] + (dy * h) / COORD_MAX, w, h, iw, ih);
    fb = newView.every((v, i) => v === view[i]) ? "Panned: already at the edge of the image." : "Panned.";
  } else if (name === "box" || name === "adjust") {
    let lab: string;
    let target: LabelledBox | null = null;
    if (name === "box") lab = label(act.label);
    else {
      target = boxById(act, boxes, floatKeys);
      lab = has(act, "label") ? label(act.label) : target.label;
    }
    const b = coords(act, "box");
    const m = mapBox(b, view);
    if (m[2] - m[0] < MIN_BOX_PX || m[3] - m[1] < MIN_BOX_PX) throw new Invalid(`box smaller than ${MIN_BOX_PX} image pixel`);
    let bid: number;
    if (!target) {
      if (boxes.length >= MAX_BOXES) throw new Invalid(`too many boxes (at most ${MAX_BOXES})`);
      bid = nextId++;
      newBoxes.push({ id: bid, label: lab, box: m });
      fb = `Box ${bid} '${lab}' added.`;
    } else {
      bid = target.id;
      newBoxes = newBoxes.map((x) => (x.id === bid ? { ...x, label: lab, box: m } : x));
      fb = `Box ${bid} adjusted.`;
    }
    mapped = { id: bid, box_view: b, box: m };
  } else if (name === "remove") {
    const target = boxById(act, boxes, floatKeys);
    newBoxes = newBoxes.filter((x) => x.id !== target.id);
    fb = `Box ${target.id} removed.`;
  } else fb = `Finished with ${boxes.length} box${boxes.length !== 1 ? "es" : ""}.`;
  newBoxes.sort((x, y) => x.id - y.id);
  return { state: { view: newView, boxes: newBoxes, nextId }, feedback: fb, mapped };
}
