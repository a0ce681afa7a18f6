/**
 * Where a map's pins, their labels and its place names go, in pixels: pins
 * that would overlap are drawn apart (the later one moved off along a
 * leader line from its true spot), each label takes the first candidate
 * spot that meets nothing, then the place under each pin is named beside
 * the pin (the place the map is about: its dot is hidden by the pin, and it
 * wins over every smaller place around; a pin within a city's reach, its
 * extent guessed from its population, is in that city: Buenos Aires, not the
 * suburb whose dot the pin covers), then other place names fill in,
 * most populous first, only where they meet nothing either. Pure and
 * deterministic: the video and the page place a map's labels with the same
 * call.
 *
 * Greedy candidate placement (the standard cartographic approach, as in
 * Imhof's rules and most label engines) rather than a library: the labels
 * per map are a few dozen, and the libraries on the registry either place
 * whole tile sets (maplibre's symbol placement) or optimise by simulated
 * annealing (d3-labeler), which is neither deterministic nor needed here.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PinIn {
  /** The true spot, in map pixels. */
  x: number;
  y: number;
  r: number;
  /** The label's size, if it has one. */
  label?: { w: number; h: number };
}

export interface PinOut {
  /** Where the pin is drawn (its true spot unless moved apart from another pin). */
  x: number;
  y: number;
  r: number;
  /** The true spot, when the pin was moved (a leader line joins them). */
  from: [number, number] | null;
  /** The label's box (top left), null without a label or when no spot was free. */
  label: Rect | null;
}

export interface NameIn {
  x: number;
  y: number;
  w: number;
  h: number;
  /** How far the place reaches from its dot, in pixels (a city is not its centre point): a pin within it is in the place. */
  reach?: number;
}

export interface NameOut {
  /** The place's dot. */
  x: number;
  y: number;
  /** False for a place under a pin: the pin marks it, its name sits beside the pin. */
  dot: boolean;
  /** The name's box (top left). */
  label: Rect;
  /** Index into the names given. */
  index: number;
}

export interface MapLabels {
  pins: PinOut[];
  names: NameOut[];
}

export interface LabelOptions {
  width: number;
  height: number;
  /** Boxes nothing may cover (the scale bar, the credit line). */
  reserved: Rect[];
  /** Space kept between things. */
  gap: number;
  /** A place's dot radius. */
  dot: number;
  /** At most this many names. */
  maxNames: number;
}

export const intersects = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** A circle's bounding box: what a label must keep off. */
export const circleBox = (x: number, y: number, r: number): Rect => ({ x: x - r, y: y - r, w: 2 * r, h: 2 * r });

const inside = (r: Rect, w: number, h: number) => r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h;

/** Directions tried when a pin is moved apart, after "straight away from the pin it meets". */
const AWAY: [number, number][] = [
  [0.7071, -0.7071],
  [-0.7071, -0.7071],
  [0.7071, 0.7071],
  [-0.7071, 0.7071],
  [1, 0],
  [-1, 0],
  [0, -1],
  [0, 1],
];

function placePins(pins: PinIn[], w: number, h: number, gap: number, reserved: Rect[]): { x: number; y: number; r: number; from: [number, number] | null }[] {
  const placed: { x: number; y: number; r: number; from: [number, number] | null }[] = [];
  const free = (x: number, y: number, r: number) =>
    x >= r &&
    y >= r &&
    x <= w - r &&
    y <= h - r &&
    placed.every((q) => Math.hypot(q.x - x, q.y - y) >= q.r + r + gap) &&
    !reserved.some((b) => intersects(circleBox(x, y, r), b));
  for (const p of pins) {
    // A pin outside the framing sits on the edge, pointing the way to it.
    const x = Math.min(w - p.r, Math.max(p.r, p.x));
    const y = Math.min(h - p.r, Math.max(p.r, p.y));
    if (free(x, y, p.r)) {
      placed.push({ x, y, r: p.r, from: null });
      continue;
    }
    // Moved away from the pin it meets, or (under the scale bar or the credit) from its own spot.
    const other = placed.find((q) => Math.hypot(q.x - x, q.y - y) < q.r + p.r + gap) ?? { x, y };
    const dx = x - other.x;
    const dy = y - other.y;
    const len = Math.hypot(dx, dy);
    const dirs: [number, number][] = len > 0.5 ? [[dx / len, dy / len], ...AWAY] : AWAY;
    let spot: [number, number] | null = null;
    for (let k = 1; k <= 6 && !spot; k++)
      for (const [ux, uy] of dirs) {
        const d = k * (2 * p.r + gap);
        const cx = other.x + ux * d;
        const cy = other.y + uy * d;
        if (free(cx, cy, p.r)) {
          spot = [cx, cy];
          break;
        }
      }
    // Nowhere free (a map too small for its pins): left where it is; overlap beats vanishing.
    placed.push(spot ? { x: spot[0], y: spot[1], r: p.r, from: [x, y] } : { x, y, r: p.r, from: null });
  }
  return placed;
}

