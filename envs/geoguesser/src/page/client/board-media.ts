/**
 * The board page's lazy data: episode chunks (base64 gzip JSON, one per task,
 * gunzipped by the browser's DecompressionStream when first needed) and the
 * panorama table, from which a view without its exact bytes is reprojected
 * into a canvas when it scrolls into view. The tables sit after the script
 * in the file: they are read only once the parser is past them
 * (DOMContentLoaded). In the folder form each chunk is its own data script,
 * with a compact search text beside it (data-files.ts).
 */
import type { PageEpisode } from "../model.ts";
import type { PanoRef } from "../model.ts";
import type { TaskChunk } from "../board/data.ts";
import type { Media } from "./app/detail/detail.ts";
import { reprojectRgba } from "../../../../../src/page/reproject.ts";
import { LazyImages } from "./images.ts";
import { dataFile, isFolderForm, pageTables } from "../../../../../src/page/client/data-files.ts";
import { detailText } from "./state/rows.ts";
import { loadMapCells } from "./map-cells.ts";

const domReady: Promise<void> = new Promise((resolve) => {
  if (document.readyState !== "loading") resolve();
  else document.addEventListener("DOMContentLoaded", () => resolve());
});

function table(id: string): string[] {
  const node = document.getElementById(id);
  return node ? (JSON.parse(node.textContent || "[]") as string[]) : [];
}

export class Chunks {
  private strings: string[] | null = null;
  private cache = new Map<number, Promise<TaskChunk>>();
  private folder = isFolderForm();

  /** `hasImage`: whether an exact view is in the page (a turn whose view was left out reprojects). */
  constructor(private readonly hasImage: (n: number) => boolean = () => true) {}

  /** A task's episodes' search texts (lower-cased, in chunk order), from its chunk (the one-file form; the folder form searches per query: folder-search.ts). */
  async texts(n: number): Promise<string[]> {
    return (await this.get(n)).map((e) => detailText(e));
  }

  /** A task's episode details, in chunk order (a row's `at`). */
  async get(n: number): Promise<PageEpisode[]> {
    return (await this.task(n)).episodes;
  }

  /** A task's whole chunk: details and compare-row maps. */
  task(n: number): Promise<TaskChunk> {
    let p = this.cache.get(n);
    if (!p) this.cache.set(n, (p = this.load(n)));
    return p;
  }

  private async load(n: number): Promise<TaskChunk> {
    await domReady;
    let b64: unknown;
    if (this.folder) b64 = await dataFile<string>("chunk", n);
    else {
      this.strings ??= table("gr-chunks");
      b64 = this.strings[n];
    }
    if (typeof b64 !== "string") return { episodes: [] };
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
    const chunk = JSON.parse(text) as TaskChunk;
    // Its maps are drawn from the page's atlas cells: read once, before the first chunk is shown.
    await loadMapCells();
    // Each distinct map is stored once per chunk: the turns get theirs back (shared objects).
    for (const e of chunk.episodes)
      for (const t of e.turns) {
        if (t.mapRef != null) t.map = chunk.maps?.[t.mapRef] ?? null;
        if (t.image != null && !this.hasImage(t.image)) t.image = null;
      }
    return chunk;
  }
}

const VIEW = 320;

/** A live board's panorama: a view file the server wrote, named by its bytes' sha256. */
const LIVE_PANO = /^views\/[0-9a-f]{64}\.webp$/;

export class PanoMedia implements Media {
  private urls: string[] | null = null;
  private pixels = new Map<number, Promise<ImageData | null>>();
  private observer = new IntersectionObserver(
    (entries) => {
      for (const en of entries) if (en.isIntersecting) void this.draw(en.target as HTMLCanvasElement);
    },
    { rootMargin: "400px 0px" },
  );

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}

  /** Exact views: the verified bytes, from the page's image table (data URLs, or the folder form's view files). */
  readonly exact = new LazyImages("gr-images");

  image(n: number, alt: string, size: number): HTMLElement {
    return this.exact.image(n, alt, size);
  }

  reprojection(p: PanoRef, alt: string): HTMLElement {
    const c = document.createElement("canvas");
    c.width = VIEW;
    c.height = VIEW;
    c.className = "view";
    c.setAttribute("role", "img");
    c.setAttribute("aria-label", alt);
    c.dataset.pano = String(p.pano);
    c.dataset.heading = String(p.heading);
    c.dataset.pitch = String(p.pitch);
    c.dataset.fov = String(p.fov);
    this.observer.observe(c);
    return c;
  }

  /** A served board's new panorama table entries (view files of the served folder), from index `from` on. */
  extendPanos(from: number, entries: readonly string[]): void {
    if (!entries.length) return;
    this.urls ??= table("gr-panos");
    entries.forEach((u, i) => (this.urls![from + i] = u));
  }

  private panoPixels(n: number): Promise<ImageData | null> {
    let p = this.pixels.get(n);
    if (!p) {
      p = (async () => {
        await pageTables();
        this.urls ??= table("gr-panos");
        const url = this.urls[n];
        if (typeof url !== "string" || !(url.startsWith("data:image/") || LIVE_PANO.test(url))) return null;
        const img = new Image();
        img.src = url;
        await img.decode();
        const c = document.createElement("canvas");
        c.width = this.width;
        c.height = this.height;
        const ctx = c.getContext("2d", { willReadFrequently: true })!;
        ctx.drawImage(img, 0, 0, this.width, this.height);
        return ctx.getImageData(0, 0, this.width, this.height);
      })();
      this.pixels.set(n, p);
      // A few decoded panoramas at a time (4 MB each at 1024x512).
      if (this.pixels.size > 8) this.pixels.delete(this.pixels.keys().next().value!);
    }
    return p;
  }

  private async draw(c: HTMLCanvasElement): Promise<void> {
    this.observer.unobserve(c);
    const src = await this.panoPixels(Number(c.dataset.pano));
    if (!src) return;
    const ctx = c.getContext("2d")!;
    const out = ctx.createImageData(VIEW, VIEW);
    reprojectRgba(src.data, src.width, src.height, out.data, VIEW, VIEW, {
      heading: Number(c.dataset.heading),
      pitch: Number(c.dataset.pitch),
      fov: Number(c.dataset.fov),
    });
    ctx.putImageData(out, 0, 0);
    c.dataset.drawn = "1";
  }
}
