/**
 * What every `georeplay serve` shares, whichever environment's page it serves (serve.ts for the
 * core's page, env-serve.ts for an environment's own): the options of the server and its
 * following, what a started server is, and the warning a non-loopback --host gets.
 */
import type { InputFormat } from "../../replay/formats/inputs.ts";
import type { PageServer } from "./http-server.ts";

export interface ServeCommon {
  inputs: string[];
  baseline?: string;
  title?: string;
  host: string;
  port: number;
  /** Poll interval, ms. */
  pollMs: number;
  /** Seconds without growth before the page is told the writer stopped. */
  idleS: number;
  signal: AbortSignal;
  say: (line: string) => void;
}

/** What `georeplay serve` hands an environment's `serve` hook (envs/environment.ts): the common options and the inputs' own flags. */
export interface ServeRunOptions extends ServeCommon {
  /** GeoGuesser's inputs. */
  tasks?: string;
  panos?: string;
  format?: InputFormat;
  /** Threads rendering views. */
  jobs?: number;
  /** A crops run's dataset folder. */
  dataset?: string;
}

export interface Serving {
  url: string;
  server: PageServer;
  /** The temp folder holding the served page and the server's scratch files. */
  tmp: string;
  close(): Promise<void>;
}

const isLoopback = (host: string) => host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Says so when the page is reachable from the network. */
export function warnIfReachable(host: string, say: (line: string) => void): void {
  if (!isLoopback(host)) say(`warning: --host ${host}: the page is reachable from the network, by anyone who can reach this machine`);
}
