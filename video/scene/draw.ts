/**
 * The small vocabulary scenes are written in: a list that collects
 * primitives, plus the layout helpers several parts share (a label in a
 * rounded pill, one line cut to a width). Pure; no canvas here.
 */
import type { FontSpec, FontRole } from "../text/fonts.ts";
import type { Box, Paint, Prim, Radius } from "./types.ts";
import type { TextLayouter } from "../text/layouter.ts";

export const font = (role: FontRole, size: number, weight: FontSpec["weight"] = 400, italic = false): FontSpec =>
  italic ? { role, size, weight, italic } : { role, size, weight };

/** Height of one line of text at CSS's "normal" line height for these fonts. */
export const lineBox = (size: number) => size * 1.2;

/**
 * Parts laid out before, per layouter: the primitives a part pushed for the
 * inputs spelled in its key. A video's parts hold still for most of its
 * frames (a map while it fades in, the HUD between moves, the past turns
 * through a segment), and laying one out again (text fitted, labels placed,
 * gazetteer cells read) cost most of a scene. Kept per layouter because a
 * part's text is the layouter's: what a hit skips was laid out, and
 * recorded into its plan, the first time.
 */
const memos = new WeakMap<TextLayouter, Map<string, Prim[]>>();
/** Layouts (what a part computes before it draws: where labels go) kept the same way, for parts whose drawing moves while their layout holds. */
const layouts = new WeakMap<TextLayouter, Map<string, unknown>>();
/** Parts kept per layouter: a video revisits a few states of each part; the oldest goes first. */
const MEMO_ENTRIES = 512;

/** The layouter's cache in `caches`, bounded: the oldest entry goes when a new one would pass MEMO_ENTRIES. */
function cacheFor<V>(caches: WeakMap<TextLayouter, Map<string, V>>, tx: TextLayouter): Map<string, V> {
  let cache = caches.get(tx);
  if (!cache) caches.set(tx, (cache = new Map()));
  if (cache.size >= MEMO_ENTRIES) cache.delete(cache.keys().next().value as string);
  return cache;
}

const ids = new WeakMap<object, number>();
let lastId = 0;
/** A number that stands for an object in a memo key: inputs too large to spell out (a video's props, its trace) that never change once made. */
export function identity(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = ++lastId));
  return id;
}

export class Draw {
  readonly prims: Prim[] = [];
  constructor(readonly tx: TextLayouter) {}

  /**
   * Runs `body` (a part that only pushes primitives) once per distinct key
   * for this layouter; later calls push the same primitives again. The key
   * must hold every input the part reads. Primitives are shared between
   * scenes from here on, so nothing may change one once pushed (nothing
   * does: painters and comparisons only read them).
   */
  memo(key: readonly unknown[], body: () => void): void {
    const k = JSON.stringify(key);
    const hit = memos.get(this.tx)?.get(k);
    if (hit) {
      for (const p of hit) this.prims.push(p);
      return;
    }
    const from = this.prims.length;
    body();
    cacheFor(memos, this.tx).set(k, this.prims.slice(from));
  }

  /** `make`'s value, made once per distinct key for this layouter (as memo, for a value nothing changes once made). */
  memoValue<T>(key: readonly unknown[], make: () => T): T {
    const k = JSON.stringify(key);
    const cache = layouts.get(this.tx);
    if (cache?.has(k)) return cache.get(k) as T;
    const v = make();
    cacheFor(layouts, this.tx).set(k, v);
    return v;
  }

  rect(b: Box, fill?: Paint, r?: Radius, stroke?: { color: string; width: number }): void {
    if (b.w <= 0 || b.h <= 0) return;
    this.prims.push({
      t: "rect",
      x: b.x,
      y: b.y,
      w: b.w,
      h: b.h,
      ...(r ? { r } : {}),
      ...(fill ? { fill } : {}),
      ...(stroke ? { stroke: stroke.color, lw: stroke.width } : {}),
    });
  }

  /** One line at (x, middle y); with maxWidth it is cut with an ellipsis to fit. Returns the text drawn. */
  text(
    text: string,
    x: number,
    y: number,
    f: FontSpec,
    fill: string,
    o: { align?: "left" | "center" | "right"; maxWidth?: number; spacing?: number; halo?: { color: string; width: number } } = {},
  ): string {
    const shown = o.maxWidth !== undefined ? this.tx.fit(text, f, o.maxWidth) : text;
    if (shown === "") return shown;
    this.prims.push({
      t: "text",
      x,
      y,
      text: shown,
      font: f,
      fill,
      ...(o.align && o.align !== "left" ? { align: o.align } : {}),
      ...(o.spacing ? { spacing: o.spacing } : {}),
      ...(o.halo ? { halo: o.halo } : {}),
    });
    return shown;
  }

  width(text: string, f: FontSpec, spacing = 0): number {
    return this.tx.width(text, f) + spacing * [...text].length;
  }

  /** A label in a rounded box (badges, banners, pills); returns the box. */
  pill(
    text: string,
    x: number,
    y: number,
    f: FontSpec,
    o: { fill: string; color: string; padX: number; padY: number; r: Radius; spacing?: number; anchor?: "left" | "center" | "right" },
  ): Box {
    const w = this.width(text, f, o.spacing) + 2 * o.padX;
    const h = lineBox(f.size) + 2 * o.padY;
    const left = o.anchor === "center" ? x - w / 2 : o.anchor === "right" ? x - w : x;
    const b = { x: left, y, w, h };
    this.rect(b, o.fill, o.r);
    this.text(text, left + o.padX, y + h / 2, f, o.color, { spacing: o.spacing });
    return b;
  }

  push(o: { alpha?: number; clip?: Box & { r?: Radius }; dx?: number; dy?: number }): void {
    this.prims.push({ t: "push", ...o });
  }

  pop(): void {
    this.prims.push({ t: "pop" });
  }

  /** Draws `body` inside a group; an invisible group (alpha 0) is left out. */
  group(o: { alpha?: number; clip?: Box & { r?: Radius }; dx?: number; dy?: number }, body: () => void): void {
    if (o.alpha !== undefined && o.alpha <= 0) return;
    const trivial = (o.alpha === undefined || o.alpha >= 1) && !o.clip && !o.dx && !o.dy;
    if (trivial) return body();
    this.push({
      ...(o.alpha !== undefined && o.alpha < 1 ? { alpha: o.alpha } : {}),
      ...(o.clip ? { clip: o.clip } : {}),
      ...(o.dx ? { dx: o.dx } : {}),
      ...(o.dy ? { dy: o.dy } : {}),
    });
    body();
    this.pop();
  }
}

export const rectOf = (r: { x: number; y: number; width: number; height: number }): Box => ({ x: r.x, y: r.y, w: r.width, h: r.height });
