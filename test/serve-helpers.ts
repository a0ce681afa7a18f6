/** `georeplay serve` in tests: a real process on a free port, raw HTTP and SSE clients, fixture episodes with new ids. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { CLI, MIXED, ROOT } from "./helpers.ts";

export const common = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--no-progress"];
export const LINES = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim());

/** Fixture line n (1-based) as a new episode: same record, its own id. */
export const episodeLine = (n: number, id: string): string => JSON.stringify({ ...JSON.parse(LINES[(n - 1) % LINES.length]), episode_id: id }) + "\n";

export interface Served {
  proc: ChildProcess;
  url: string;
  port: number;
  stderr: () => string;
  exit: Promise<number | null>;
  tmp: string;
}

/**
 * Starts `georeplay serve` on a free port with its own TMPDIR (and the GeoGuesser fixture's --tasks/--panos unless `base` says otherwise); resolves once it prints its URL.
 * `onStderr` sees its stderr so far after every chunk (to act on what it says before the URL, e.g. that it waits for a first line).
 */
export async function startServe(
  dir: string,
  inputs: string[],
  extra: string[] = [],
  name = "s",
  base: string[] = common,
  onStderr?: (err: string) => void,
): Promise<Served> {
  const tmp = join(dir, `tmp-${name}`);
  mkdirSync(tmp, { recursive: true });
  const proc = spawn(process.execPath, [CLI, "serve", ...inputs, ...base, "--port", "0", ...extra], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  proc.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
    onStderr?.(err);
  });
  const exit = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve printed no URL:\n${err}`)), 120_000);
    proc.stderr!.on("data", () => {
      const m = /georeplay serve: (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1]);
      }
    });
    void exit.then((code) => reject(new Error(`serve exited ${code}:\n${err}`)));
  });
  return { proc, url, port: Number(new URL(url).port), stderr: () => err, exit, tmp };
}

/** A raw request (the path exactly as given, no client-side normalisation). */
export function raw(port: number, path: string, opts: { method?: string; host?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: opts.method ?? "GET", headers: { host: opts.host ?? `127.0.0.1:${port}` } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

export interface SseEvent {
  id: number;
  type: string;
  data: { rows?: { id: string }[] };
}

/** A raw SSE client: connects (with Last-Event-ID when given) and collects events until closed. */
export function sse(port: number, lastId?: number): { events: SseEvent[]; close(): void; opened: Promise<void> } {
  const events: SseEvent[] = [];
  let buf = "";
  let req: ReturnType<typeof request>;
  const opened = new Promise<void>((resolve, reject) => {
    req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/events",
        headers: { host: `127.0.0.1:${port}`, ...(lastId !== undefined ? { "last-event-id": String(lastId) } : {}) },
      },
      (res) => {
        resolve();
        res.on("data", (d: Buffer) => {
          buf += d.toString();
          let at;
          while ((at = buf.indexOf("\n\n")) >= 0) {
            const frame = buf.slice(0, at);
            buf = buf.slice(at + 2);
            const f = Object.fromEntries(frame.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]));
            if (f.id) events.push({ id: Number(f.id), type: f.event, data: JSON.parse(f.data) });
          }
        });
        res.on("error", () => undefined);
      },
    );
    req.on("error", reject);
    req.end();
  });
  return { events, close: () => req.destroy(), opened };
}

export const until = async (check: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A test file's end: the browser closed, the server stopped (Ctrl-C, as a user stops it), its folder removed. */
export async function stopServe(browser: { close(): Promise<void> } | undefined, served: Served | undefined, dir: string): Promise<void> {
  await browser?.close();
  if (served && served.proc.exitCode === null) {
    served.proc.kill("SIGINT");
    await served.exit;
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Debian's Chromium, headless, as every serve test drives it. */
export { launchChromium } from "./browser.ts";
