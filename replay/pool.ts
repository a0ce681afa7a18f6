/**
 * A small worker pool for render jobs. Each worker keeps its own panorama
 * cache, so a batch (one episode) goes to one worker: its views mostly share
 * panoramas. Falls back to the calling thread when there is one job slot or
 * when running from TypeScript sources (tests), where no compiled worker exists.
 */
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PanoStore } from "../src/panos/store.ts";
import { runJobs, type ViewOutcome } from "./check-jobs.ts";
import type { ViewJob } from "./view-jobs.ts";

export interface JobPool {
  run(jobs: ViewJob[]): Promise<ViewOutcome[]>;
  close(): Promise<void>;
}

export function createPool(opts: { jobs: number; panos: string; keepImages: boolean; cacheBytes?: number }): JobPool {
  const cacheBytes = opts.cacheBytes ?? 384 * 1024 * 1024;
  const workerFile = fileURLToPath(new URL("./verify-worker.js", import.meta.url));
  const compiled = import.meta.url.endsWith(".js") && existsSync(workerFile);
  if (opts.jobs <= 1 || !compiled) {
    const store = new PanoStore(opts.panos, cacheBytes);
    return { run: (jobs) => runJobs(store, jobs, opts.keepImages), close: async () => {} };
  }
  const perWorker = Math.max(64 * 1024 * 1024, Math.floor(cacheBytes / opts.jobs));
  type Waiter = { resolve: (r: ViewOutcome[]) => void; reject: (e: Error) => void };
  type Slot = { worker: Worker; busy: number; pending: Map<number, Waiter> };
  const slots: Slot[] = [];
  let nextId = 0;
  let failure: Error | null = null;
  for (let i = 0; i < opts.jobs; i++) {
    const worker = new Worker(workerFile, { workerData: { panos: opts.panos, cacheBytes: perWorker } });
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
    run(jobs) {
      if (failure) return Promise.reject(failure);
      // Least-loaded worker; ties go to the lowest index (deterministic, and keeps caches warm).
      const slot = slots.reduce((a, b) => (b.busy < a.busy ? b : a));
      const id = nextId++;
      slot.busy++;
      return new Promise((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        slot.worker.postMessage({ id, jobs, keepImages: opts.keepImages });
      });
    },
    async close() {
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
