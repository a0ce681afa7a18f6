/**
 * The crops in-page player: one <canvas> at the video's size (1280x720, scaled by CSS), painted
 * frame by frame by the MP4's own scene (envs/crops/video/scene.ts, frame-pure) and painter
 * (video/paint.ts) from the episode's props (play.ts). Frame files come from the page's tables:
 * `sha:` the embedded re-rendered views and thumbnails, `pic:` the dataset image, `cam:` an
 * in-between frame cropped from that image by the browser. Text is laid out here by the video's
 * layouter measuring with the canvas, in the page's Inter and JetBrains Mono.
 *
 * Bundled on its own (player-bundle.ts) and inert until `mount` is first called.
 */
import { cropsScene } from "../../../video/scene.ts";
import type { CropsVideoProps } from "../../../video/props.ts";
import { paint } from "../../../../../video/paint.ts";
import { measuringLayouter, type TextLayouter } from "../../../../../video/text/layouter.ts";
import { cssFont } from "../../../../../video/text/fonts.ts";

export interface PlayImages {
  /** Re-rendered views and thumbnails by sha256. */
  images: Record<string, string>;
  /** Dataset images by image_id. */
  pictures: Record<string, string>;
}

export interface CropsPlayerHandle {
  readonly ready: Promise<void>;
  frame(): number;
  seek(frame: number): void;
  play(): void;
  pause(): void;
  destroy(): void;
}

const SPEEDS = [0.5, 1, 2, 4];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined) n.textContent = text;
  return n;
}

function bytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function gunzipJson<T>(b64: string): Promise<T> {
  const stream = new Blob([bytes(b64)]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text()) as T;
}

