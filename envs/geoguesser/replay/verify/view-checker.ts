/**
 * The engine's one view verifier: checks view jobs on the pool, grouped by
 * panorama file, and renders a view that repeats (same panorama file, camera,
 * size, digest and scheme: a board's start views, an unparseable turn's
 * repeat) once per run, from a bounded cache of outcomes.
 *
 * Batched (verify), the views of many episodes are queued until `flush`, so
 * all of a window's views of one panorama go to one worker as one task and
 * the panorama is decoded once for them (episodes of one task sample the
 * same panoramas, but arrive far apart in the input).
 */
import type { JobPool } from "./pool.ts";
import type { ViewOutcome } from "./job-runner.ts";
import type { ViewJob } from "./view-jobs.ts";

export interface ViewChecker {
  /** Outcomes in the order of `jobs`. Batched, nothing runs until `flush`. */
  check(jobs: ViewJob[]): Promise<ViewOutcome[]>;
  /** Sends every queued view to the pool: one task per panorama file, largest first (so no worker ends a window with a long tail). */
  flush(): void;
  /** Distinct views rendered so far (cache misses). */
  readonly rendered: number;
}

/** Outcomes remembered without images (a few hundred bytes each). */
const MAX_OUTCOMES = 50_000;
/** With images kept (page, frames), the cache is bounded by JPEG bytes instead. */
const MAX_IMAGE_BYTES = 64 * 1024 * 1024;

type Shared = Omit<ViewOutcome, "turn">;

export function viewKey(j: ViewJob): string {
  const v = j.view;
  return `${j.path}\u0000${v.headingDeg}:${v.pitchDeg}:${v.fovDeg}:${v.width}x${v.height}\u0000${j.expected}:${j.scheme}`;
}

type Queued = { key: string; job: ViewJob; resolve: (o: Shared) => void; reject: (e: Error) => void };

/** `imagesOnce`: remembered outcomes drop their JPEG (a repeat is answered without it: verify.ts imagesOnce). */
export function createViewChecker(pool: JobPool, keepImages: boolean, opts: { batch?: boolean; imagesOnce?: boolean } = {}): ViewChecker {
  const done = new Map<string, Shared>();
  const inflight = new Map<string, Promise<Shared>>();
  const queued = new Map<string, Queued[]>();
  let imageBytes = 0;
  let rendered = 0;

  const remember = (key: string, o: Shared) => {
    if (o.status === "error") return; // a missing panorama may be fixed; and errors are cheap to recompute
    if (opts.imagesOnce && o.jpeg) {
      const { jpeg: _jpeg, ...rest } = o;
      o = rest;
    }
    done.set(key, o);
    imageBytes += o.jpeg?.byteLength ?? 0;
    while (done.size > MAX_OUTCOMES || imageBytes > MAX_IMAGE_BYTES) {
      const [k, old] = done.entries().next().value!;
      done.delete(k);
      imageBytes -= old.jpeg?.byteLength ?? 0;
      if (done.size === 0) break;
    }
  };

  const flush = () => {
    // Stable sort: equal sizes keep first-seen order, so the schedule is deterministic.
    const groups = [...queued].sort((a, b) => b[1].length - a[1].length);
    queued.clear();
    for (const [path, list] of groups) {
      rendered += list.length;
      pool.run({ kind: "check", path, jobs: list.map((x) => x.job), keepImages }).then(
        (r) => {
          if (r.kind !== "check") throw new Error("pool answered a view check with a frame");
          r.outcomes.forEach((o, j) => {
            const { turn: _turn, ...shared } = o;
            inflight.delete(list[j].key);
            remember(list[j].key, shared);
            list[j].resolve(shared);
          });
        },
        (e: Error) => {
          for (const x of list) {
            inflight.delete(x.key);
            x.reject(e);
          }
        },
      );
    }
  };

  return {
    flush,
    get rendered() {
      return rendered;
    },
    async check(jobs) {
      const results: Promise<Shared>[] = new Array(jobs.length);
      jobs.forEach((job, i) => {
        const key = viewKey(job);
        const hit = done.get(key);
        if (hit) {
          done.delete(key); // refresh recency
          done.set(key, hit);
          results[i] = Promise.resolve(hit);
          return;
        }
        const running = inflight.get(key);
        if (running) {
          results[i] = running;
          return;
        }
        const p = new Promise<Shared>((resolve, reject) => {
          let list = queued.get(job.path);
          if (!list) queued.set(job.path, (list = []));
          list.push({ key, job, resolve, reject });
        });
        inflight.set(key, p);
        results[i] = p;
      });
      if (!opts.batch) flush();
      const shared = await Promise.all(results);
      return shared.map((o, i) => ({ turn: jobs[i].turn, ...o }));
    },
  };
}
