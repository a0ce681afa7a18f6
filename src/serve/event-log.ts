/**
 * The live page's events, numbered 1, 2, 3... (the SSE cursor): a page that
 * reconnects with Last-Event-ID n gets events n+1.. and nothing else. Each
 * event's JSON is kept on disk in a private folder, not in memory, so the
 * server's memory stays flat however long the run goes on.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LoggedEvent {
  id: number;
  type: string;
  data: string;
}

export class EventLog {
  private last = 0;
  private readonly types: string[] = [];
  private readonly listeners = new Set<(e: LoggedEvent) => void>();

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** The newest event's id (0: none yet). */
  get lastId(): number {
    return this.last;
  }

  /** Appends an event (data: one line of JSON) and hands it to every listener. */
  append(type: string, data: string): LoggedEvent {
    const e = { id: ++this.last, type, data };
    writeFileSync(join(this.dir, `${e.id}.json`), data);
    this.types.push(type);
    for (const fn of this.listeners) fn(e);
    return e;
  }

  /** Events after `id`, oldest first (read from disk one at a time). */
  *after(id: number): Generator<LoggedEvent> {
    for (let n = Math.max(0, id) + 1; n <= this.last; n++) yield { id: n, type: this.types[n - 1], data: readFileSync(join(this.dir, `${n}.json`), "utf8") };
  }

  /** Calls `fn` with every event appended from now on; returns the unsubscribe function. */
  subscribe(fn: (e: LoggedEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

/** An event as the SSE wire format writes it (data is one line of JSON, so one data field). */
export const sseFrame = (e: LoggedEvent): string => `id: ${e.id}\nevent: ${e.type}\ndata: ${e.data}\n\n`;
