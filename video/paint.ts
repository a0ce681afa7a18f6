/**
 * The one painter: walks a scene on a Canvas 2D context. The same code paints
 * every native frame in Node (@napi-rs/canvas, Skia) and the Remotion
 * preview in a browser <canvas>; it decides nothing about layout (text comes
 * already broken and cut), so the two can only differ in rasterisation.
 */
import { cssFont } from "./text/fonts.ts";
import type { MapCell } from "./map/atlas.ts";
import { mapRings } from "./map/paths.ts";
import type { Paint, Prim, Radius, Scene } from "./scene/types.ts";

/** The Canvas 2D surface both backends provide (Skia's context is typed as the DOM's). */
export type Ctx = CanvasRenderingContext2D;

export interface PaintEnv {
  /** A frame file, decoded (null: not available, the box stays empty). */
  image(src: string): CanvasImageSource | null;
  /** A new, empty Path2D of the backend (map paths are built once per framing and kept). */
  path2d(): Path2D;
  /** An atlas cell ("10m/19_13"; null: nothing there), asked only when a new framing is painted. */
  cell(key: string): MapCell | null;
}

const mapPaths = new Map<string, { land: Path2D; borders: Path2D }>();

/** Land and border paths for a framing at a size, from the cells it touches, projected once and kept for every frame that shows it. */
function mapPath(env: PaintEnv, p: Extract<Prim, { t: "map" }>): { land: Path2D; borders: Path2D } {
  const key = `${p.frame.center[0]},${p.frame.center[1]},${p.frame.halfWidthDeg},${p.w}x${p.h}`;
  let m = mapPaths.get(key);
  if (!m) {
    const rings = mapRings(p.frame, p.w, p.h, env.cell);
    const land = env.path2d();
    const borders = env.path2d();
    for (const ring of rings.land) trace(land, ring, true);
    for (const line of rings.borders) trace(borders, line, false);
    m = { land, borders };
    if (mapPaths.size > 32) mapPaths.clear();
    mapPaths.set(key, m);
  }
  return m;
}

function trace(path: Path2D, pts: Float64Array, closed: boolean): void {
  path.moveTo(pts[0], pts[1]);
  for (let i = 2; i + 1 < pts.length; i += 2) path.lineTo(pts[i], pts[i + 1]);
  if (closed) path.closePath();
}

function roundedRect(ctx: Ctx, x: number, y: number, w: number, h: number, r: Radius | undefined): void {
  ctx.beginPath();
  const [tl, tr, br, bl] = (typeof r === "number" ? [r, r, r, r] : (r ?? [0, 0, 0, 0])).map((v) => Math.max(0, Math.min(v, w / 2, h / 2)));
  ctx.moveTo(x + tl, y);
  ctx.lineTo(x + w - tr, y);
  if (tr) ctx.arcTo(x + w, y, x + w, y + tr, tr);
  else ctx.lineTo(x + w, y);
  ctx.lineTo(x + w, y + h - br);
  if (br) ctx.arcTo(x + w, y + h, x + w - br, y + h, br);
  else ctx.lineTo(x + w, y + h);
  ctx.lineTo(x + bl, y + h);
  if (bl) ctx.arcTo(x, y + h, x, y + h - bl, bl);
  else ctx.lineTo(x, y + h);
  ctx.lineTo(x, y + tl);
  if (tl) ctx.arcTo(x, y, x + tl, y, tl);
  else ctx.lineTo(x, y);
  ctx.closePath();
}

function style(ctx: Ctx, p: Paint): string | CanvasGradient {
  if (typeof p === "string") return p;
  const g = ctx.createLinearGradient(p.x0, p.y0, p.x1, p.y1);
  for (const [at, colour] of p.stops) g.addColorStop(at, colour);
  return g;
}

/**
 * The text settings the context holds, as last set by this paint (null: unknown). Setting a font
 * makes the backend parse it and look it up (Skia's context: about a fifth of a frame's text
 * cost), and a scene's texts mostly share their neighbours' font: it is set only when it changes.
 * Only text sets these; a restore (pop) may bring back others, so it forgets them.
 */
type TextState = { set: { font: string; align: CanvasTextAlign; spacing: string } | null };

export function paint(ctx: Ctx, scene: Scene, env: PaintEnv): void {
  const text: TextState = { set: null };
  ctx.save();
  ctx.fillStyle = scene.background;
  ctx.fillRect(0, 0, scene.width, scene.height);
  ctx.textBaseline = "middle";
  ctx.imageSmoothingEnabled = true;
  // Bilinear: the frame files are drawn at nearly their own size, and "high" (cubic) cost ~10 ms a frame in Skia.
  ctx.imageSmoothingQuality = "low";
  for (const p of scene.prims) paintOne(ctx, p, env, text);
  ctx.restore();
}

