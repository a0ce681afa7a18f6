/**
 * The player's theatre mode (key `f`, the ⛶ button): the player fills the
 * screen, through the Fullscreen API where the page may use it, else as a
 * fixed overlay over the page; Escape or `f` leaves it.
 *
 * The canvas is shown as large as the viewport holds at 16:9 under the
 * control bar, and its backing store follows the shown size in device
 * pixels (never below the video's own 1280x720): the painter draws vectors
 * and text under a scale, so a 1920 px wide player is sharp, not a 1280 px
 * bitmap stretched. At 1280x800 that is the video's own size, one canvas
 * pixel per screen pixel: the HUD and transcript read as in the MP4.
 */
import { PLAYER_OUTPUT } from "./format.ts";

export interface TheatreFit {
  /** The canvas's shown size, in CSS pixels. */
  cssW: number;
  cssH: number;
  /** Its backing store, in canvas pixels (the painter scales the 1280x720 scene to it). */
  backingW: number;
  backingH: number;
}

/** The canvas size in a viewport of `viewW` x `viewH` CSS px with `chromeH` px of controls under it. Pure. */
export function theatreFit(viewW: number, viewH: number, chromeH: number, dpr: number): TheatreFit {
  const { width: W, height: H } = PLAYER_OUTPUT;
  const cssW = Math.max(1, Math.floor(Math.min(viewW, ((viewH - chromeH) * W) / H)));
  const cssH = Math.floor((cssW * H) / W);
  const scale = Math.max(1, (cssW * Math.max(1, dpr)) / W);
  return { cssW, cssH, backingW: Math.round(W * scale), backingH: Math.round(H * scale) };
}

/** Whether the Fullscreen API may be used here (an iframe without allowfullscreen, some WebViews: no). */
function canFullscreen(el: HTMLElement): boolean {
  return document.fullscreenEnabled === true && typeof el.requestFullscreen === "function";
}

/**
 * Enters and leaves theatre mode for `root` (the .player element), resizing
 * `canvas` to fit.
 */
export class Theatre {
  private on = false;
  private readonly onResize = () => {
    if (this.fit()) this.changed();
  };
  private readonly onFullscreen = () => {
    // The browser left fullscreen (its own Escape, or the user's gesture): leave theatre too.
    if (this.on && document.fullscreenElement !== this.root) this.leave();
  };

  constructor(
    private readonly root: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly chrome: () => number,
    /** Entered, left, or resized: the caller repaints (the backing store may be new) and relabels. */
    private readonly changed: () => void,
  ) {}

  get active(): boolean {
    return this.on;
  }

  toggle(): void {
    if (this.on) this.leave();
    else this.enter();
  }

  enter(): void {
    if (this.on) return;
    this.on = true;
    this.root.classList.add("theatre");
    this.root.dataset.theatre = "overlay";
    window.addEventListener("resize", this.onResize);
    document.addEventListener("fullscreenchange", this.onFullscreen);
    if (canFullscreen(this.root))
      this.root.requestFullscreen({ navigationUI: "hide" }).then(
        () => {
          if (!this.on) return;
          this.root.dataset.theatre = "fullscreen";
          if (this.fit()) this.changed();
        },
        () => undefined, // refused (no user gesture, a policy): the overlay stays
      );
    this.fit();
    this.changed();
    this.root.focus({ preventScroll: true });
  }

  leave(): void {
    if (!this.on) return;
    this.on = false;
    this.root.classList.remove("theatre");
    delete this.root.dataset.theatre;
    window.removeEventListener("resize", this.onResize);
    document.removeEventListener("fullscreenchange", this.onFullscreen);
    if (document.fullscreenElement === this.root) void document.exitFullscreen().catch(() => undefined);
    for (const p of ["width", "height", "margin-left", "margin-top"]) this.canvas.style.removeProperty(p);
    this.setBacking(PLAYER_OUTPUT.width, PLAYER_OUTPUT.height);
    this.changed();
  }

  /** Sizes the canvas to the viewport (CSSOM writes: the CSP's style hash does not cover them, and need not); whether the backing store changed. */
  private fit(): boolean {
    if (!this.on) return false;
    const f = theatreFit(window.innerWidth, window.innerHeight, this.chrome(), window.devicePixelRatio || 1);
    this.canvas.style.width = `${f.cssW}px`;
    this.canvas.style.height = `${f.cssH}px`;
    // Centred on whole pixels: a half-pixel offset would resample every frame (blur).
    this.canvas.style.marginLeft = `${Math.floor((window.innerWidth - f.cssW) / 2)}px`;
    this.canvas.style.marginTop = `${Math.max(0, Math.floor((window.innerHeight - this.chrome() - f.cssH) / 2))}px`;
    return this.setBacking(f.backingW, f.backingH);
  }

  private setBacking(w: number, h: number): boolean {
    if (this.canvas.width === w && this.canvas.height === h) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    return true;
  }
}
