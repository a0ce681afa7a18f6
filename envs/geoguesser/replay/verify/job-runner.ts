/**
 * What a pool worker does (and the calling thread, when there is no pool):
 * checks groups of views of one panorama, and renders frame files. The
 * panorama is decoded here, where it is used, into a store that holds one
 * panorama (the band of rows its views sample); a few JPEG encodes stay in flight on libuv's threads while
 * the next view's index map and gather run; per-view buffers are reused.
 */
import { PanoError, PanoStore, type Pano, type RowsFor } from "../panos/store.ts";
import { viewRows } from "../render/reproject.ts";
import { checkView, viewBuffers, type ViewBuffers } from "../render/view.ts";
import { renderFrameFile, type RenderTask } from "../render/frame-file.ts";
import type { ViewJob } from "./view-jobs.ts";

export interface ViewOutcome {
  turn: number;
  status: "match" | "resolved" | "mismatch" | "error";
  recorded: string;
  rendered: string | null;
  /** Distinct candidate renders the boundary search encoded (0 when the plain render decided). */
  candidates?: number;
  /** The rendered JPEG (the exact bytes the model saw when match/resolved), when asked for. */
  jpeg?: Buffer;
  error?: string;
}

/** Views of one panorama file, checked together so the panorama is decoded once for all of them. */
export interface CheckGroup {
  kind: "check";
  path: string;
  jobs: ViewJob[];
  keepImages: boolean;
}

export interface FrameRender {
  kind: "frame";
  task: RenderTask;
}

export type PoolTask = CheckGroup | FrameRender;
export type PoolResult = { kind: "check"; outcomes: ViewOutcome[] } | { kind: "frame"; sha256: string };

/** Encodes in flight per runner: enough to hide the per-call overhead, few enough to bound buffers. */
export const ENCODES_IN_FLIGHT = 3;
/**
 * Decoded panoramas a runner keeps. One: work arrives grouped by panorama and
 * the runner prefers queued tasks whose panorama it holds, so a second one
 * was rarely reused but held up to 25 MB (a 4096-wide original) per worker.
 */
export const PANOS_PER_RUNNER = 1;
/**
 * Panoramas decoded ahead of the group being checked (libuv's threads decode them meanwhile):
 * the next groups' until they hold PREFETCH_VIEWS views, at most PREFETCH_PANOS of them. One
 * ahead was not enough: a run ends in groups of one or two views (groups go largest first), each
 * a few milliseconds of work behind a decode several times longer, which then ran one by one.
 * Large groups still prefetch one: a decode is shorter than their work, and every panorama
 * held ahead is memory (a board of small groups holds up to four per runner: +30 MB peak on the
 * 12,800-episode board, for 12% less time).
 */
export const PREFETCH_PANOS = 3;
export const PREFETCH_VIEWS = 8;

/**
 * The rows a group of views samples: only that band is decoded (rows below it
 * are never decoded, and the band is smaller to hold). Frame renders decode
 * whole panoramas: a camera path tilts, and re-decoding a growing band would
 * cost more than it saves.
 */
const rowsOfGroup = new WeakMap<CheckGroup, RowsFor>();
function groupRows(group: CheckGroup): RowsFor {
  let f = rowsOfGroup.get(group);
  if (f) return f;
  let memo: { w: number; h: number; band: { top: number; bottom: number } } | null = null;
  f = (w, h) => {
    if (memo && memo.w === w && memo.h === h) return memo.band;
    let top = h;
    let bottom = 0;
    for (const j of group.jobs) {
      const r = viewRows(j.view, w, h);
      if (r.top < top) top = r.top;
      if (r.bottom > bottom) bottom = r.bottom;
    }
    memo = { w, h, band: { top, bottom: Math.max(bottom, top) } };
    return memo.band;
  };
  rowsOfGroup.set(group, f);
  return f;
}

/**
 * Runs tasks one after another from a queue, preferring tasks whose panorama
 * is already decoded (so a worker's views of one panorama are checked in one
 * streak), and moves to the next task as soon as the current one's last view
 * is submitted: encodes stay in flight across task boundaries.
 */
export class JobRunner {
  private readonly store: PanoStore;
  private readonly free = new Map<number, ViewBuffers[]>();
  private readonly queue: { task: PoolTask; resolve: (r: PoolResult) => void; reject: (e: Error) => void }[] = [];
  private pumping = false;
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(panosDir: string, maxBytes = 160 * 1024 * 1024) {
    this.store = new PanoStore(panosDir, maxBytes, PANOS_PER_RUNNER + PREFETCH_PANOS);
  }