function paintOne(ctx: Ctx, p: Prim, env: PaintEnv, text: TextState): void {
  switch (p.t) {
    case "rect":
      roundedRect(ctx, p.x, p.y, p.w, p.h, p.r);
      if (p.fill) {
        ctx.fillStyle = style(ctx, p.fill);
        ctx.fill();
      }
      if (p.stroke) {
        // The border sits inside the box, as CSS draws it.
        const lw = p.lw ?? 1;
        const r = p.r === undefined ? undefined : typeof p.r === "number" ? Math.max(0, p.r - lw / 2) : (p.r.map((v) => Math.max(0, v - lw / 2)) as Radius);
        roundedRect(ctx, p.x + lw / 2, p.y + lw / 2, p.w - lw, p.h - lw, r);
        ctx.strokeStyle = p.stroke;
        ctx.lineWidth = lw;
        ctx.stroke();
      }
      return;
    case "circle":
      ctx.beginPath();
      ctx.arc(p.x, p.y, Math.max(0, p.r), 0, 2 * Math.PI);
      if (p.fill) {
        ctx.fillStyle = p.fill;
        ctx.fill();
      }
      if (p.stroke && (p.lw ?? 1) > 0) {
        ctx.strokeStyle = p.stroke;
        ctx.lineWidth = p.lw ?? 1;
        ctx.stroke();
      }
      return;
    case "poly": {
      ctx.beginPath();
      ctx.moveTo(p.pts[0], p.pts[1]);
      for (let i = 2; i + 1 < p.pts.length; i += 2) ctx.lineTo(p.pts[i], p.pts[i + 1]);
      if (p.closed) ctx.closePath();
      if (p.fill) {
        ctx.fillStyle = p.fill;
        ctx.fill();
      }
      if (p.stroke) {
        ctx.save();
        ctx.strokeStyle = p.stroke;
        ctx.lineWidth = p.lw ?? 1;
        ctx.lineCap = p.cap ?? "butt";
        if (p.dash) ctx.setLineDash(p.dash);
        ctx.stroke();
        ctx.restore();
      }
      return;
    }
    case "text": {
      const font = cssFont(p.font);
      const align = p.align ?? "left";
      const spacing = p.spacing ? `${Math.round(p.spacing * 100) / 100}px` : "0px";
      const was = text.set;
      if (was?.font !== font) ctx.font = font;
      if (was?.align !== align) ctx.textAlign = align;
      // A backend may reset the spacing with the font: set both when the font changes.
      if ((was?.font !== font || was.spacing !== spacing) && "letterSpacing" in ctx) (ctx as Ctx & { letterSpacing: string }).letterSpacing = spacing;
      text.set = { font, align, spacing };
      if (p.halo) {
        ctx.strokeStyle = p.halo.color;
        ctx.lineWidth = p.halo.width;
        ctx.lineJoin = "round";
        ctx.strokeText(p.text, p.x, p.y);
      }
      ctx.fillStyle = p.fill;
      ctx.fillText(p.text, p.x, p.y);
      return;
    }
    case "image": {
      const img = env.image(p.src);
      if (img) ctx.drawImage(img, p.x, p.y, p.w, p.h);
      return;
    }
    case "map": {
      const m = mapPath(env, p);
      ctx.save();
      ctx.beginPath();
      ctx.rect(p.x, p.y, p.w, p.h);
      ctx.clip();
      ctx.fillStyle = p.sea;
      ctx.fillRect(p.x, p.y, p.w, p.h);
      ctx.translate(p.x, p.y);
      ctx.fillStyle = p.land;
      // Even-odd: a lake is a ring inside its land.
      ctx.fill(m.land, "evenodd");
      ctx.strokeStyle = p.border;
      ctx.lineWidth = p.lw;
      ctx.stroke(m.borders);
      ctx.restore();
      return;
    }
    case "push":
      ctx.save();
      if (p.alpha !== undefined) ctx.globalAlpha *= p.alpha;
      if (p.clip) {
        roundedRect(ctx, p.clip.x, p.clip.y, p.clip.w, p.clip.h, p.clip.r);
        ctx.clip();
      }
      if (p.dx || p.dy) ctx.translate(p.dx ?? 0, p.dy ?? 0);
      return;
    case "pop":
      ctx.restore();
      text.set = null;
      return;
  }
}
