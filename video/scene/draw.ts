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

export class Draw {
  readonly prims: Prim[] = [];
  constructor(readonly tx: TextLayouter) {}

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
