/**
 * Frame files for the painter, made in the browser: a keyframe is the page's
 * verified view (exact, downscaled like every view of the page); any other
 * frame is the panorama reprojected at the frame's camera, on the GPU
 * (gl.ts) or, without WebGL2, by the page's JS reprojection, and drawn from
 * the verified views of the same panorama where they saw its pixels
 * (exact.ts: a zoom's motion frames). Each frame file is made once into a
 * canvas of the video's frame-file size and kept for the next frames that
 * show it (a crossfade shows two).
 *
 * A folder page opened from disk (file://) shows its view files but may not
 * read their pixels (the browser treats each file as another origin): there
 * the keyframes are still the view files, and in-between frames come from
 * the panorama alone.
 */
import { reprojectRgba, type ReprojectionSpec } from "../../../../../src/page/reproject.ts";
import { isView, type ExactView, type FileSource } from "./format.ts";
import { GlReprojector } from "./gl.ts";
import { exactViewsFor, overlaps, overlayExact, readablePixels } from "./exact.ts";

/** The shader where WebGL2 works, else the JS path; "js" forces it (the fallback's test and benchmark). */
export type Reprojection = "webgl2" | "js";

/** What a frame file was made from: a verified view, a reprojection drawn partly from verified views, or a reprojection alone. */
export type FileKind = "view" | "exact" | "reprojection";

const KEEP = 6;
/** An in-between frame drawn from a verified view is made at that view's size (up to this), to keep its detail. */
const MAX_EXACT_SIZE = 1024;

export class FrameSource {
  private readonly made = new Map<string, HTMLCanvasElement>();
  private readonly spare: HTMLCanvasElement[] = [];
  private gl: GlReprojector | null = null;
  private glSrc: string | null = null;
  private glView: ImageBitmap | null = null;
  private readonly pixels = new Map<number, ImageData>();
  private readonly viewPixels = new Map<number, ImageData>();
  /** What the frame files asked for since the last `begin` were made from (the player shows it). */
  private readonly kinds = new Set<FileKind>();
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
    const at = this.where(src);
    return at ? at.files[at.index] : undefined;
  }

  /** Starts a frame: `drawnFrom` then tells what its frame files were made from. */
  begin(): void {
    this.kinds.clear();
  }

  /** What the frame files asked for since `begin` were made from, sorted ("exact reprojection", "view", ...). */
  drawnFrom(): string {
    return [...this.kinds].sort().join(" ");
  }

  /** A frame file path's folder and number. */
  private where(src: string): { files: FileSource[]; index: number } | null {
    const slash = src.lastIndexOf("/");
    const m = /^(\d+)\.jpg$/.exec(src.slice(slash + 1));
    const files = m ? this.files.get(slash < 0 ? "" : src.slice(0, slash)) : undefined;
    return files && m ? { files, index: Number(m[1]) } : null;
  }

  /** The verified views (decoded) an in-between frame file is drawn from, where they see part of it. */
  private exactFor(src: string, pose: ReprojectionSpec): { view: ExactView; img: HTMLImageElement; pose: ReprojectionSpec }[] {
    const at = this.where(src);
    if (!at) return [];
    return exactViewsFor(at.files, at.index).flatMap((view) => {
      const img = this.views.get(view[0]);
      const vp = { heading: view[2], pitch: view[3], fov: view[4] };
      return img && readablePixels(img.src) && overlaps(pose, vp) ? [{ view, img, pose: vp }] : [];
    });
  }

  /** The decoded picture of a frame file path (`…/000123.jpg`), or null when the page has none. */
  image(src: string): CanvasImageSource | null {
    const file = this.fileOf(src);
    if (!file) return null;
    if (isView(file)) {
      this.kinds.add("view");
      return this.views.get(file[0]) ?? null;
    }
    const [pano, heading, pitch, fov] = file;
    const pose = { heading, pitch, fov };
    const exact = this.exactFor(src, pose);
    this.kinds.add(exact.length > 0 ? "exact" : "reprojection");
    const hit = this.made.get(src);
    if (hit) {
      // Most recently used last.
      this.made.delete(src);
      this.made.set(src, hit);
      return hit;
    }
    // Drawn from a verified view: at its size, so its detail survives (the painter scales every frame file).
    const size = Math.min(MAX_EXACT_SIZE, Math.max(this.size, ...exact.map((e) => e.img.naturalWidth)));
    if (this.gl) {
      // The last view only: the painter draws each image as soon as it asks for it, so the next
      // view may replace it (a crossfade's two files are redrawn each frame, cheaply).
      if (this.glSrc !== src || !this.glView) {
        this.glView?.close();
        this.glView = this.gl.draw(
          pano,
          pose,
          exact.map((e) => ({ image: e.view[0], img: e.img, pose: e.pose })),
          size,
        );
        this.glSrc = src;
      }
      return this.glView;
    }
    const canvas = this.canvas(size);
    this.draw(canvas, pano, pose, exact);
    this.made.set(src, canvas);
    return canvas;
  }

  private canvas(size: number): HTMLCanvasElement {
    if (this.made.size >= KEEP) {
      const oldest = this.made.keys().next().value as string;
      this.spare.push(this.made.get(oldest)!);
      this.made.delete(oldest);
    }
    const c = this.spare.pop() ?? document.createElement("canvas");
    c.width = size;
    c.height = size;
    return c;
  }

  private draw(
    canvas: HTMLCanvasElement,
    pano: number,
    pose: ReprojectionSpec,
    exact: { view: ExactView; img: HTMLImageElement; pose: ReprojectionSpec }[],
  ): void {
    const ctx = canvas.getContext("2d")!;
    const src = this.panoPixels(pano);
    if (!src) return;
    const out = ctx.createImageData(canvas.width, canvas.height);
    reprojectRgba(src.data, src.width, src.height, out.data, canvas.width, canvas.height, pose);
    overlayExact(
      out.data,
      canvas.width,
      canvas.height,
      pose,
      exact.map((e) => {
        const px = this.pixelsOf(this.viewPixels, e.view[0], e.img);
        return { rgba: px.data, width: px.width, height: px.height, pose: e.pose };
      }),
    );
    ctx.putImageData(out, 0, 0);
  }

  private pixelsOf(cache: Map<number, ImageData>, n: number, img: HTMLImageElement): ImageData {
    let p = cache.get(n);
    if (!p) {
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext("2d", { willReadFrequently: true })!;
      ctx.drawImage(img, 0, 0);
      p = ctx.getImageData(0, 0, c.width, c.height);
      cache.set(n, p);
    }
    return p;
  }

  private panoPixels(n: number): ImageData | null {
    const img = this.panos.get(n);
    return img ? this.pixelsOf(this.pixels, n, img) : null;
  }
}
