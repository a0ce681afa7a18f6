/**
 * The engine's one worker pool. It runs two kinds of task: "check these
 * views of one panorama" (verify, page, frames' verification) and "render
 * this frame file" (frames). Each worker decodes the panoramas it uses and
 * keeps one; tasks carry their panorama path, and a path sticks to the
 * worker that last took it (unless that worker is far busier than the
 * least-loaded one), so a panorama is decoded once per streak of work on it.
 * No pixels cross threads. Runs in the calling thread when there is one job
 * slot or when running from TypeScript sources (tests), where no compiled
 * worker exists.
 */
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { GeoreplayError, errorMessage } from "../../../../replay/io/errors.ts";
import { JobRunner, type PoolTask, type PoolResult } from "./job-runner.ts";

export interface JobPool {
  /**
   * Runs one task. Rejects with the task's own error, or, once the pool has
   * failed (a worker died), with that first failure.
   */
  run(task: PoolTask): Promise<PoolResult>;
  /** Stops the workers; anything still waiting rejects (with the first failure, if there was one). */
  close(): Promise<void>;
  /** The worker threads (none when the pool runs in the calling thread). */
  readonly workers: readonly Worker[];
}

/** Why work on a closed pool was refused: only ever seen when nothing else went wrong first. */
const CLOSED = "the worker pool was closed";

/** Views of imbalance a path's worker may carry before the path moves to the least-loaded worker. */
const AFFINITY_SLACK = 24;

const taskPath = (t: PoolTask) => (t.kind === "check" ? t.path : t.task.pano);
const taskWeight = (t: PoolTask) => (t.kind === "check" ? t.jobs.length : 1);

export function createPool(opts: { jobs: number; panos: string }): JobPool {
  const workerFile = fileURLToPath(new URL("./pool-worker.js", import.meta.url));
  const compiled = import.meta.url.endsWith(".js") && existsSync(workerFile);
  if (opts.jobs <= 1 || !compiled) {
    const runner = new JobRunner(opts.panos);
    let closed: Error | null = null;
    return {
      run: (task) => (closed ? Promise.reject(closed) : runner.run(task)),
      close: async () => {
        closed ??= new Error(CLOSED);
        runner.cancel(closed);
        // As a worker's exit would: the decoded panoramas go now, not at the next collection (a
        // render paints for many seconds after its frames are verified).
        runner.dropPanos();
      },
      workers: [],
    };
  }
  type Waiter = { resolve: (r: PoolResult) => void; reject: (e: Error) => void; weight: number };
  type Slot = { worker: Worker; load: number; pending: Map<number, Waiter> };
  const slots: Slot[] = [];
  const affinity = new Map<string, Slot>();
  let nextId = 0;
  let failure: Error | null = null;
  let closing = false;
  const fail = (e: Error) => {
    failure ??= e;
    for (const s of slots) {
      for (const w of s.pending.values()) w.reject(failure);
      s.pending.clear();
    }
  };
  for (let i = 0; i < opts.jobs; i++) {
    // Small young generation: workers allocate little on the JS heap (buffers are reused), and a
    // tight heap lets V8 collect dropped panorama buffers (external memory) sooner.
    const worker = new Worker(workerFile, { workerData: { panos: opts.panos }, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    const slot: Slot = { worker, load: 0, pending: new Map() };
    worker.on("message", (m: { id: number; result?: PoolResult; error?: string }) => {
      const w = slot.pending.get(m.id);
      if (!w) return;
      slot.pending.delete(m.id);
      slot.load -= w.weight;
      if (m.error !== undefined || !m.result) return w.reject(new Error(m.error ?? "no result"));
      if (m.result.kind === "check") {
        for (const r of m.result.outcomes) if (r.jpeg) r.jpeg = Buffer.from(r.jpeg.buffer, r.jpeg.byteOffset, r.jpeg.byteLength);
      }
      w.resolve(m.result);
    });
    // A worker that fails or stops ends the run with that reason; its tasks are never silently lost.
    worker.on("error", (e) => fail(new GeoreplayError(`worker thread ${i + 1} of ${opts.jobs} failed: ${errorMessage(e).split("\n")[0]}`)));
    worker.on("exit", (code) => {
      if (closing) return;
      fail(new GeoreplayError(`worker thread ${i + 1} of ${opts.jobs} stopped (exit code ${code}) while ${slot.pending.size} task(s) were in flight`));
    });
    slots.push(slot);
  }
  const pick = (path: string): Slot => {
    // Least-loaded worker; ties go to the lowest index (deterministic).
    const least = slots.reduce((a, b) => (b.load < a.load ? b : a));
    const stuck = affinity.get(path);
    const slot = stuck && stuck.load <= least.load + AFFINITY_SLACK ? stuck : least;
    affinity.delete(path); // re-insert: the map keeps recent paths last, and stays bounded below
    affinity.set(path, slot);
    if (affinity.size > 4096) affinity.delete(affinity.keys().next().value!);
    return slot;
  };
  return {
    run(task) {
      if (failure) return Promise.reject(failure);
      const slot = pick(taskPath(task));
      const id = nextId++;
      const weight = taskWeight(task);
      slot.load += weight;
      const result = new Promise<PoolResult>((resolve, reject) => {
        slot.pending.set(id, { resolve, reject, weight });
        slot.worker.postMessage({ id, task });
      });
      // Closing the pool mid-run (an abort) rejects work nobody awaits any more: that is not a crash.
      result.catch(() => undefined);
      return result;
    },
    async close() {
      // Anything still waiting fails rather than hanging (close during a run = cancel).
      closing = true;
      fail(new Error(CLOSED));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
    workers: slots.map((s) => s.worker),
  };
}