async function decode(url: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.src = url;
  await img.decode();
  return img;
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;

/** Every frame file the scene can ask for that is an image of the page (sha: and pic:). */
function pageSources(p: CropsVideoProps): string[] {
  return [...new Set([...p.timeline.frames.map((f) => f.file).filter((f) => !f.startsWith("cam:")), ...p.thumbs, p.card.image])];
}

/** Mounts a player for an episode's props (`play`: play.ts's gzipped entry) into `container`; plays once loaded. */
export function mount(container: HTMLElement, entry: string, imgs: PlayImages, opts: { autoplay?: boolean } = {}): CropsPlayerHandle {
  const root = el("div", "player crops-player");
  root.tabIndex = 0;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "the episode's video, painted in the page");
  const canvas = el("canvas");
  canvas.width = 1280;
  canvas.height = 720;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "the episode's video");
  const bar = el("div", "bar");
  const playBtn = el("button", "play", "▶ play");
  playBtn.type = "button";
  const time = el("span", "time", "loading…");
  const speed = el("select");
  speed.setAttribute("aria-label", "speed");
  for (const s of SPEEDS) {
    const o = el("option", undefined, `${s}x`);
    o.value = String(s);
    if (s === 1) o.selected = true;
    speed.appendChild(o);
  }
  const range = el("input");
  range.type = "range";
  range.min = "0";
  range.step = "1";
  range.setAttribute("aria-label", "video frame");
  bar.append(playBtn, time, speed, range);
  const note = el(
    "p",
    "note",
    "Painted in this page by the video's own scene code (the MP4's frames, frame for frame in layout). Held views and thumbnails are the verified re-rendered JPEGs this page shows; the in-between frames of a camera move are cropped from the dataset image by the browser (the MP4 renders them with the gym's resize and box outlines). Keys: space play/pause, ←/→ a frame.",
  );
  root.append(canvas, bar, note);
  container.replaceChildren(root);

  const ctx = canvas.getContext("2d")!;
  let props: CropsVideoProps | null = null;
  let tx: TextLayouter | null = null;
  const decoded = new Map<string, HTMLImageElement>();
  // In-between frames, cropped once each (a move is a few dozen; played forward, each is asked for once or twice).
  const crops = new Map<string, HTMLCanvasElement>();
  let total = 1;
  let fps = 30;
  let frame = 0;
  let playing = false;
  let raf = 0;
  let t0 = 0;
  let f0 = 0;
  let alive = true;

  const urlOf = (src: string): string | undefined =>
    src.startsWith("sha:") ? imgs.images[src.slice(4)] : src.startsWith("pic:") ? imgs.pictures[src.slice(4)] : undefined;

  function image(src: string): CanvasImageSource | null {
    if (!src.startsWith("cam:")) return decoded.get(src) ?? null;
    let c = crops.get(src);
    if (!c && props) {
      const pic = decoded.get(props.card.image);
      if (!pic) return null;
      const [x0, y0, x1, y1] = src.slice(4).split(",").map(Number);
      c = document.createElement("canvas");
      c.width = props.timeline.viewport.width;
      c.height = props.timeline.viewport.height;
      const g = c.getContext("2d")!;
      g.imageSmoothingQuality = "high";
      g.drawImage(pic, x0, y0, x1 - x0, y1 - y0, 0, 0, c.width, c.height);
      if (crops.size > 64) crops.clear();
      crops.set(src, c);
    }
    return c ?? null;
  }

  function draw(f: number): void {
    if (!props || !tx) return;
    const scene = cropsScene(props, f, tx);
    ctx.setTransform(canvas.width / scene.width, 0, 0, canvas.height / scene.height, 0, 0);
    paint(ctx, scene, { image, path2d: () => new Path2D(), cell: () => null });
  }

  function show(f: number): void {
    frame = Math.max(0, Math.min(total - 1, f));
    draw(frame);
    range.value = String(frame);
    time.textContent = `${clock(frame / fps)} / ${clock(total / fps)}`;
    root.dataset.frame = String(frame);
  }

  function tick(now: number): void {
    if (!playing || !alive) return;
    const f = f0 + Math.floor(((now - t0) / 1000) * fps * Number(speed.value));
    if (f >= total - 1) {
      show(total - 1);
      pause();
      return;
    }
    if (f !== frame) show(f);
    raf = requestAnimationFrame(tick);
  }

  function play(): void {
    if (!props || playing) return;
    if (frame >= total - 1) frame = 0;
    playing = true;
    root.dataset.playing = "1";
    playBtn.textContent = "❚❚ pause";
    t0 = performance.now();
    f0 = frame;
    raf = requestAnimationFrame(tick);
  }

  function pause(): void {
    playing = false;
    root.dataset.playing = "0";
    playBtn.textContent = "▶ play";
    cancelAnimationFrame(raf);
  }

  const ready = (async () => {
    const p = await gunzipJson<CropsVideoProps>(entry);
    // The canvas measures text in the video's fonts: load the page's faces before the first line is laid out.
    await Promise.all(
      ([400, 600, 700, 800] as const).flatMap((weight) => [
        document.fonts.load(cssFont({ role: "sans", size: 16, weight })),
        document.fonts.load(cssFont({ role: "mono", size: 16, weight: 400 })),
      ]),
    ).catch(() => undefined);
    await Promise.all(
      pageSources(p).map(async (src) => {
        const url = urlOf(src);
        if (url) decoded.set(src, await decode(url));
      }),
    );
    const measure = document.createElement("canvas").getContext("2d")!;
    tx = measuringLayouter((text, font) => {
      measure.font = cssFont(font);
      return measure.measureText(text).width;
    });
    props = p;
    fps = p.timeline.fps;
    total = p.timeline.totalFrames + p.cardFrames;
    range.max = String(total - 1);
    root.dataset.frames = String(total);
    show(0);
    root.dataset.ready = "1";
    if (opts.autoplay !== false) play();
  })();
  ready.catch((e: unknown) => {
    time.textContent = `cannot play: ${e instanceof Error ? e.message : String(e)}`;
  });

  playBtn.addEventListener("click", () => (playing ? pause() : play()));
  range.addEventListener("input", () => {
    const was = playing;
    pause();
    show(Number(range.value));
    if (was) play();
  });
  speed.addEventListener("change", () => {
    if (!playing) return;
    pause();
    play();
  });
  root.addEventListener("keydown", (e) => {
    if (e.key === " ") {
      e.preventDefault();
      if (playing) pause();
      else play();
    } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      pause();
      show(frame + (e.key === "ArrowRight" ? 1 : -1));
    }
  });

  return {
    ready,
    frame: () => frame,
    seek: (f) => show(f),
    play,
    pause,
    destroy: () => {
      alive = false;
      pause();
      root.remove();
    },
  };
}