  run(task: PoolTask): Promise<PoolResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      if (!this.pumping) void this.pump();
    });
  }

  /** Forgets the decoded panoramas (views still being checked keep their own reference). */
  dropPanos(): void {
    this.store.clear();
    this.free.clear();
  }

  /** Rejects every queued task (tasks already submitted finish). */
  cancel(reason: Error): void {
    for (const q of this.queue.splice(0)) q.reject(reason);
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.queue.length) {
        let i = this.queue.findIndex((q) => (q.task.kind === "check" ? this.store.has(q.task.path, groupRows(q.task)) : this.store.has(q.task.task.pano)));
        if (i < 0) i = 0;
        const [item] = this.queue.splice(i, 1);
        this.prefetchAfter(item.task);
        try {
          const { done } = item.task.kind === "check" ? await this.submitCheck(item.task) : await this.submitFrame(item.task.task);
          done.then(item.resolve, item.reject);
        } catch (e) {
          item.reject(e as Error);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Decodes the next queued groups' panoramas while this task's views are computed (libuv's
   * threads do it), and lets go of every other decoded panorama (views still being checked keep
   * their own reference): a runner holds its current panorama and those decoded ahead, no more.
   */
  private prefetchAfter(task: PoolTask): void {
    const keep = new Set([task.kind === "check" ? task.path : task.task.pano]);
    if (task.kind === "check") {
      let views = 0;
      for (const q of this.queue) {
        if (keep.size > PREFETCH_PANOS || views >= PREFETCH_VIEWS) break;
        if (q.task.kind !== "check" || keep.has(q.task.path)) continue;
        this.store.prefetch(q.task.path, groupRows(q.task));
        keep.add(q.task.path);
        views += q.task.jobs.length;
      }
    }
    this.store.retain(keep);
  }

  private async slot(): Promise<void> {
    while (this.inFlight >= ENCODES_IN_FLIGHT) await new Promise<void>((r) => this.waiters.push(r));
    this.inFlight++;
  }

  private release(): void {
    this.inFlight--;
    this.waiters.shift()?.();
  }

  private buffers(w: number, h: number): ViewBuffers {
    return this.free.get(w * h)?.pop() ?? viewBuffers(w, h);
  }

  private giveBack(b: ViewBuffers): void {
    const n = b.map.length;
    let list = this.free.get(n);
    if (!list) this.free.set(n, (list = []));
    if (list.length < ENCODES_IN_FLIGHT + 1) list.push(b);
  }

  /** Decodes the panorama, submits every view; resolves (the outer promise) once all are submitted. */
  private async submitCheck(group: CheckGroup): Promise<{ done: Promise<PoolResult> }> {
    let pano: Pano;
    try {
      pano = await this.store.get(group.path, groupRows(group));
    } catch (e) {
      const message = e instanceof PanoError ? e.message : (e as Error).message;
      const outcomes = group.jobs.map((job): ViewOutcome => ({ turn: job.turn, status: "error", recorded: job.expected, rendered: null, error: message }));
      return { done: Promise.resolve({ kind: "check", outcomes }) };
    }
    const pending: Promise<ViewOutcome>[] = [];
    for (const job of group.jobs) {
      await this.slot();
      const bufs = this.buffers(job.view.width, job.view.height);
      let checking;
      try {
        checking = checkView(pano, job.view, job.expected, job.scheme, bufs);
      } catch (e) {
        checking = Promise.reject(e);
      }
      pending.push(
        checking
          .then(
            (r): ViewOutcome => ({
              turn: job.turn,
              status: r.status,
              recorded: job.expected,
              rendered: r.digest,
              candidates: r.status === "match" ? 0 : r.candidates,
              ...(group.keepImages ? { jpeg: r.jpeg } : {}),
            }),
            (e): ViewOutcome => ({
              turn: job.turn,
              status: "error",
              recorded: job.expected,
              rendered: null,
              error: `turn ${job.turn}: ${(e as Error).message}`,
            }),
          )
          .finally(() => {
            this.giveBack(bufs);
            this.release();
          }),
      );
    }
    return { done: Promise.all(pending).then((outcomes): PoolResult => ({ kind: "check", outcomes })) };
  }

  private async submitFrame(task: RenderTask): Promise<{ done: Promise<PoolResult> }> {
    const pano = await this.store.get(task.pano);
    await this.slot();
    const bufs = this.buffers(task.view.width, task.view.height);
    let rendering;
    try {
      rendering = renderFrameFile(pano, task, bufs);
    } catch (e) {
      rendering = Promise.reject(e);
    }
    const done = rendering
      .finally(() => {
        this.giveBack(bufs);
        this.release();
      })
      .then((sha256): PoolResult => ({ kind: "frame", sha256 }));
    return { done };
  }
}
