/**
 * Several episodes' videos on one clock, side by side (a GRPO group's
 * siblings): the two-up's idea for N. Each tile is a canvas painted by the
 * video's own `sceneAt` and `paint` from its episode's embedded timeline and
 * text plan, as the one-episode player paints (main.ts); one bar (play,
 * scrub, speed) drives every tile from one frame counter. A tile whose video
 * is shorter holds its last frame (its score card) until the longest ends.
 * All tiles read their frame files through one FrameSource, so the page
 * holds one WebGL context however many tiles there are.
 */
import { sceneAt } from "../../../video/compositions.ts";
import { paint } from "../../../video/paint.ts";
import { clockText, frameAt } from "./clock.ts";
import { decodeImage, pageAssets, type PageAssets } from "./load.ts";
import { FrameSource, type Reprojection } from "./source.ts";
import { isView, REPROJECTION_SIZE, type FileSource } from "./format.ts";
import { loadVideo, type PlaySource, type PlayerVideo } from "./video.ts";

export interface TilesOptions {
  /** Seconds to open at; default 0. */
  at?: number;
  /** One caption per tile (rank, advantage, reward), shown above it. */
  labels?: string[];
  /** "js" forces the JS reprojection; default WebGL2 where it works. */
  reprojection?: Reprojection;
  /** Where each tile's episode comes from (a folder run page's: its detail's PlayRecord); default the page's embedded table. */
  sources?: (PlaySource | undefined)[];
  /** Plays once loaded (a press of the group's play button). */
  autoplay?: boolean;
}

export interface TilesHandle {
  readonly ready: Promise<void>;
  /** The clock's frame (a tile shows min(frame, its last frame)). */
  frame(): number;
  seek(frame: number): void;
  play(): void;
  pause(): void;
  destroy(): void;
}

/** The tile of a shared frame: the frame itself, or the tile's last one once its video has ended. */
export const tileFrame = (frame: number, total: number): number => Math.max(0, Math.min(total - 1, frame));

/** A tile's canvas size: smaller backing stores for more tiles (every tile is painted every frame). */
export function tileSize(n: number): { width: number; height: number } {
  return n <= 2 ? { width: 960, height: 540 } : n <= 4 ? { width: 640, height: 360 } : { width: 480, height: 270 };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined) n.textContent = text;
  return n;
}

/** The videos with one frames folder each (the painter tells tiles apart by it; two ids may share a slug). */
function distinctFolders(videos: PlayerVideo[]): PlayerVideo[] {
  const seen = new Set<string>();
  return videos.map((v, i) => {
    const spec = v.spec;
    if (spec.composition !== "Rollout") throw new Error("a tile plays one episode");
    let dir = spec.props.framesDir;
    if (seen.has(dir)) dir = `${dir}-${i}`;
    seen.add(dir);
    if (dir === spec.props.framesDir) return v;
    const files = new Map<string, FileSource[]>([[dir, [...v.files.values()][0] ?? []]]);
    return { ...v, spec: { ...spec, props: { ...spec.props, framesDir: dir } }, files };
  });
}

