/**
 * One client's /events stream, fed from the event log with backpressure. A
 * client that reads slower than the run writes (a busy tab, a slow link)
 * must not grow the server: once its socket buffer is full the server stops
 * writing to it and, on 'drain', reads what it missed back from the log on
 * disk, in order, each event once. Only one frame beyond Node's high-water
 * mark is ever held in memory per client.
 */
import type { Writable } from "node:stream";
import { sseFrame, type EventLog } from "./event-log.ts";

export interface FollowOptions {
  /** The last event the client has (0: none). */
  after: number;
  /** Send what the log holds now, then end (a catch-up, no live stream). */
  once?: boolean;
}

/** Writes the log's events after `opts.after` to `out`, then (unless once) each new one; returns the unsubscribe function. */
export function followLog(log: EventLog, out: Writable, opts: FollowOptions): () => void {
  let sent = opts.after;
  let waiting = false;
  let stopped = false;

  const holdUntilDrained = (): void => {
    waiting = true;
    out.once("drain", () => {
      waiting = false;
      pump();
    });
  };

  // Writes every event after `sent` the log holds, until the socket says stop.
  const pump = (): void => {
    if (stopped || waiting) return;
    for (const e of log.after(sent)) {
      sent = e.id;
      if (!out.write(sseFrame(e))) return holdUntilDrained();
    }
    if (opts.once) {
      stopped = true;
      out.end();
    }
  };

  // A new event: written straight from memory when the client is caught up, else read back from disk on drain.
  const off = opts.once
    ? () => undefined
    : log.subscribe((e) => {
        if (stopped || waiting) return;
        if (e.id !== sent + 1) return pump();
        sent = e.id;
        if (!out.write(sseFrame(e))) holdUntilDrained();
      });
  pump();
  return () => {
    stopped = true;
    off();
  };
}
