/**
 * The in-page player: one <canvas> at the video's size (1280x720, scaled by
 * CSS), painted frame by frame by the video's own `sceneAt` and `paint`
 * (the native engine's scene and painter) from the episode's embedded
 * timeline and text plan (board pages and folder run pages: planned and laid
 * out here from the episode's record, video.ts). Play/pause, a scrub bar with a mark per turn,
 * speed 0.5x-4x, keys (space; left/right a frame; shift+left/right a turn;
 * f theatre, Escape out of it: theatre.ts), a link to the current moment and
 * the `georeplay render` command for an MP4.
 *
 * Bundled on its own (bundle.ts) and inert until `mount` is first called.
 */
import { sceneAt } from "../../../../../video/compositions.ts";
import { paint } from "../../../../../video/paint.ts";
import type { TextPlan } from "../../../../../video/text/layouter.ts";
import { clockText, frameAt, secondsOf, stepTurnFrame, timeHash, type TurnMark } from "./clock.ts";
import { decodeImage, liveAssets, pageAssets, type PageAssets } from "./load.ts";
import { FrameSource, type Reprojection } from "./source.ts";
import { isView, REPROJECTION_SIZE } from "./format.ts";
import { loadVideo, type PlayerVideo, type PlaySource } from "./video.ts";
import { Theatre } from "./theatre.ts";

export type { PlaySource } from "./video.ts";
/** N episodes on one clock (a GRPO group's siblings): the page's group view plays them. */
export { mountTiles, type TilesHandle, type TilesOptions } from "./tiles.ts";

export const SPEEDS = [0.5, 1, 1.5, 2, 4];

export interface MountOptions {
  /** Seconds to open at (a deep link); default 0. */
  at?: number;
  /** Called when the shown turn changes (the transcript follows). */
  onTurn?: (turn: number | null) => void;
  /** "js" forces the JS reprojection (the fallback's test, benchmarks); default: WebGL2 where it works. */
  reprojection?: Reprojection;
  /** Where the episode comes from; default the run page's embedded table. */
  source?: PlaySource;
  /** The address of a moment (the copy-link button); default `#<id>/t=<seconds>`. */
  link?: (seconds: number) => string;
  /** Plays once loaded (a press of the page's play button); a deep link's moment opens paused. */
  autoplay?: boolean;
}

export interface PlayerHandle {
  readonly ready: Promise<void>;
  /** The frame shown. */
  frame(): number;
  seek(frame: number): void;
  seekTurn(turn: number): void;
  play(): void;
  pause(): void;
  /** Paints a frame now (benchmarks); returns nothing until ready. */
  paintFrame(frame: number): void;
  mode(): Reprojection | null;
  /** Board pages: the lines the browser laid out so far (tests compare them with Node's text plan); null where the plan came embedded. */
  textPlan(): TextPlan | null;
  /** Theatre mode (the `f` key): the player filling the screen. */
  theatre(on: boolean): void;
  destroy(): void;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined) n.textContent = text;
  return n;
}

