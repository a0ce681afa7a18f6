/**
 * The sha256 of every view and thumbnail a run needs, each distinct one rendered once: views
 * by (image, view, boxes), thumbnails by (image, view). The resized view without boxes is kept
 * for the few most recent views (turns that only add or move a box share it), the thumbnail
 * base per image. Resizing runs on this thread; JPEG encoding runs on sharp's threads, so the
 * two overlap across turns. Pixel buffers are pooled: a base goes back to the pool once it has
 * left the recent views and no render still reads it.
 */
import type { RgbImage, DrawnBox } from "./render.ts";
import { drawBoxes, encodeView, renderThumb, sha256Hex, thumbBase, viewBase } from "./render.ts";

type Thumb = { data: Uint8Array; width: number; height: number };

/** A resized view without boxes: its pixels, the renders still reading them, whether it left the recent views. */
interface Base {
  px: Uint8Array;
  users: number;
  dropped: boolean;
}

const rectKey = (r: readonly number[]) => r.join(",");

/** Box renders copied and encoding at once: enough to keep sharp's threads busy. */
const BOX_RENDERS_IN_FLIGHT = 8;

export class ViewHashes {
  /** Distinct views and thumbnails rendered. */
  rendered = 0;
  private readonly hashes = new Map<string, Promise<string>>();
  private readonly bases = new Map<string, Base>();
  private readonly thumbs = new Map<string, Thumb>();
  /** `onImage`: each distinct view and thumbnail's JPEG bytes, once, as rendered (a page keeps them; verify does not). */
  constructor(
    private readonly maxBases = 6,
    private readonly onImage?: (sha256: string, jpeg: Buffer) => void,
  ) {}

  private hashed(jpeg: Promise<Buffer>): Promise<string> {
    return jpeg.then((b) => {
      const h = sha256Hex(b);
      this.onImage?.(h, b);
      return h;
    });
  }

  view(imageId: string, img: RgbImage, view: readonly number[], boxes: readonly DrawnBox[], W: number, H: number): Promise<string> {
    const vk = `${imageId}|${rectKey(view)}`;
    const key = `v|${vk}|${boxes.map((b) => `${b.id}:${rectKey(b.box)}`).join(";")}`;
    let h = this.hashes.get(key);
    if (!h) {
      let base = this.bases.get(vk);
      if (base) this.bases.delete(vk);
      else base = { px: viewBase(img, view, W, H, this.take(W * H * 3)), users: 0, dropped: false };
      this.bases.set(vk, base);
      const b = base;
      b.users++;
      if (this.bases.size > this.maxBases) {
        const [oldKey, old] = this.bases.entries().next().value!;
        this.bases.delete(oldKey);
        old.dropped = true;
        if (!old.users) this.give(old.px);
      }
      if (boxes.length) {
        // Boxes are drawn on a pooled copy of the base, returned once the encoder is done with it.
        // Few copies at a time, so the pool's warm buffers serve them: a fresh 0.8 MB buffer per
        // render cost more in page faults than the copy itself.
        h = this.slot().then(() => {
          const px = this.take(b.px.length);
          try {
            px.set(b.px);
          } finally {
            this.unuse(b);
          }
          drawBoxes(px, W, H, view, boxes);
          return this.hashed(encodeView(px, W, H)).finally(() => {
            this.give(px);
            this.release();
          });
        });
      } else h = this.hashed(encodeView(b.px, W, H)).finally(() => this.unuse(b));
      this.hashes.set(key, h);
      this.rendered++;
    }
    return h;
  }

  /** A render is done reading `b`; a base that left the recent views goes back to the pool with its last reader. */
  private unuse(b: Base): void {
    if (--b.users === 0 && b.dropped) this.give(b.px);
  }

  /** Box renders between their copy and the end of their encode. */
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private async slot(): Promise<void> {
    while (this.active >= BOX_RENDERS_IN_FLIGHT) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
  }
  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  /** Spare pixel buffers by length (a few per size): box renders reuse them instead of allocating. */
  private readonly spare = new Map<number, Uint8Array[]>();
  private take(n: number): Uint8Array {
    return this.spare.get(n)?.pop() ?? new Uint8Array(n);
  }
  private give(px: Uint8Array): void {
    const list = this.spare.get(px.length) ?? [];
    if (list.length < 32) list.push(px);
    this.spare.set(px.length, list);
  }

  thumb(imageId: string, img: RgbImage, view: readonly number[]): Promise<string> {
    const key = `t|${imageId}|${rectKey(view)}`;
    let h = this.hashes.get(key);
    if (!h) {
      let base = this.thumbs.get(imageId);
      if (!base) this.thumbs.set(imageId, (base = thumbBase(img)));
      h = this.hashed(encodeView(renderThumb(base, view, img.width, img.height), base.width, base.height));
      this.hashes.set(key, h);
    }
    return h;
  }
}
