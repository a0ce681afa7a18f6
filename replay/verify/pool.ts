/**
 * A small worker pool for render jobs. The main thread owns one panorama
 * cache (decoded into SharedArrayBuffers by sharp on libuv's threads, so
 * decoding overlaps rendering) and workers only render, encode and hash.
 * Falls back to the calling thread when there is one job slot or when running
 * from TypeScript sources (tests), where no compiled worker exists.
 */
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PanoStore, PanoError } from "../panos/store.ts";
import type { SharedPano } from "./verify-worker.ts";
import { runJobs, type ViewOutcome } from "./check-jobs.ts";
import type { ViewJob } from "./view-jobs.ts";

export interface JobPool {
  run(jobs: ViewJob[]): Promise<ViewOutcome[]>;
  close(): Promise<void>;
}

export function createPool(opts: { jobs: number; panos: string; keepImages: boolean; cacheBytes?: number }): JobPool {
  const cacheBytes = opts.cacheBytes ?? 256 * 1024 * 1024;
  const workerFile = fileURLToPath(new URL("./verify-worker.js", import.meta.url));
  const compiled = import.meta.url.endsWith(".js") && existsSync(workerFile);
  if (opts.jobs <= 1 || !compiled) {
    const store = new PanoStore(opts.panos, cacheBytes);
    return { run: (jobs) => runJobs((p) => store.get(p), jobs, opts.keepImages), close: async () => {} };
  }
  const store = new PanoStore(opts.panos, cacheBytes, true);
  const sharedPanos = (jobs: ViewJob[]): Promise<SharedPano[]> =>
    Promise.all(
      [...new Set(jobs.map((j) => j.path))].map(async (path): Promise<SharedPano> => {
        try {
          const p = await store.get(path);
          return { path, width: p.width, height: p.height, data: p.data.buffer as SharedArrayBuffer };
        } catch (e) {
          if (e instanceof PanoError) return { path, error: e.message };
          throw e;
        }
      }),
    );
  type Waiter = { resolve: (r: ViewOutcome[]) => void; reject: (e: Error) => void };
  type Slot = { worker: Worker; busy: number; pending: Map<number, Waiter> };
  const slots: Slot[] = [];
  let nextId = 0;
  let failure: Error | null = null;
  for (let i = 0; i < opts.jobs; i++) {
    const worker = new Worker(workerFile);
    const slot: Slot = { worker, busy: 0, pending: new Map() };
    worker.on("message", (m: { id: number; results: ViewOutcome[] }) => {
      const done = slot.pending.get(m.id);
      slot.pending.delete(m.id);
      slot.busy--;
      for (const r of m.results) if (r.jpeg) r.jpeg = Buffer.from(r.jpeg.buffer, r.jpeg.byteOffset, r.jpeg.byteLength);
      done?.resolve(m.results);
    });
    worker.on("error", (e) => {
      failure = e;
      for (const w of slot.pending.values()) w.reject(e);
      slot.pending.clear();
    });
    slots.push(slot);
  }
  return {
    async run(jobs) {
      if (failure) throw failure;
      const panos = await sharedPanos(jobs);
      // Least-loaded worker; ties go to the lowest index (deterministic, and keeps caches warm).
      const slot = slots.reduce((a, b) => (b.busy < a.busy ? b : a));
      const id = nextId++;
      slot.busy++;
      return new Promise((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        slot.worker.postMessage({ id, jobs, keepImages: opts.keepImages, panos });
      });
    },
    async close() {
      // Anything still waiting fails rather than hanging (close during a run = cancel).
      failure ??= new Error("the worker pool was closed");
      for (const s of slots) {
        for (const w of s.pending.values()) w.reject(failure);
        s.pending.clear();
      }
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
