/**
 * `georeplay serve` on a crops run: its live page (serve/live-page.ts) followed and served by the
 * core (src/serve/env-serve.ts).
 */
import type { ServeRunOptions, Serving } from "../../../src/serve/serve-common.ts";

export async function serveCrops(o: ServeRunOptions): Promise<Serving> {
  for (const [flag, given] of [
    ["--tasks", o.tasks],
    ["--panos", o.panos],
  ] as const)
    if (given) o.say(`warning: ${flag} is for GeoGuesser runs; this run reads its own dataset (--dataset)`);
  const [{ serveEnvironment }, { cropsLivePage }] = await Promise.all([import("../../../src/serve/env-serve.ts"), import("./serve/live-page.ts")]);
  const { inputs, dataset, title, baseline, host, port, pollMs, idleS, signal, say } = o;
  return serveEnvironment(cropsLivePage, { inputs, dataset, title, baseline, host, port, pollMs, idleS, signal, say });
}