/** Candidate label boxes around a point with radius r: above, below, right, left, then the diagonals. */
function candidates(x: number, y: number, r: number, w: number, h: number, gap: number): Rect[] {
  const d = r + gap;
  return [
    { x: x - w / 2, y: y - d - h, w, h },
    { x: x - w / 2, y: y + d, w, h },
    { x: x + d, y: y - h / 2, w, h },
    { x: x - d - w, y: y - h / 2, w, h },
    { x: x + d * 0.7, y: y - d * 0.7 - h, w, h },
    { x: x - d * 0.7 - w, y: y - d * 0.7 - h, w, h },
    { x: x + d * 0.7, y: y + d * 0.7, w, h },
    { x: x - d * 0.7 - w, y: y + d * 0.7, w, h },
  ];
}

/** Names read beside their dot first (right, left), then above and below. */
function nameCandidates(x: number, y: number, r: number, w: number, h: number, gap: number): Rect[] {
  const d = r + gap / 2;
  return [
    { x: x + d, y: y - h / 2, w, h },
    { x: x - d - w, y: y - h / 2, w, h },
    { x: x - w / 2, y: y - d - h, w, h },
    { x: x - w / 2, y: y + d, w, h },
  ];
}

export function placeLabels(pins: PinIn[], names: NameIn[], o: LabelOptions): MapLabels {
  const { width: W, height: H, gap } = o;
  const spots = placePins(pins, W, H, gap, o.reserved);
  // Pins, their true spots (leader ends) and the reserved boxes: no label may cover them.
  const obstacles: Rect[] = [...o.reserved];
  for (const s of spots) {
    obstacles.push(circleBox(s.x, s.y, s.r));
    if (s.from) obstacles.push(circleBox(s.from[0], s.from[1], o.dot));
  }
  const labels: Rect[] = [];
  const clear = (r: Rect) => inside(r, W, H) && !obstacles.some((b) => intersects(r, b)) && !labels.some((b) => intersects(r, b));
  const pinsOut: PinOut[] = spots.map((s, i) => {
    const l = pins[i].label;
    let label: Rect | null = null;
    if (l) label = candidates(s.x, s.y, s.r, l.w, l.h, gap / 2).find(clear) ?? null;
    if (label) labels.push(label);
    return { ...s, label };
  });
  const namesOut: NameOut[] = [];
  // The places under the pins first (most populous first, one per pin): beside the pin that covers them.
  const marks = spots.flatMap((s, pin) => [{ x: s.x, y: s.y, r: s.r, pin }, ...(s.from ? [{ x: s.from[0], y: s.from[1], r: o.dot, pin }] : [])]);
  const named = new Set<number>();
  const covered = new Set<number>();
  names.forEach((n, index) => {
    const dot = circleBox(n.x, n.y, o.dot + gap / 2);
    // On the dot, or within the place's reach: Buenos Aires, not the suburb whose dot the pin happens to cover.
    const onDot = marks.filter((m) => intersects(dot, circleBox(m.x, m.y, m.r)));
    const under = marks.filter((m) => onDot.includes(m) || Math.hypot(m.x - n.x, m.y - n.y) <= (n.reach ?? 0));
    if (under.length === 0) return;
    covered.add(index);
    if (under.every((m) => named.has(marks.indexOf(m))) || namesOut.length >= o.maxNames) return;
    // Beside the nearest mark that has room, else beside the pin a covering true spot belongs to
    // (that dot may sit inside another pin, with no room around it).
    const away = (m: { x: number; y: number }) => Math.hypot(m.x - n.x, m.y - n.y);
    const anchors = [...new Set([...under, ...under.map((m) => marks.find((k) => k.pin === m.pin)!)])].sort((a, b) => away(a) - away(b));
    let label: Rect | undefined;
    let beside = anchors[0];
    for (const m of anchors) {
      label = [...nameCandidates(m.x, m.y, m.r, n.w, n.h, gap), ...candidates(m.x, m.y, m.r, n.w, n.h, gap / 2)].find(clear);
      if (label) {
        beside = m;
        break;
      }
    }
    if (!label) return;
    // Named: the pins on its dot and the one it sits beside; a pin merely within its reach may still name its own place.
    for (const u of under) if (onDot.includes(u) || u.pin === beside.pin) named.add(marks.indexOf(u));
    labels.push(label);
    namesOut.push({ x: n.x, y: n.y, dot: false, label, index });
  });
  names.forEach((n, index) => {
    if (namesOut.length >= o.maxNames || covered.has(index)) return;
    const dot = circleBox(n.x, n.y, o.dot + gap / 2);
    if (!inside(dot, W, H) || obstacles.some((b) => intersects(dot, b)) || labels.some((b) => intersects(dot, b))) return;
    const label = nameCandidates(n.x, n.y, o.dot, n.w, n.h, gap).find(clear);
    if (!label) return;
    labels.push(label);
    obstacles.push(circleBox(n.x, n.y, o.dot));
    namesOut.push({ x: n.x, y: n.y, dot: true, label, index });
  });
  return { pins: pinsOut, names: namesOut };
}
