/** `georeplay serve` on GeoGuesser runs and boards: the page's folder form built, followed and served. */
import type { ServeRunOptions, Serving } from "../../../src/serve/serve-common.ts";

export async function serveCommand(o: ServeRunOptions): Promise<Serving> {
  const { inputs, tasks, panos, format, jobs, baseline, title, host, port, pollMs, idleS, signal, say } = o;
  return (await import("./serve/serve.ts")).serve({ inputs, tasks, panos, format, jobs, baseline, title, host, port, pollMs, idleS, signal, say });
}
