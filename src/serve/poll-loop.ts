/**
 * The follow loop every `serve` runs: one pass over the inputs at a time (a wake during a pass
 * runs one more after it), every `pollMs` and whenever fs.watch says a file changed (watch
 * events are lost on some filesystems: the interval is what serving relies on). After each
 * pass, a "writer" event when the files stop or start growing (`idleS` without growth).
 */
import { watch, type FSWatcher } from "node:fs";
import type { EventLog } from "./event-log.ts";
import type { WriterEvent } from "../page/live-stream.ts";

export interface PollLoopOptions {
  /** The files to watch for an early wake. */
  files: readonly string[];
  pollMs: number;
  idleS: number;
  events: EventLog;
  /** One pass over the inputs; resolves whether any of them grew. */
  pass: () => Promise<boolean>;
  /** A pass that threw (the loop goes on: the next pass may read it whole). */
  onError: (e: Error) => void;
}

export interface PollLoop {
  /** No pass starts after this; a pass under way finishes on its own. */
  stop(): void;
}

export function startPollLoop(o: PollLoopOptions): PollLoop {
  let stopped = false;
  let idle = false;
  let lastGrowth = Date.now();
  let polling = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = [];
  const poll = async () => {
    if (stopped) return;
    if (polling) return void (again = true);
    polling = true;
    try {
      if (await o.pass()) lastGrowth = Date.now();
      const nowIdle = Date.now() - lastGrowth > o.idleS * 1000;
      if (nowIdle !== idle && !stopped) {
        idle = nowIdle;
        o.events.append("writer", JSON.stringify({ stopped: idle, since: new Date(lastGrowth).toISOString() } satisfies WriterEvent));
      }
    } catch (e) {
      o.onError(e as Error);
    } finally {
      polling = false;
    }
    if (again) {
      again = false;
      void poll();
    }
  };
  const tick = () => {
    void poll().finally(() => {
      if (!stopped) timer = setTimeout(tick, o.pollMs);
    });
  };
  timer = setTimeout(tick, o.pollMs);
  for (const f of o.files) {
    try {
      watchers.push(watch(f, { persistent: false }, () => void poll()).on("error", () => undefined));
    } catch {
      /* the interval poll covers it */
    }
  }
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
