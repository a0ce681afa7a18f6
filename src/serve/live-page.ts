/**
 * The contract between `georeplay serve` and an environment that serves its own runs (the seam's
 * `serve` hook, envs/environment.ts). The core keeps what is the same for every environment: the
 * temp folder, waiting for the first line, following the files (file-tail.ts: torn last lines wait,
 * a truncated or replaced file is read again), the event log and its backpressure, the HTTP server
 * and its guards, the writer's idle mark and shutdown (env-serve.ts). The environment writes its
 * page (the folder form, into `root`), verifies each batch of new complete lines and says what open
 * pages must be sent: events whose data is one line of JSON.
 */
import type { CompleteLine } from "../../replay/io/line-reader.ts";

export interface LivePageOptions {
  /** The command line's inputs. */
  inputs: string[];
  /** The served folder: the environment writes index.html there (its folder form), then its files as episodes come. */
  root: string;
  /** A private folder for the environment's scratch files (never served; removed with the server). */
  scratch: string;
  /** The command's options an environment may read (its own dataset, the page's title, the board's baseline). */
  dataset?: string;
  title?: string;
  baseline?: string;
  signal: AbortSignal;
}

/** An event for every open page: its type and its data (one line of JSON). */
export interface LiveEvent {
  type: string;
  data: string;
}

/** What a batch of lines (or a settle) gives: events to send, and problems to say on stderr (once each). */
export interface LiveUpdate {
  events: LiveEvent[];
  problems: string[];
}

export interface LivePage {
  /** The record files followed, each from its first line (the page is built from the events). */
  readonly files: string[];
  /** Complete lines per `append` at most: how often a backlog reaches the pages. */
  readonly linesPerBatch: number;
  /**
   * Consecutive complete lines of one file, verified and written into the page folder; `restarted`:
   * the file was truncated or replaced and these lines start again at its line 1. Bad lines are
   * problems, never a throw: the rest goes on.
   */
  append(file: string, lines: CompleteLine[], restarted: boolean): Promise<LiveUpdate>;
  /** After each poll: what was held back while episodes came (numbers over the whole run), if due. */
  settle(): Promise<LiveUpdate>;
  /** The lines there at start are read and the server listens: what comes from now on is new to its pages. */
  opened?(): void;
}
