/**
 * Several episodes' videos on one clock, side by side (a GRPO group's
 * siblings): the two-up's idea for N. Each tile is a canvas painted by the
 * video's own `sceneAt` and `paint` from its episode's embedded timeline and
 * text plan, as the one-episode player paints (main.ts); one bar (play,
 * scrub, speed) drives every tile from one frame counter. A tile whose video
 * is shorter holds its last frame (its score card) until the longest ends.
 * All tiles read their frame files through one FrameSource, so the page
 * holds one WebGL context however many tiles there are. Once the longest
 * has ended, the group's ranked score card follows, painted by the group
 * video's own scene (envs/geoguesser/video/group/score-card.ts) as `render --group` ends.
 * Tiles are never narrower than 480 px in the page; theatre (`f`) lays
 * them out to fill the screen.
 */
import { sceneAt } from "../../../../../video/compositions.ts";
import { paint } from "../../../../../video/paint.ts";
import { clockText, frameAt } from "./clock.ts";
import { decodeImage, pageAssets, type PageAssets } from "./load.ts";
import { FrameSource, type Reprojection } from "./source.ts";
import { isView, REPROJECTION_SIZE, type FileSource } from "./format.ts";
import { loadVideo, type PlaySource, type PlayerVideo } from "./video.ts";
import { measuringLayouter } from "../../../../../video/text/layouter.ts";
import { cssFont } from "../../../../../video/text/fonts.ts";
import { videoFrames } from "../../../../../video/spec.ts";
import type { GeoVideoSpec as VideoSpec } from "../../../video/composition.ts";
import { groupClock } from "../../../video/group/clock.ts";
import type { GroupInfo, GroupProps } from "../../../video/group/props.ts";
import type { Timeline } from "../../../replay/timeline/timeline-schema.ts";
import { PLAYER_OUTPUT } from "./format.ts";

/** The group the tiles are siblings of: its numbers and each tile's reward, advantage and rollout (file:line), in tile order. */
export interface TilesGroup {
  info: GroupInfo;
  siblings: { reward: number; advantage: number; rollout: string }[];
}

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
  /** The group: its score card follows the tiles on the clock. */
  group?: TilesGroup;
}

export interface TilesHandle {
  readonly ready: Promise<void>;
  /** The clock's frame (a tile shows min(frame, its last frame)). */
  frame(): number;
  seek(frame: number): void;
  play(): void;
  pause(): void;
  /** Theatre mode (the `f` key): the tiles filling the screen. */
  theatre(on: boolean): void;
  destroy(): void;
}

/** Tiles are at least this wide in the page (CSS px): a 1280x720 scene painted smaller does not read. */
export const MIN_TILE_W = 480;

/**
 * Theatre's grid: the columns that make N 16:9 tiles (each under a caption of `capH` px) largest in a
 * viewport of `viewW` x `viewH` CSS px with `chromeH` px of controls. Pure.
 */
export function tilesFit(n: number, viewW: number, viewH: number, chromeH: number, gap = 6, capH = 20): { cols: number; tileW: number; tileH: number } {
  let best = { cols: 1, tileW: 0, tileH: 0 };
  for (let cols = 1; cols <= Math.max(1, n); cols++) {
    const rows = Math.ceil(n / cols);
    const byW = (viewW - gap * (cols + 1)) / cols;
    const byH = ((viewH - chromeH - gap * (rows + 1) - rows * capH) / rows) * (16 / 9);
    const w = Math.floor(Math.max(1, Math.min(byW, byH)));
    if (w > best.tileW) best = { cols, tileW: w, tileH: Math.floor((w * 9) / 16) };
  }
  return best;
}

