/**
 * What every page `georeplay serve` serves hears on its event stream (/events), whatever its
 * environment: typed once for the core's server (src/serve/env-serve.ts) and stream
 * (client/app/live.ts). Each environment types its own events beside its page (GeoGuesser's:
 * envs/geoguesser/src/page/live-events.ts; crops': envs/crops/src/page/live-event.ts).
 */

/** `event: writer`: whether the inputs stopped growing (for the server's --idle seconds), and since when. */
export interface WriterEvent {
  stopped: boolean;
  since: string;
}
