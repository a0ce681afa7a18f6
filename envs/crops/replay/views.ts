/**
 * The sha256 of every view and thumbnail a run needs, each distinct one rendered once: views
 * by (image, view, boxes), thumbnails by (image, view). The resized view without boxes is kept
 * for the few most recent views (turns that only add or move a box share it), with its
 * quantised JPEG coefficients: a view with boxes recomputes only the MCUs its outlines touch
 * and re-runs the entropy pass (jpeg.ts writes the same bytes as encoding it whole). The
 * thumbnail base per image is kept the same way. Pixel and coefficient buffers are pooled: a
 * fresh 0.5 MB buffer per view cost more in page faults than the work done in it.
 */
import type { RgbImage, DrawnBox } from "./render.ts";
import { drawBoxes, drawThumbOutline, outlineRects, sha256Hex, thumbBase, thumbOutlineRects, viewBase } from "./render.ts";
import { JpegEncoder, type Coefficients } from "./jpeg.ts";

/** A resized view or thumbnail without outlines, and its coefficients once encoded. */
interface Base {
  px: Uint8Array;
  width: number;
  height: number;
  coef?: Coefficients;
}

const rectKey = (r: readonly number[]) => r.join(",");

export class ViewHashes {
  /** Distinct views and thumbnails rendered. */
  rendered = 0;
  private readonly hashes = new Map<string, Promise<string>>();
  private readonly bases = new Map<string, Base>();
  private readonly thumbs = new Map<string, Base>();
  private readonly enc = new JpegEncoder();
  /** Coefficients of the view being encoded (patched from its base's). */
  private scratch?: Coefficients;
  /** `onImage`: each distinct view and thumbnail's JPEG bytes, once, as rendered (a page keeps them; verify does not). */
  constructor(
    private readonly maxBases = 6,
    private readonly onImage?: (sha256: string, jpeg: Buffer) => void,
  ) {}

  private hashed(jpeg: Buffer): Promise<string> {
    const h = sha256Hex(jpeg);
    this.onImage?.(h, jpeg);
    return Promise.resolve(h);
  }

  /** `base`'s coefficients, computed at its first use. */
  private baseCoef(b: Base): Coefficients {
    if (!b.coef) {
      const n = b.px.length; // more than the coefficients need: a pool key per view size
      b.coef = this.enc.coefficients(b.px, b.width, b.height, this.takeCoef(n));
    }
    return b.coef;
  }

  /** The JPEG of `b` with outlines drawn by `draw` inside `rects`. */
  private encodeDrawn(b: Base, draw: (px: Uint8Array) => void, rects: number[][]): Buffer {
    const base = this.baseCoef(b);
    const px = this.take(b.px.length);
    try {
      px.set(b.px);
      draw(px);
      const c = (this.scratch = this.enc.patched(base, px, rects, this.scratch && this.scratch.dc.length >= base.dc.length ? this.scratch : undefined));
      return this.enc.entropy(c);
    } finally {
      this.give(px);
    }
  }

  view(imageId: string, img: RgbImage, view: readonly number[], boxes: readonly DrawnBox[], W: number, H: number): Promise<string> {
    const vk = `${imageId}|${rectKey(view)}`;
    const key = `v|${vk}|${boxes.map((b) => `${b.id}:${rectKey(b.box)}`).join(";")}`;
    let h = this.hashes.get(key);
    if (!h) {
      let base = this.bases.get(vk);
      if (base) this.bases.delete(vk);
      else base = { px: viewBase(img, view, W, H, this.take(W * H * 3)), width: W, height: H };
      this.bases.set(vk, base);
      if (this.bases.size > this.maxBases) {
        const [oldKey, old] = this.bases.entries().next().value!;
        this.bases.delete(oldKey);
        this.give(old.px);
        if (old.coef) this.giveCoef(old.coef, old.px.length);
      }
      h = boxes.length
        ? this.hashed(this.encodeDrawn(base, (px) => drawBoxes(px, W, H, view, boxes), outlineRects(W, H, view, boxes)))
        : this.hashed(this.enc.entropy(this.baseCoef(base)));
      this.hashes.set(key, h);
      this.rendered++;
    }
    return h;
  }

  /** Spare pixel buffers by length (a few per size) and coefficient buffers by their view's pixel length. */
  private readonly spare = new Map<number, Uint8Array[]>();
  private readonly spareCoef = new Map<number, Coefficients[]>();
  private take(n: number): Uint8Array {
    return this.spare.get(n)?.pop() ?? new Uint8Array(n);
  }
  private give(px: Uint8Array): void {
    const list = this.spare.get(px.length) ?? [];
    if (list.length < 32) list.push(px);
    this.spare.set(px.length, list);
  }
  private takeCoef(n: number): Coefficients | undefined {
    return this.spareCoef.get(n)?.pop();
  }
  private giveCoef(c: Coefficients, n: number): void {
    const list = this.spareCoef.get(n) ?? [];
    if (list.length < 8) list.push(c);
    this.spareCoef.set(n, list);
  }

  thumb(imageId: string, img: RgbImage, view: readonly number[]): Promise<string> {
    const key = `t|${imageId}|${rectKey(view)}`;
    let h = this.hashes.get(key);
    if (!h) {
      let base = this.thumbs.get(imageId);
      if (!base) {
        const t = thumbBase(img);
        this.thumbs.set(imageId, (base = { px: t.data, width: t.width, height: t.height }));
      }
      const b = base;
      h = this.hashed(this.encodeDrawn(b, (px) => drawThumbOutline(px, b, view, img.width, img.height), thumbOutlineRects(b, view, img.width, img.height)));
      this.hashes.set(key, h);
    }
    return h;
  }
}