/** The group video's props over the tiles' own timelines (their Rollout props less the output and text plan). */
function groupProps(g: TilesGroup, videos: PlayerVideo[]): GroupProps {
  return {
    version: 1,
    group: g.info,
    siblings: videos.map((v, i) => {
      if (v.spec.composition !== "Rollout") throw new Error("a tile plays one episode");
      const { output: _o, text: _t, ...timeline } = v.spec.props;
      return { timeline: timeline as Timeline, ...g.siblings[i] };
    }),
    output: PLAYER_OUTPUT,
  };
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
  const theatreBtn = el("button", "theatre-btn", "theatre (f)");
  theatreBtn.type = "button";
  theatreBtn.setAttribute("aria-pressed", "false");
  const scrub = el("div", "scrub");
  const range = el("input");
  range.type = "range";
  range.min = "0";
  range.step = "1";
  range.setAttribute("aria-label", "video frame, every tile");
  scrub.appendChild(range);
  bar.append(playBtn, time, speed, theatreBtn, mode, scrub);
  // The group's ranked score card, after the tiles (shown in the grid's place once the longest video has ended).
  const card = el("canvas", "score-card");
  card.width = PLAYER_OUTPUT.width;
  card.height = PLAYER_OUTPUT.height;
  card.hidden = true;
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", "the group's score card: the siblings ranked by advantage");
  // A folder run page's videos are planned here, their text laid out by this browser: the note says so.
  const planned = opts.sources?.some((s) => s?.kind === "board")
    ? " Each video is planned in this page from its episode's record, by the code of `georeplay frames`, its text laid out by this browser with the video's fonts."
    : "";
  const note = el(
    "p",
    "note",
    "Every sibling's video on one clock: each tile is painted by the video's own scene code from its verified views (in-between frames reprojected from the downscaled panorama, approximate); a video that ends first holds its score card." +
      planned +
      (opts.group ? " Then the group's score card ranks them, as the group video ends." : "") +
      " Keys: space play/pause, ←/→ a frame, f theatre (Escape leaves it).",
  );
  root.append(grid, card, bar, note);
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
  const onResize = () => layout();
  /** The tiles' own length (the longest video); the score card's frames follow it. */
  let tilesEnd = 1;
  let groupSpec: VideoSpec | null = null;
  let scoreStart = 0;
  let cardTx: ReturnType<typeof measuringLayouter> | null = null;

  function drawCard(f: number): void {
    if (!groupSpec || !source || !assets || !cardTx) return;
    const src = source;
    const cells = assets.cells;
    const scene = sceneAt(groupSpec, scoreStart + (f - tilesEnd), cardTx);
    const ctx = card.getContext("2d")!;
    ctx.setTransform(card.width / scene.width, 0, 0, card.height / scene.height, 0, 0);
    src.begin();
    paint(ctx, scene, { image: (s) => src.image(s), path2d: () => new Path2D(), cell: (key) => cells[key] ?? null });
    card.dataset.frame = String(f - tilesEnd);
  }

  function draw(f: number): void {
    if (!source || !assets) return;
    const onCard = groupSpec !== null && f >= tilesEnd;
    grid.hidden = onCard;
    card.hidden = !onCard;
    if (onCard) {
      root.dataset.score = "1";
      drawCard(f);
      return;
    }
    delete root.dataset.score;
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
    tilesEnd = Math.max(1, ...loaded.map((v) => v.total));
    total = tilesEnd;
    if (opts.group && opts.group.siblings.length === loaded.length) {
      const props = groupProps(opts.group, loaded);
      groupSpec = { composition: "Group", props };
      scoreStart = groupClock(props).scoreStart;
      // The card's text is laid out by this browser with the video's fonts (loaded above), as a folder page's videos are.
      const measure = document.createElement("canvas").getContext("2d")!;
      cardTx = measuringLayouter(
        (text, font) => {
          measure.font = cssFont(font);
          return measure.measureText(text).width;
        },
        (key) => a.places[key] ?? [],
      );
      total = tilesEnd + (videoFrames(groupSpec) - scoreStart);
      root.dataset.scoreFrames = String(total - tilesEnd);
    }
    range.max = String(total - 1);
    mode.textContent = source.mode === "webgl2" ? "WebGL2 reprojection" : "JS reprojection";
    root.dataset.reprojection = source.mode;
    root.dataset.totals = loaded.map((v) => v.total).join(" ");
    frame = frameAt(opts.at ?? 0, fps, total);
    layout();
    window.addEventListener("resize", onResize);
    root.dataset.ready = "1";
    if (opts.autoplay && alive) play();
  })();
  ready.catch((e: unknown) => {
    time.textContent = `cannot play: ${e instanceof Error ? e.message : String(e)}`;
  });

  let theatreOn = false;
  const chromeH = () => bar.offsetHeight;
  /**
   * Sizes the grid (or the card) to the screen in theatre, back to the page's layout when left; each
   * backing store follows its tile's shown size in device pixels (never below tileSize, at most 1920
   * wide): the painter draws vectors and text under a scale, so a tile shown large is sharp.
   */
  function layout(): void {
    const dpr = window.devicePixelRatio || 1;
    if (theatreOn) {
      const fit = tilesFit(canvases.length, window.innerWidth, window.innerHeight, chromeH());
      grid.style.gridTemplateColumns = `repeat(${fit.cols}, ${fit.tileW}px)`;
      const cw = Math.floor(Math.min(window.innerWidth, ((window.innerHeight - chromeH()) * 16) / 9));
      card.style.width = `${cw}px`;
      card.style.height = `${Math.floor((cw * 9) / 16)}px`;
    } else {
      grid.style.removeProperty("grid-template-columns");
      for (const p of ["width", "height"]) card.style.removeProperty(p);
    }
    const shown = canvases[0]?.getBoundingClientRect().width ?? 0;
    const bw = Math.min(1920, Math.max(size.width, Math.round(shown * dpr)));
    if (canvases[0] && canvases[0].width !== bw) {
      for (const c of canvases) {
        c.width = bw;
        c.height = Math.round((bw * 9) / 16);
        // A new backing store: painted again.
        delete c.dataset.frame;
      }
    }
    show(frame);
  }
  function theatre(on: boolean): void {
    if (on === theatreOn) return;
    theatreOn = on;
    root.classList.toggle("theatre", on);
    theatreBtn.textContent = on ? "leave theatre (Esc)" : "theatre (f)";
    theatreBtn.setAttribute("aria-pressed", String(on));
    if (on) root.dataset.theatre = "overlay";
    else delete root.dataset.theatre;
    layout();
    root.focus({ preventScroll: true });
  }
  theatreBtn.addEventListener("click", () => theatre(!theatreOn));

  playBtn.addEventListener("click", () => (playing ? pause() : play()));
  range.addEventListener("input", () => seek(Number(range.value)));
  root.addEventListener("keydown", (ev) => {
    if (ev.target !== root && ev.key === " ") return; // a focused button or field keeps space
    let handled = true;
    if (ev.key === " ") (playing ? pause : play)();
    else if ((ev.key === "f" || ev.key === "F") && !ev.ctrlKey && !ev.metaKey && !ev.altKey) theatre(!theatreOn);
    else if (ev.key === "Escape" && theatreOn) theatre(false);
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
    theatre,
    destroy: () => {
      alive = false;
      pause();
      theatre(false);
      window.removeEventListener("resize", onResize);
      root.remove();
    },
  };
}
