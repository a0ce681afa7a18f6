/**
 * The HTTP side of `georeplay serve` (Node's own http): the served folder's
 * files, read-only, behind request-guard.ts (a file the folder does not hold
 * yet may be one the server makes when first asked: `make`, the live
 * episodes' player data), and /events, the server-sent
 * events every open page follows (event-log.ts keeps them, event-stream.ts
 * feeds each client at its own pace; a heartbeat
 * comment every 15 s keeps proxies and the browser from dropping a quiet
 * stream).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { hostname, networkInterfaces } from "node:os";
import { extname, join } from "node:path";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { allowedHosts, guardRequest } from "./request-guard.ts";
import type { EventLog } from "./event-log.ts";
import { followLog } from "./event-stream.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".jpg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".json": "application/json",
};

export const HEARTBEAT_MS = 15_000;

const wildcard = (host: string) => host === "0.0.0.0" || host === "::" || host === "[::]";

/** This machine's host name and interface addresses: what a browser elsewhere puts in Host for a server on every interface. */
function machineNames(): string[] {
  const addrs = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
  return [hostname(), ...addrs];
}

export interface PageServer {
  server: Server;
  /** Where it listens, as the URL to open. */
  url: string;
  /** Open event streams now (a catch-up's until it has all been sent). */
  readonly clients: number;
  /** Bytes written to event streams that their clients have not taken yet (bounded per client by backpressure). */
  readonly queued: number;
  close(): Promise<void>;
}

export interface PageServerOptions {
  root: string;
  events: EventLog;
  host: string;
  port: number;
  /** For a path the folder does not hold: a promise settled once the server wrote that file, or null (404). */
  make?: (rel: string) => Promise<void> | null;
}

export async function startPageServer(opts: PageServerOptions): Promise<PageServer> {
  const streams = new Set<ServerResponse>();
  let hosts = new Set<string>();
  const server = createServer((req, res) => handle(req, res));
  const heartbeat = setInterval(() => {
    for (const s of streams) s.write(": heartbeat\n\n");
  }, HEARTBEAT_MS);
  heartbeat.unref();

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const g = guardRequest(req.method, req.url, req.headers.host, hosts);
    if (!g.ok) {
      res.writeHead(g.status, { "content-type": "text/plain; charset=utf-8", ...(g.status === 405 ? { allow: "GET, HEAD" } : {}) });
      res.end(`${g.status}: ${g.reason}\n`);
      return;
    }
    if (g.rel === "events") return stream(req, res);
    const rel = g.rel === "" ? "index.html" : g.rel;
    const size = fileSize(rel);
    if (size !== null) return send(req, res, rel, size);
    const making = opts.make?.(rel);
    if (!making) {
      // Browsers ask for an icon the page never names; a 404 there is a console error in every tab.
      if (rel === "favicon.ico") return void res.writeHead(204, { "cache-control": "max-age=86400" }).end();
      return notFound(res);
    }
    making.then(
      () => {
        const made = fileSize(rel);
        if (made === null) notFound(res);
        else send(req, res, rel, made);
      },
      () => notFound(res),
    );
  }

  function fileSize(rel: string): number | null {
    try {
      const st = statSync(join(opts.root, rel));
      return st.isFile() ? st.size : null;
    } catch {
      return null;
    }
  }

  function notFound(res: ServerResponse): void {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("404: not found\n");
  }

  function send(req: IncomingMessage, res: ServerResponse, rel: string, size: number): void {
    res.writeHead(200, {
      "content-type": TYPES[extname(rel)] ?? "application/octet-stream",
      "content-length": size,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    });
    if (req.method === "HEAD") return void res.end();
    createReadStream(join(opts.root, rel))
      .on("error", () => res.destroy())
      .pipe(res);
  }

  function stream(req: IncomingMessage, res: ServerResponse): void {
    // The cursor: the browser's Last-Event-ID on a reconnect, else ?after=N (a tab taking over the stream, a catch-up).
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const header = req.headers["last-event-id"];
    const text = Array.isArray(header) ? header[0] : (header ?? query.get("after") ?? "0");
    const from = /^\d{1,15}$/.test(text) ? Number(text) : 0;
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    if (req.method === "HEAD") return void res.end();
    res.write("retry: 1000\n\n");
    // A cursor from the future is another server's (serve restarted on this port): that page must load this one's.
    if (from > opts.events.lastId) res.write("event: restart\ndata: {}\n\n");
    // ?once=1: what was missed, then the end (a tab that follows another tab's stream holds no connection).
    const off = followLog(opts.events, res, { after: from, once: query.get("once") === "1" });
    streams.add(res);
    req.socket.setTimeout(0);
    res.on("close", () => {
      off();
      streams.delete(res);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      clearInterval(heartbeat);
      const why =
        e.code === "EADDRINUSE" ? "the port is in use (--port 0 takes a free one)" : e.code === "EADDRNOTAVAIL" ? "no such address on this machine" : e.message;
      reject(new GeoreplayError(`cannot listen on ${opts.host}:${opts.port}: ${why}`));
    });
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : opts.port;
  hosts = allowedHosts(opts.host, port, wildcard(opts.host) ? machineNames() : []);
  const shown = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return {
    server,
    url: `http://${shown}:${port}/`,
    get clients() {
      return streams.size;
    },
    get queued() {
      let bytes = 0;
      for (const s of streams) bytes += s.writableLength;
      return bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(heartbeat);
        for (const s of streams) s.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
