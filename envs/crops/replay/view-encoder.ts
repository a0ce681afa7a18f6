/**
 * The JPEG side of ViewHashes: the undrawn views and thumbnails it was given, with their
 * quantised coefficients, and the encodes of them with outlines drawn. A view with outlines
 * recomputes only the MCUs its outlines touch and re-runs the entropy pass (jpeg.ts writes the
 * same bytes as encoding it whole). Runs in encode-worker.ts's thread from the built CLI, on
 * the caller's thread otherwise.
 */
import type { DrawnBox } from "./render.ts";
import { drawBoxes, drawThumbOutline, outlineRects, sha256Hex, thumbOutlineRects } from "./render.ts";
import { JpegEncoder, type Coefficients } from "./jpeg.ts";

/** An undrawn view or thumbnail, and its coefficients once encoded. */
interface Base {
  px: Uint8Array;
  width: number;
  height: number;
  coef?: Coefficients;
}

/** What one encode gives back: the sha256, and the bytes when asked for. */
export interface Encoded {
  sha256: string;
  jpeg?: Buffer;
}

/** The operations ViewHashes sends (to a worker as messages, with an id for the answer). */
export type EncodeOp =
  | { op: "base"; key: string; px: Uint8Array; width: number; height: number }
  | { op: "drop"; key: string }
  | { op: "view"; key: string; view: readonly number[]; boxes: readonly DrawnBox[] }
  | { op: "thumb"; key: string; view: readonly number[]; iw: number; ih: number };

export class ViewEncoder {
  private readonly bases = new Map<string, Base>();
  private readonly enc = new JpegEncoder();
  private scratch?: Coefficients;
  /** Spare pixel and coefficient buffers by pixel length. */
  private readonly spare = new Map<number, Uint8Array[]>();
  private readonly spareCoef = new Map<number, Coefficients[]>();

  constructor(private readonly keepBytes: boolean) {}

  /** Runs one operation; `view` and `thumb` give their JPEG's sha256 (and bytes when kept). */
  run(m: EncodeOp): Encoded | null {
    switch (m.op) {
      case "base": {
        const px = this.take(m.px.length);
        px.set(m.px);
        this.bases.set(m.key, { px, width: m.width, height: m.height });
        return null;
      }
      case "drop": {
        const b = this.bases.get(m.key);
        this.bases.delete(m.key);
        if (b) {
          this.give(b.px);
          if (b.coef) this.giveCoef(b.coef, b.px.length);
        }
        return null;
      }
      case "view": {
        const b = this.bases.get(m.key)!;
        const jpeg = m.boxes.length
          ? this.encodeDrawn(b, (px) => drawBoxes(px, b.width, b.height, m.view, m.boxes), outlineRects(b.width, b.height, m.view, m.boxes))
          : this.enc.entropy(this.baseCoef(b));
        return this.answer(jpeg);
      }
      case "thumb": {
        const b = this.bases.get(m.key)!;
        return this.answer(this.encodeDrawn(b, (px) => drawThumbOutline(px, b, m.view, m.iw, m.ih), thumbOutlineRects(b, m.view, m.iw, m.ih)));
      }
    }
  }

  private answer(jpeg: Buffer): Encoded {
    return { sha256: sha256Hex(jpeg), jpeg: this.keepBytes ? jpeg : undefined };
  }

  /** `b`'s coefficients, computed at its first use. */
  private baseCoef(b: Base): Coefficients {
    b.coef ??= this.enc.coefficients(b.px, b.width, b.height, this.spareCoef.get(b.px.length)?.pop());
    return b.coef;
  }

  /** The JPEG of `b` with outlines drawn by `draw` inside `rects`. */
  private encodeDrawn(b: Base, draw: (px: Uint8Array) => void, rects: number[][]): Buffer {
    const base = this.baseCoef(b);
    const px = this.take(b.px.length);
    try {
      px.set(b.px);
      draw(px);
      const into = this.scratch && this.scratch.dc.length >= base.dc.length ? this.scratch : undefined;
      return this.enc.entropy((this.scratch = this.enc.patched(base, px, rects, into)));
    } finally {
      this.give(px);
    }
  }

  private take(n: number): Uint8Array {
    return this.spare.get(n)?.pop() ?? new Uint8Array(n);
  }
  private give(px: Uint8Array): void {
    const list = this.spare.get(px.length) ?? [];
    if (list.length < 32) list.push(px);
    this.spare.set(px.length, list);
  }
  private giveCoef(c: Coefficients, n: number): void {
    const list = this.spareCoef.get(n) ?? [];
    if (list.length < 8) list.push(c);
    this.spareCoef.set(n, list);
  }
}