async function copyText(text: string, fallbackFrom: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // file:// pages may have no async clipboard: select the text and copy it the old way.
    const area = el("textarea");
    area.value = text;
    fallbackFrom.appendChild(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

/** Mounts a player for episode `id` into `container` (its contents are replaced). */
export function mount(container: HTMLElement, id: string, opts: MountOptions = {}): PlayerHandle {
  const root = el("div", "player");
  root.tabIndex = 0;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", `video of episode ${id}`);
  const canvas = el("canvas");
  canvas.width = 1280;
  canvas.height = 720;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "the episode's video, painted in the page");
  const bar = el("div", "bar");
  const playBtn = el("button", "play", "▶ play");
  playBtn.type = "button";
  const time = el("span", "time", "loading…");
  const scrub = el("div", "scrub");
  const range = el("input");
  range.type = "range";
  range.min = "0";
  range.step = "1";
  range.setAttribute("aria-label", "video frame");
  scrub.appendChild(range);
  const speed = el("select");
  speed.setAttribute("aria-label", "speed");
  for (const s of SPEEDS) {
    const o = el("option", undefined, `${s}x`);
    o.value = String(s);
    if (s === 1) o.selected = true;
    speed.appendChild(o);
  }
  const linkBtn = el("button", "link", "copy link");
  linkBtn.type = "button";
  const theatreBtn = el("button", "theatre-btn", "theatre (f)");
  theatreBtn.type = "button";
  theatreBtn.setAttribute("aria-pressed", "false");
  const mode = el("span", "time");
  bar.append(playBtn, time, speed, linkBtn, theatreBtn, mode, scrub);
  const keys = " Keys: space play/pause, ←/→ a frame, shift+←/→ a turn, f theatre (Escape leaves it).";
  const note = el(
    "p",
    "note",
    ["run", "live"].includes(opts.source?.kind ?? "run")
      ? "Painted in this page by the video's own scene code. Keyframes (the views the model saw) are the verified images; in-between frames take their pixels from those images where they saw them, the rest from a downscaled panorama (approximate)." +
          keys
      : opts.source?.kind === "board" && opts.source.run
        ? "Planned and painted in this page by the video's own code (the plan of `georeplay frames`, made here from the episode's record in this folder). Keyframes (the views the model saw) are the verified view files; in-between frames take their pixels from those views where they saw them and the browser lets the page read them (a page opened from disk may not), the rest from a downscaled panorama (approximate); text is laid out by this browser with the video's fonts." +
          keys
        : "Painted and planned in this page by the video's own code. Keyframes are the exact verified views where this board embeds them (zooms), else approximate reprojections of its downscaled panorama; in-between frames take their pixels from the exact views where those saw them, the rest from the panorama; text is laid out by this browser with the video's fonts." +
          keys,
  );
  const mp4 = el("p", "note");
  root.append(canvas, bar, note, mp4);
  container.replaceChildren(root);

  const ctx = canvas.getContext("2d")!;
  let video: PlayerVideo | null = null;
  let source: FrameSource | null = null;
  let assets: PageAssets | null = null;
  let marks: TurnMark[] = [];
  let total = 1;
  let fps = 30;
  let frame = 0;
  let painted = -1;
  let playing = false;
  let clock = 0; // seconds, while playing
  let last = 0;
  let raf = 0;
  let turn: number | null | undefined;
  let alive = true;

  function draw(f: number): void {
    if (!video || !source || !assets) return;
    const scene = sceneAt(video.spec, f, video.tx);
    const src = source;
    const cells = assets.cells;
    // The scene is laid out at 1280x720; a theatre's larger backing store paints it scaled, sharp.
    ctx.setTransform(canvas.width / scene.width, 0, 0, canvas.height / scene.height, 0, 0);
    src.begin();
    paint(ctx, scene, { image: (s) => src.image(s), path2d: () => new Path2D(), cell: (key) => cells[key] ?? null });
    painted = f;
    // What the viewport was drawn from: "view" (a verified view), "exact" (an in-between frame
    // drawn from one where it saw the pixels), "reprojection" (the downscaled panorama alone).
    root.dataset.frameFrom = src.drawnFrom();
  }

  function show(f: number): void {
    frame = Math.max(0, Math.min(total - 1, f));
    if (frame !== painted) draw(frame);
    range.value = String(frame);
    time.textContent = `${clockText(frame / fps)} / ${clockText(total / fps)}`;
    root.dataset.frame = String(frame);
    if (video) {
      if (video.sides) {
        const [a, b] = video.sides(frame);
        root.dataset.slotA = String(a);
        root.dataset.slotB = String(b);
      }
      const t = video.turnAt(frame);
      root.dataset.turn = t === null ? "" : String(t);
      if (t !== turn) {
        turn = t;
        opts.onTurn?.(t);
      }
    }
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
    if (playing || !video) return;
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
    playBtn.textContent = "▶ play";
    delete root.dataset.playing;
  }

  function seek(f: number): void {
    clock = f / fps;
    show(f);
  }

  const ready = (async () => {
    const src = opts.source;
    assets = src?.kind === "live" ? await liveAssets(await src.data()) : await pageAssets();
    const a = assets;
    // Every face the text uses, loaded before anything is measured or drawn (canvas text never waits for a font).
    await Promise.all(a.meta.fonts.map((f) => document.fonts.load(`${f.style === "italic" ? "italic " : ""}${f.weight} 16px "${f.family}"`)));
    const v = await loadVideo(a, id, opts.source ?? { kind: "run" });
    const views = new Map<number, HTMLImageElement>();
    const panos = new Map<number, HTMLImageElement>();
    await Promise.all(
      [...v.files.values()].flat().map(async (f) => {
        if (isView(f) && !views.has(f[0])) views.set(f[0], await decodeImage(a.viewUrls[f[0]]));
        else if (f.length === 4 && !panos.has(f[0])) panos.set(f[0], await decodeImage(a.panoUrls[f[0]]));
      }),
    );
    source = new FrameSource(v.files, views, panos, REPROJECTION_SIZE, opts.reprojection ?? "webgl2");
    video = v;
    fps = v.fps;
    total = v.total;
    marks = v.marks;
    range.max = String(total - 1);
    for (const m of marks) {
      const tick = el("span", "mark");
      tick.style.left = `${(m.frame / Math.max(1, total - 1)) * 100}%`;
      tick.title = v.spec.composition === "Compare" ? (m.turn === 0 ? "opening" : `turn ${m.turn} of both`) : `turn ${m.turn}`;
      scrub.appendChild(tick);
    }
    mode.textContent = source.mode === "webgl2" ? "WebGL2 reprojection" : "JS reprojection";
    root.dataset.reprojection = source.mode;
    const cmd = el("code", "cmd", v.render);
    const copyCmd = el("button", undefined, "copy");
    copyCmd.type = "button";
    copyCmd.addEventListener("click", () => void copyText(v.render, root));
    mp4.replaceChildren(v.spec.composition === "Compare" ? "For an MP4 of this two-up: " : "For an MP4 of this episode: ", cmd, " ", copyCmd);
    show(frameAt(opts.at ?? 0, fps, total));
    root.dataset.ready = "1";
    if (opts.autoplay && alive) play();
  })();
  ready.catch((e: unknown) => {
    time.textContent = `cannot play: ${e instanceof Error ? e.message : String(e)}`;
  });

  const theatre = new Theatre(
    root,
    canvas,
    () => bar.offsetHeight,
    () => {
      const on = theatre.active;
      theatreBtn.textContent = on ? "leave theatre (Esc)" : "theatre (f)";
      theatreBtn.setAttribute("aria-pressed", String(on));
      painted = -1;
      show(frame);
    },
  );
  theatreBtn.addEventListener("click", () => theatre.toggle());
  playBtn.addEventListener("click", () => (playing ? pause() : play()));
  range.addEventListener("input", () => seek(Number(range.value)));
  linkBtn.addEventListener("click", () => {
    const hash = (opts.link ?? ((t: number) => timeHash(id, t)))(secondsOf(frame, fps));
    history.replaceState(null, "", hash);
    void copyText(location.href, root);
  });
  root.addEventListener("keydown", (ev) => {
    if (ev.target !== root && (ev.target as HTMLElement).tagName !== "CANVAS" && ev.key === " ") return; // a focused button or field keeps space
    let handled = true;
    if (ev.key === " ") (playing ? pause : play)();
    else if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      const dir = ev.key === "ArrowRight" ? 1 : -1;
      pause();
      seek(ev.shiftKey ? stepTurnFrame(marks, frame, dir, total) : frame + dir);
    } else if ((ev.key === "f" || ev.key === "F") && !ev.ctrlKey && !ev.metaKey && !ev.altKey) theatre.toggle();
    else if (ev.key === "Escape" && theatre.active) theatre.leave();
    else handled = false;
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
    seekTurn: (t) => {
      const m = marks.find((x) => x.turn === t);
      if (m) {
        pause();
        seek(m.frame);
      }
    },
    play,
    pause,
    paintFrame: draw,
    mode: () => source?.mode ?? null,
    textPlan: () => video?.plan?.() ?? null,
    theatre: (on) => (on ? theatre.enter() : theatre.leave()),
    destroy: () => {
      alive = false;
      pause();
      theatre.leave();
      root.remove();
    },
  };
}
