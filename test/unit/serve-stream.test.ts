/**
 * The /events stream under a client that stops reading (a busy tab, a slow
 * link): the server stops queueing for it once its socket is full, and on
 * drain reads what it missed back from the event log on disk, so its memory
 * stays flat and the client still gets every event once, in order.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventLog } from "../../src/serve/event-log.ts";
import { startPageServer } from "../../src/serve/http-server.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-stream-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVENTS = 400;
const payload = (n: number) => JSON.stringify({ n, pad: "x".repeat(64 * 1024) });
const tick = () => new Promise((r) => setTimeout(r, 20));

/** A client of /events: its text as it comes; `pause` stops reading (the kernel's buffers fill, then the server's). */
function streamClient(port: number, query = "") {
  let text = "";
  let response: IncomingMessage | undefined;
  let paused = false;
  const ended = new Promise<void>((resolve, reject) => {
    get({ host: "127.0.0.1", port, path: `/events${query}`, agent: false }, (res) => {
      response = res;
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve());
      if (paused) res.pause();
    }).on("error", reject);
  });
  // Whether the text so far ends with event n's frame (cheap: only the tail is looked at).
  const through = (n: number) => text.slice(-70 * 1024).includes(`id: ${n}\n`);
  const ids = () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  const datas = () => [...text.matchAll(/^data: (\{"n".*)$/gm)].map((m) => (JSON.parse(m[1]) as { n: number }).n);
  const pause = () => {
    paused = true; // asked before the headers arrived: applied when they do
    response?.pause();
  };
  const resume = () => {
    paused = false;
    response?.resume();
  };
  return { pause, resume, ids, datas, ended, through };
}

describe("an event stream whose client stops reading", () => {
  it("queues at most about one socket's worth for it, then sends every missed event once, in order, from disk", async () => {
    const log = new EventLog(join(dir, "events"));
    const server = await startPageServer({ root: dir, events: log, host: "127.0.0.1", port: 0 });
    try {
      const port = Number(new URL(server.url).port);
      const client = streamClient(port);
      for (let i = 0; i < 100 && server.clients === 0; i++) await tick();
      expect(server.clients).toBe(1);
      client.pause();
      let most = 0;
      for (let n = 1; n <= EVENTS; n++) {
        log.append("episodes", payload(n));
        most = Math.max(most, server.queued);
        if (n % 50 === 0) await tick(); // let the socket flush what it can
      }
      // 400 events of 64 KB (26 MB): without backpressure all of it would wait in the server's memory.
      expect(most).toBeLessThan(1024 * 1024);
      client.resume();
      for (let i = 0; i < 500 && !client.through(EVENTS); i++) await tick();
      const want = Array.from({ length: EVENTS }, (_, i) => i + 1);
      expect(client.ids()).toEqual(want);
      expect(client.datas()).toEqual(want);
      expect(server.queued).toBe(0);

      // A catch-up (?once=1) of the whole log through a paused client ends once it is all sent, nothing lost.
      const late = streamClient(port, "?once=1&after=0");
      late.pause();
      for (let i = 0; i < 100 && server.clients < 2; i++) await tick();
      expect(server.clients).toBe(2);
      await tick();
      expect(server.queued).toBeLessThan(1024 * 1024);
      late.resume();
      await late.ended;
      expect(late.ids()).toEqual(want);
    } finally {
      await server.close();
    }
  });
});

describe("what a browser asks for that the page never names", () => {
  it("answers /favicon.ico with 204 (no console error in the tab), other missing files with 404", async () => {
    const log = new EventLog(join(dir, "events-icon"));
    const server = await startPageServer({ root: dir, events: log, host: "127.0.0.1", port: 0 });
    try {
      const port = Number(new URL(server.url).port);
      const status = (path: string) =>
        new Promise<number>((resolve, reject) => {
          get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          }).on("error", reject);
        });
      expect(await status("/favicon.ico")).toBe(204);
      expect(await status("/missing.js")).toBe(404);
    } finally {
      await server.close();
    }
  });
});
