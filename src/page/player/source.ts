/**
 * Frame files for the painter, made in the browser: a keyframe is the page's
 * verified view (exact, downscaled like every view of the page); any other
 * frame is the panorama reprojected at the frame's camera, on the GPU
 * (gl.ts) or, without WebGL2, by the page's JS reprojection. Each frame file
 * is made once into a canvas of the video's frame-file size and kept for the
 * next frames that show it (a crossfade shows two).
 */
import { reprojectRgba } from "../reproject.ts";
import type { FileSource } from "./format.ts";
import { GlReprojector } from "./gl.ts";

/** The shader where WebGL2 works, else the JS path; "js" forces it (the fallback's test and benchmark). */
export type Reprojection = "webgl2" | "js";

const KEEP = 6;

export class FrameSource {
  private readonly made = new Map<string, HTMLCanvasElement>();
  private readonly spare: HTMLCanvasElement[] = [];
  private gl: GlReprojector | null = null;
  private glSrc: string | null = null;
  private glView: ImageBitmap | null = null;
  private readonly pixels = new Map<number, ImageData>();
  readonly mode: Reprojection;

  constructor(
    /** frames folder -> sources by file number (the two-up has one folder per side). */
    private readonly files: Map<string, FileSource[]>,
    private readonly views: Map<number, HTMLImageElement>,
    private readonly panos: Map<number, HTMLImageElement>,
    private readonly size: number,
    prefer: Reprojection = "webgl2",
  ) {
    if (prefer === "webgl2") {
      try {
        const gl = new GlReprojector(size, size);
        for (const [n, img] of panos) gl.addPano(n, img);
        this.gl = gl;
      } catch {
        this.gl = null;
      }
    }
    this.mode = this.gl ? "webgl2" : "js";
  }

  /** A frame file path's source (`<framesDir>/000123.jpg`). */
  private fileOf(src: string): FileSource | undefined {
    const slash = src.lastIndexOf("/");
    const m = /^(\d+)\.jpg$/.exec(src.slice(slash + 1));
    return m ? this.files.get(slash < 0 ? "" : src.slice(0, slash))?.[Number(m[1])] : undefined;
  }

  /** The decoded picture of a frame file path (`…/000123.jpg`), or null when the page has none. */
  image(src: string): CanvasImageSource | null {
    const hit = this.made.get(src);
    if (hit) {
      // Most recently used last.
      this.made.delete(src);
      this.made.set(src, hit);
      return hit;
    }
    const file = this.fileOf(src);
    if (!file) return null;
    if (file.length === 1) return this.views.get(file[0]) ?? null;
    if (this.gl) {
      // The last view only: the painter draws each image as soon as it asks for it, so the next
      // view may replace it (a crossfade's two files are redrawn each frame, cheaply).
      if (this.glSrc !== src || !this.glView) {
        const [pano, heading, pitch, fov] = file;
        this.glView?.close();
        this.glView = this.gl.draw(pano, { heading, pitch, fov });
        this.glSrc = src;
      }
      return this.glView;
    }
    const canvas = this.canvas();
    this.draw(canvas, file);
    this.made.set(src, canvas);
    return canvas;
  }

  private canvas(): HTMLCanvasElement {
    if (this.made.size >= KEEP) {
      const oldest = this.made.keys().next().value as string;
      this.spare.push(this.made.get(oldest)!);
      this.made.delete(oldest);
    }
    const c = this.spare.pop() ?? document.createElement("canvas");
    c.width = this.size;
    c.height = this.size;
    return c;
  }

  private draw(canvas: HTMLCanvasElement, [pano, heading, pitch, fov]: [number, number, number, number]): void {
    const ctx = canvas.getContext("2d")!;
    const src = this.panoPixels(pano);
    if (!src) return;
    const out = ctx.createImageData(this.size, this.size);
    reprojectRgba(src.data, src.width, src.height, out.data, this.size, this.size, { heading, pitch, fov });
    ctx.putImageData(out, 0, 0);
  }

  private panoPixels(n: number): ImageData | null {
    let p = this.pixels.get(n);
    if (!p) {
      const img = this.panos.get(n);
      if (!img) return null;
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext("2d", { willReadFrequently: true })!;
      ctx.drawImage(img, 0, 0);
      p = ctx.getImageData(0, 0, c.width, c.height);
      this.pixels.set(n, p);
    }
    return p;
  }
}
