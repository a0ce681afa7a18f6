/**
 * In-between frames drawn from the exact views (envs/geoguesser/src/page/player/exact.ts),
 * as pure maths on real pixels: which verified views a frame file reads
 * (the nearest before and after on its panorama, narrower first), and the
 * overlay: a view at the frame's own camera gives back its own pixels, a
 * narrower one fills exactly its share of the frame's middle, a view
 * looking elsewhere touches nothing. The browser's two paths (shader, JS)
 * are compared on the sample episode in test/player.test.ts.
 */
import { describe, expect, it } from "vitest";
import { exactViewsFor, overlaps, overlayExact, readablePixels } from "../../envs/geoguesser/src/page/player/exact.ts";
import type { FileSource } from "../../envs/geoguesser/src/page/player/format.ts";

/** A deterministic, non-flat picture (so a shifted sample would show). */
function picture(w: number, h: number): Uint8ClampedArray {
  const p = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      p[o] = (x * 7 + y * 3) % 256;
      p[o + 1] = (x * x + y) % 256;
      p[o + 2] = (y * 11) % 256;
      p[o + 3] = 255;
    }
  return p;
}

describe("exact views for in-between frames", () => {
  it("a frame file reads the nearest verified views of its panorama before and after it, narrower first", () => {
    const files: FileSource[] = [
      [0, 7, 0, 0, 90], // opening view on panorama 7
      [7, 0, 0, 70], // zoom in...
      [7, 0, 0, 50],
      [1, 7, 0, 0, 30], // ...to 30 degrees
      [2, 8, 0, 0, 90], // a walk to panorama 8
      [8, 40, 0, 90],
      [3], // a view without its camera
    ];
    expect(exactViewsFor(files, 1)).toEqual([
      [1, 7, 0, 0, 30],
      [0, 7, 0, 0, 90],
    ]);
    expect(exactViewsFor(files, 5)).toEqual([[2, 8, 0, 0, 90]]);
    expect(exactViewsFor(files, 0)).toEqual([]); // a view is exact itself
    expect(exactViewsFor(files, 6)).toEqual([]);
    expect(overlaps({ heading: 0, pitch: 0, fov: 90 }, { heading: 50, pitch: 0, fov: 30 })).toBe(true);
    expect(overlaps({ heading: 0, pitch: 0, fov: 30 }, { heading: 180, pitch: 0, fov: 90 })).toBe(false);
  });

  it("the overlay: the frame's own camera gives its pixels back; a narrower view fills its share of the middle; a view elsewhere touches nothing", () => {
    const W = 64;
    const view = { rgba: picture(W, W), width: W, height: W, pose: { heading: 30, pitch: -5, fov: 60 } };
    const grey = () => new Uint8ClampedArray(W * W * 4).fill(128);

    const same = grey();
    overlayExact(same, W, W, view.pose, [view]);
    expect(Buffer.from(same).equals(Buffer.from(view.rgba))).toBe(true);

    // A frame twice as wide (tan of the half-angle doubled): the view fills the middle half, every pixel of the rest is left.
    const half = Math.atan(Math.tan((30 * Math.PI) / 180) * 2) * (360 / Math.PI);
    const wide = grey();
    overlayExact(wide, W, W, { ...view.pose, fov: half }, [view]);
    let inside = 0;
    for (let y = 0; y < W; y++)
      for (let x = 0; x < W; x++) {
        const o = (y * W + x) * 4;
        const touched = wide[o] !== 128 || wide[o + 1] !== 128 || wide[o + 2] !== 128;
        const middle = x >= W / 4 && x < (3 * W) / 4 && y >= W / 4 && y < (3 * W) / 4;
        if (middle) inside++;
        // Within a pixel of the edge a sample may fall either side.
        const edge = [x, y].some((c) => Math.abs(c - W / 4) < 1.5 || Math.abs(c - (3 * W) / 4) < 1.5);
        if (!edge) expect(touched, `(${x}, ${y})`).toBe(middle);
      }
    expect(inside).toBe((W / 2) ** 2);
    // The middle pixel of the wide frame is the view's middle pixel.
    const c = ((W / 2) * W + W / 2) * 4;
    expect([...wide.slice(c, c + 3)]).toEqual([...view.rgba.slice(c, c + 3)]);

    const away = grey();
    overlayExact(away, W, W, { heading: 210, pitch: 0, fov: 60 }, [view]);
    expect(away.every((v) => v === 128)).toBe(true);
  });
});

describe("which view pixels a page may read", () => {
  const file = { protocol: "file:", href: "file:///tmp/page/index.html", origin: "null" };
  const http = { protocol: "http:", href: "http://127.0.0.1:8080/run/index.html", origin: "http://127.0.0.1:8080" };
  it("its own data: and blob: URLs, anywhere", () => {
    expect(readablePixels("data:image/jpeg;base64,AAAA", file)).toBe(true);
    expect(readablePixels("blob:null/1234", file)).toBe(true);
  });
  it("never a file beside a page opened from disk (the browser taints it)", () => {
    expect(readablePixels("views/ab.jpg", file)).toBe(false);
    expect(readablePixels("file:///tmp/page/views/ab.jpg", file)).toBe(false);
  });
  it("a file of the page's own http origin, not another's", () => {
    expect(readablePixels("views/ab.jpg", http)).toBe(true);
    expect(readablePixels("http://example.com/views/ab.jpg", http)).toBe(false);
  });
});
