/**
 * A ring of views reprojected ahead of the painter by another thread, in
 * shared memory. The producer (reproject-worker.ts) fills views in their
 * order, one slot each, and waits for a free slot; the painter takes the view
 * it needs and frees its slot, and frees the slots of views it skipped (a
 * view it asks for again later, or one the producer has not reached because
 * it stopped, the painter computes itself). Nothing waits forever: the
 * painter waits in short steps, up to WAIT_MS, and falls back to its own
 * thread when the producer has failed, stopped or never started.
 */
import type { DeferredImage, DeferredView, ShownImage } from "../shared/encode-options.ts";

/** Views in flight: enough to cover a scene's blend and a little jitter, few enough to bound memory (640x640: 1.6 MB each). */
export const AHEAD_SLOTS = 4;

/** state[k]: 1 + the view index slot k holds, or 0 when free; then the producer's flags. */
const FAILED = AHEAD_SLOTS; // 1 once the producer stopped (a decode failed, or it was stopped)

export interface AheadRing {
  /** Int32 states (AHEAD_SLOTS slots, then the flags). */
  state: SharedArrayBuffer;
  pixels: SharedArrayBuffer;
  /** Words per slot (the largest view). */
  slotWords: number;
}

export function aheadRing<V extends DeferredView>(deferred: DeferredImage<V>[]): AheadRing {
  const slotWords = deferred.reduce((m, d) => Math.max(m, d.view.width * d.view.height), 1);
  return { state: new SharedArrayBuffer(4 * (AHEAD_SLOTS + 1)), pixels: new SharedArrayBuffer(4 * slotWords * AHEAD_SLOTS), slotWords };
}

/**
 * The deferred views in the order the painter first asks for them (`shown`: every image source in
 * the order frames first show it, from frameRuns; a two-up asks for its sides' views in turn): the
 * order the thread reprojecting ahead must make them in, each at the size it is drawn (drawnView).
 * Views no frame shows come last.
 */
export function inPaintOrder<V extends DeferredView>(deferred: DeferredImage<V>[], shown: readonly ShownImage[]): DeferredImage<V>[] {
  const bySrc = new Map(deferred.map((d) => [d.src, d]));
  const out: DeferredImage<V>[] = [];
  for (const { src, w, h } of shown) {
    const d = bySrc.get(src);
    if (!d) continue;
    const view = drawnView(d.view, w, h);
    out.push(view === d.view ? d : { ...d, view });
    bySrc.delete(src);
  }
  return [...out, ...bySrc.values()];
}

/**
 * The size an in-between view is reprojected at: the box it is drawn into, when that is smaller
 * than the view and of its shape (a 640 px view in the 628 px box of a 1280x720 video). The view
 * is then copied onto the frame instead of resampled on every frame, and has fewer pixels to make
 * (Trieste, painter alone: ~0.2-0.3 CPU-s less of ~4.4). It is not a recorded view: no hash is
 * checked against it, and the keyframes, the recorded views, are drawn from their files as before.
 * A larger box keeps the view's own size (the in-between views would be sharper than the
 * keyframes around them), as does one of another shape (the view's fov is across its width: a box
 * of another shape would show another field).
 */
export function drawnView<V extends DeferredView>(view: V, w: number, h: number): V {
  const W = Math.round(w);
  const H = Math.round(h);
  if (W < 1 || H < 1 || W > view.width || H > view.height) return view;
  if (Math.abs(W * view.height - H * view.width) > Math.max(view.width, view.height)) return view;
  return W === view.width && H === view.height ? view : { ...view, width: W, height: H };
}

/** The producer's side: each view in order, into its slot once the slot is free. */
export async function fillRing(ring: AheadRing, count: number, make: (i: number, out: Uint32Array) => Promise<void>): Promise<void> {
  const state = new Int32Array(ring.state);
  try {
    for (let i = 0; i < count; i++) {
      const k = i % AHEAD_SLOTS;
      for (let v = Atomics.load(state, k); v !== 0; v = Atomics.load(state, k)) Atomics.wait(state, k, v, 100);
      await make(i, new Uint32Array(ring.pixels, 4 * ring.slotWords * k, ring.slotWords));
      Atomics.store(state, k, i + 1);
      Atomics.notify(state, k);
    }
  } finally {
    Atomics.store(state, FAILED, 1); // done or failed: the painter stops waiting either way
    Atomics.notify(state, FAILED);
  }
}

/**
 * Longest the painter waits for one view (a panorama decode on a loaded machine is far shorter).
 * Past it the ring is given up: a producer that never started or died sets no flag, and the
 * painter's thread is blocked while it waits, so it could not hear the worker's exit.
 */
export const WAIT_MS = 2000;

/** The painter's side. */
export function ringReader(ring: AheadRing, waitMs = WAIT_MS): { take(i: number, out: Uint32Array): boolean } {
  const state = new Int32Array(ring.state);
  let taken = -1; // the last view taken: an earlier one may be gone
  let dead = false;
  return {
    /** Copies view i into `out` and frees its slot; false when the painter must compute it itself. */
    take(i, out) {
      if (dead || i <= taken) return false;
      const k = i % AHEAD_SLOTS;
      const until = performance.now() + waitMs;
      for (;;) {
        // Views before i will not be asked for in order any more: their slots are free for the
        // producer (again on every step: it may have filled one since).
        for (let s = 0; s < AHEAD_SLOTS; s++) {
          const held = Atomics.load(state, s);
          if (held !== 0 && held - 1 < i) {
            Atomics.store(state, s, 0);
            Atomics.notify(state, s);
          }
        }
        const v = Atomics.load(state, k);
        if (v === i + 1) break;
        if (Atomics.load(state, FAILED) === 1) return false;
        if (performance.now() > until) {
          dead = true;
          return false;
        }
        Atomics.wait(state, k, v, 5);
      }
      out.set(new Uint32Array(ring.pixels, 4 * ring.slotWords * k, out.length));
      Atomics.store(state, k, 0);
      Atomics.notify(state, k);
      taken = i;
      return true;
    },
  };
}
