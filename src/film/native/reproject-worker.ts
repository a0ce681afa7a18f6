/**
 * Worker thread beside the painter: reprojects the in-between views ahead of
 * it, in order, into the shared ring (views-ahead.ts), so painting frame n
 * and reprojecting frame n+1 run at once. It decodes its own panoramas; on any
 * failure it stops, and the painter computes the rest itself (where the error
 * is reported with its file).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { DeferredImage } from "../shared/encode-options.ts";
import { fillRing, type AheadRing } from "./views-ahead.ts";
import { deferredViewsOf } from "../../../envs/deferred-views.ts";

export interface ReprojectJob {
  ring: AheadRing;
  deferred: DeferredImage[];
}

/** What the worker is started with: the environment whose views it makes (DeferredImage.env). */
export interface ReprojectWorkerData {
  env: string;
}

// Started before the views' order is known: the environment's maker (and its decoder) loads
// meanwhile, and the job comes by message.
const views = deferredViewsOf((workerData as ReprojectWorkerData).env);
views.catch(() => undefined); // reported through the ring (below) once the job comes

parentPort!.once("message", (data: ReprojectJob) => {
  let store: unknown;
  fillRing(data.ring, data.deferred.length, async (i, out) => {
    const v = await views;
    store ??= v.store();
    v.prefetch(store, data.deferred, i + 1, i + v.lookahead);
    return v.pixels(store, data.deferred[i], out);
  }).catch(() => undefined); // the painter sees the flag, makes the view itself and reports the failure with its file
});
