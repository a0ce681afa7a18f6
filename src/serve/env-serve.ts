/**
 * `georeplay serve` for an environment that serves its own runs (its `serve` hook: live-page.ts).
 * The environment writes its page's shell into a private temp folder; this follows each record file
 * from its first line (file-tail.ts), hands the environment its complete lines in batches, logs the
 * events it returns (event-log.ts) and serves the folder (http-server.ts). The lines there at start
 * (up to a poll's read) are read before the URL is printed, so the first page opened lists them; a page that
 * opens later (a reload, a new tab, a link) catches up from the event log, which holds everything.
 * Knows no environment: what a record is and how it is verified is the hook's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from "node:fs";
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { firstLines } from "./first-lines.ts";
import { FileTail } from "./file-tail.ts";
import { EventLog } from "./event-log.ts";
import { markLive } from "./page-folder.ts";
import { startPageServer, type PageServer } from "./http-server.ts";
import { warnIfReachable, type ServeCommon, type Serving } from "./serve-common.ts";
import type { LivePage, LivePageOptions, LiveUpdate } from "./live-page.ts";
import type { WriterEvent } from "../page/live-stream.ts";

export interface EnvServeOptions extends ServeCommon {
  dataset?: string;
}

export type EnvServing = Serving;

export async function serveEnvironment(open: (o: LivePageOptions) => Promise<LivePage>, o: EnvServeOptions): Promise<EnvServing> {
  const tmp = mkdtempSync(join(tmpdir(), "georeplay-serve-"));
  let server: PageServer | undefined;
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let closing: Promise<void> | null = null;
  // One closing, whoever asks (the abort and the interrupt cleanup both do): each caller waits until the folder is gone.
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      closed = true;
      clearTimeout(timer);
      for (const w of watchers) w.close();
      try {
        await server?.close();
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    })());
  try {
    await firstLines(o.inputs, o.pollMs, o.signal, o.say);
    const root = join(tmp, "page");
    mkdirSync(root, { recursive: true });
    const { inputs, dataset, title, baseline, signal } = o;
    const page = await open({ inputs, root, scratch: join(tmp, "scratch"), dataset, title, baseline, signal });
    const index = join(root, "index.html");
    writeFileSync(index, markLive(readFileSync(index, "utf8"), randomUUID()));
    const events = new EventLog(join(tmp, "events"));
    const tails = page.files.map((f) => new FileTail(f));
    const said = new Set<string>();
    const publish = (u: LiveUpdate) => {
      for (const p of u.problems) if (!said.has(p) && said.add(p)) o.say(`warning: ${p}`);
      for (const e of u.events) events.append(e.type, e.data);
    };

    let lastGrowth = Date.now();
    let stopped = false;
    /** One pass over the files: what each grew by, in batches; returns whether any grew. */
    const readAll = async (): Promise<boolean> => {
      let grew = false;
      for (const tail of tails) {
        const r = tail.poll();
        grew ||= r.grew || r.restarted;
        if (r.restarted) o.say(`${relative(process.cwd(), tail.file) || tail.file}: truncated or replaced; reading it again from the start`);
        // A restart with no complete line yet is still said to the page's environment: it forgets the file's old lines.
        if (r.restarted && !r.lines.length) publish(await page.append(tail.file, [], true));
        for (let i = 0; i < r.lines.length && !closed; i += page.linesPerBatch)
          publish(await page.append(tail.file, r.lines.slice(i, i + page.linesPerBatch), r.restarted && i === 0));
      }
      if (!closed) publish(await page.settle());
      return grew;
    };
    // The lines there now, before the URL (up to 16 MB a file: file-tail.ts); the rest, and a writer that never pauses, follow as events.
    await readAll();
    signal.throwIfAborted();

    server = await startPageServer({ root, events, host: o.host, port: o.port });
    page.opened?.();
    warnIfReachable(o.host, o.say);

    let polling = false;
    let again = false;
    const poll = async () => {
      if (closed) return;
      if (polling) return void (again = true);
      polling = true;
      try {
        if (await readAll()) lastGrowth = Date.now();
        const idle = Date.now() - lastGrowth > o.idleS * 1000;
        if (idle !== stopped && !closed) {
          stopped = idle;
          events.append("writer", JSON.stringify({ stopped, since: new Date(lastGrowth).toISOString() } satisfies WriterEvent));
        }
      } catch (e) {
        if (!signal.aborted) o.say(`warning: reading the inputs: ${(e as Error).message}`);
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
        if (!closed) timer = setTimeout(tick, o.pollMs);
      });
    };
    timer = setTimeout(tick, o.pollMs);
    // fs.watch wakes the poll early; the interval poll is what serving relies on (watch events are lost on some filesystems).
    for (const f of page.files) {
      try {
        watchers.push(watch(f, { persistent: false }, () => void poll()).on("error", () => undefined));
      } catch {
        /* the interval poll covers it */
      }
    }
    return { url: server.url, server, tmp, close };
  } catch (e) {
    await close();
    throw e;
  }
}