export function mountTiles(container: HTMLElement, ids: string[], opts: TilesOptions = {}): TilesHandle {
  const size = tileSize(ids.length);
  const root = el("div", "player tiles-player");
  root.tabIndex = 0;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", `${ids.length} videos on one clock`);
  const grid = el("div", "tiles");
  grid.dataset.n = String(ids.length);
  const canvases = ids.map((id, i) => {
    const tile = el("figure", "tile");
    tile.dataset.episode = id;
    const cap = el("figcaption", undefined, opts.labels?.[i] ?? id);
    const c = el("canvas");
    c.width = size.width;
    c.height = size.height;
    c.setAttribute("role", "img");
    c.setAttribute("aria-label", `the video of ${id}, painted in the page`);
    tile.append(cap, c);
    grid.appendChild(tile);
    return c;
  });
  const bar = el("div", "bar");
  const playBtn = el("button", "play", "▶ play all");
  playBtn.type = "button";
  const time = el("span", "time", "loading…");
  const speed = el("select");
  speed.setAttribute("aria-label", "speed");
  for (const s of [0.5, 1, 1.5, 2, 4]) {
    const o = el("option", undefined, `${s}x`);
    o.value = String(s);
    if (s === 1) o.selected = true;
    speed.appendChild(o);
  }
  const mode = el("span", "time");
  const scrub = el("div", "scrub");
  const range = el("input");
  range.type = "range";
  range.min = "0";
  range.step = "1";
  range.setAttribute("aria-label", "video frame, every tile");
  scrub.appendChild(range);
  bar.append(playBtn, time, speed, mode, scrub);
  // A folder run page's videos are planned here, their text laid out by this browser: the note says so.
  const planned = opts.sources?.some((s) => s?.kind === "board")
    ? " Each video is planned in this page from its episode's record, by the code of `georeplay frames`, its text laid out by this browser with the video's fonts."
    : "";
  const note = el(
    "p",
    "note",
    "Every sibling's video on one clock: each tile is painted by the video's own scene code from its verified views (in-between frames reprojected from the downscaled panorama, approximate); a video that ends first holds its score card." +
      planned +
      " Keys: space play/pause, ←/→ a frame.",
  );
  root.append(grid, bar, note);
  container.replaceChildren(root);

  let videos: PlayerVideo[] = [];
  let source: FrameSource | null = null;
  let assets: PageAssets | null = null;
  let total = 1;
  let fps = 30;
  let frame = 0;
  let playing = false;
  let clock = 0;
  let last = 0;
  let raf = 0;
  let alive = true;

  function draw(f: number): void {
    if (!source || !assets) return;
    const src = source;
    const cells = assets.cells;
    videos.forEach((v, i) => {
      const c = canvases[i];
      const own = tileFrame(f, v.total);
      if (c.dataset.frame === String(own)) return; // a finished tile holds its last frame: nothing to repaint
      const ctx = c.getContext("2d")!;
      const scene = sceneAt(v.spec, own, v.tx);
      ctx.setTransform(c.width / scene.width, 0, 0, c.height / scene.height, 0, 0);
      src.begin();
      paint(ctx, scene, { image: (s) => src.image(s), path2d: () => new Path2D(), cell: (key) => cells[key] ?? null });
      c.dataset.frame = String(own);
      const t = v.turnAt(own);
      c.dataset.turn = t === null ? "" : String(t);
    });
  }

  function show(f: number): void {
    frame = Math.max(0, Math.min(total - 1, f));
    draw(frame);
    range.value = String(frame);
    time.textContent = `${clockText(frame / fps)} / ${clockText(total / fps)}`;
    root.dataset.frame = String(frame);
  }

  function tick(now: number): void {
    if (!playing || !alive) return;
    clock += ((now - last) / 1000) * Number(speed.value);
    last = now;
    const f = Math.floor(clock * fps);
    if (f >= total - 1) {
      show(total - 1);
      pause();
      return;
    }
    show(f);
    raf = requestAnimationFrame(tick);
  }

  function play(): void {
    if (playing || !source) return;
    if (frame >= total - 1) show(0);
    playing = true;
    clock = frame / fps;
    last = performance.now();
    playBtn.textContent = "❚❚ pause";
    root.dataset.playing = "1";
    raf = requestAnimationFrame(tick);
  }

  function pause(): void {
    playing = false;
    cancelAnimationFrame(raf);
    playBtn.textContent = "▶ play all";
    delete root.dataset.playing;
  }

  function seek(f: number): void {
    clock = f / fps;
    show(f);
  }

  const ready = (async () => {
    assets = await pageAssets();
    const a = assets;
    await Promise.all(a.meta.fonts.map((f) => document.fonts.load(`${f.style === "italic" ? "italic " : ""}${f.weight} 16px "${f.family}"`)));
    const loaded = distinctFolders(await Promise.all(ids.map((id, i) => loadVideo(a, id, opts.sources?.[i] ?? { kind: "run" }))));
    const files = new Map<string, FileSource[]>();
    for (const v of loaded) for (const [dir, list] of v.files) files.set(dir, list);
    const views = new Map<number, HTMLImageElement>();
    const panos = new Map<number, HTMLImageElement>();
    await Promise.all(
      [...files.values()].flat().map(async (f) => {
        if (isView(f) && !views.has(f[0])) views.set(f[0], await decodeImage(a.viewUrls[f[0]]));
        else if (f.length === 4 && !panos.has(f[0])) panos.set(f[0], await decodeImage(a.panoUrls[f[0]]));
      }),
    );
    source = new FrameSource(files, views, panos, REPROJECTION_SIZE, opts.reprojection ?? "webgl2");
    videos = loaded;
    fps = loaded[0]?.fps ?? 30;
    total = Math.max(1, ...loaded.map((v) => v.total));
    range.max = String(total - 1);
    mode.textContent = source.mode === "webgl2" ? "WebGL2 reprojection" : "JS reprojection";
    root.dataset.reprojection = source.mode;
    root.dataset.totals = loaded.map((v) => v.total).join(" ");
    show(frameAt(opts.at ?? 0, fps, total));
    root.dataset.ready = "1";
    if (opts.autoplay && alive) play();
  })();
  ready.catch((e: unknown) => {
    time.textContent = `cannot play: ${e instanceof Error ? e.message : String(e)}`;
  });

  playBtn.addEventListener("click", () => (playing ? pause() : play()));
  range.addEventListener("input", () => seek(Number(range.value)));
  root.addEventListener("keydown", (ev) => {
    if (ev.target !== root && ev.key === " ") return; // a focused button or field keeps space
    let handled = true;
    if (ev.key === " ") (playing ? pause : play)();
    else if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      pause();
      seek(frame + (ev.key === "ArrowRight" ? 1 : -1));
    } else handled = false;
    if (handled) {
      ev.preventDefault();
      ev.stopPropagation();
    }
  });

  return {
    ready,
    frame: () => frame,
    seek: (f) => {
      pause();
      seek(f);
    },
    play,
    pause,
    destroy: () => {
      alive = false;
      pause();
      root.remove();
    },
  };
}
