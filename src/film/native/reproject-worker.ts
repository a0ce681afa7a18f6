/**
 * Worker thread beside the painter: reprojects the in-between views ahead of
 * it, in order, into the shared ring (views-ahead.ts), so painting frame n
 * and reprojecting frame n+1 run at once. It decodes its own panoramas; on any
 * failure it stops, and the painter computes the rest itself (where the error
 * is reported with its file).
 */
import { parentPort } from "node:worker_threads";
import type { DeferredImage } from "../shared/encode-options.ts";
import { fillRing, type AheadRing } from "./views-ahead.ts";
import { LOOKAHEAD, prefetchPanos, viewPixels, wordStore } from "../../../envs/geoguesser/src/film/view-pixels.ts";

export interface ReprojectJob {
  ring: AheadRing;
  deferred: DeferredImage[];
}

// Started before the views' order is known (the worker loads meanwhile): the job comes by message.
parentPort!.once("message", (data: ReprojectJob) => {
  const store = wordStore();
  fillRing(data.ring, data.deferred.length, (i, out) => {
    prefetchPanos(store, data.deferred, i + 1, i + LOOKAHEAD);
    return viewPixels(store, data.deferred[i], out);
  }).catch(() => undefined); // the painter sees the flag, makes the view itself and reports the failure with its file
});
