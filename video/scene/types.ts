/**
 * A video frame as data: a flat list of drawing primitives that one painter
 * (video/paint.ts) walks on any Canvas 2D context, Skia's in Node or a
 * browser's inside Remotion. Scenes are plain JSON: two frames whose scenes
 * are equal are painted alike, which is all hold detection needs.
 */
import type { FontSpec } from "../text/fonts.ts";
import type { MapFrame } from "../map/frame.ts";

export interface LinearGradient {
  kind: "linear";
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  stops: [number, string][];
}
export type Paint = string | LinearGradient;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Corner radii: one for all corners, or [top-left, top-right, bottom-right, bottom-left]. */
export type Radius = number | [number, number, number, number];

export type Prim =
  | ({ t: "rect"; r?: Radius; fill?: Paint; stroke?: string; lw?: number } & Box)
  | { t: "circle"; x: number; y: number; r: number; fill?: string; stroke?: string; lw?: number }
  /** A polyline or polygon: pts = [x0, y0, x1, y1, ...]. */
  | { t: "poly"; pts: number[]; closed: boolean; fill?: string; stroke?: string; lw?: number; dash?: number[]; cap?: "butt" | "round" }
  /**
   * One line of text, already broken and cut by the scene (never by the painter).
   * y is the line box's vertical middle; x the left, centre or right edge by `align`.
   */
  | {
      t: "text";
      x: number;
      y: number;
      text: string;
      font: FontSpec;
      fill: string;
      align?: "left" | "center" | "right";
      /** Extra px between characters (CSS letter-spacing). */
      spacing?: number;
      /** An outline drawn under the fill (map labels). */
      halo?: { color: string; width: number };
    }
  /** A frame file (name relative to the timeline's frames), drawn into the box. */
  | ({ t: "image"; src: string } & Box)
  /** Natural Earth land and borders for a framing, clipped to the box. */
  | ({ t: "map"; frame: MapFrame; sea: string; land: string; border: string; lw: number } & Box)
  /** Opens a group: alpha multiplies, clip intersects (rounded box), (dx, dy) translates. */
  | { t: "push"; alpha?: number; clip?: Box & { r?: Radius }; dx?: number; dy?: number }
  | { t: "pop" };

export interface Scene {
  width: number;
  height: number;
  background: string;
  prims: Prim[];
}

/** The frame files a scene shows, in paint order. */
export function sceneImages(scene: Scene): string[] {
  const out: string[] = [];
  for (const p of scene.prims) if (p.t === "image") out.push(p.src);
  return out;
}
