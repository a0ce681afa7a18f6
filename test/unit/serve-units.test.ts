/**
 * The pure parts of `georeplay serve`: the incremental line reader (any
 * split of the bytes gives the same lines; a half line waits), the request
 * guard (methods, Host, traversal in every spelling), the event log's
 * cursor, and the live mark added to a page.
 */
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { LineReader } from "../../replay/io/line-reader.ts";
import { allowedHosts, guardRequest } from "../../src/serve/request-guard.ts";
import { EventLog } from "../../src/serve/event-log.ts";
import { markLive } from "../../src/serve/page-folder.ts";

describe("LineReader", () => {
  it("gives the same complete lines however the bytes are split, and holds a half line", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "\n", "é"), { maxLength: 60 }), fc.array(fc.nat(80), { maxLength: 8 }), (chars, cuts) => {
        const bytes = Buffer.from(chars.join(""));
        const at = [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b);
        const r = new LineReader();
        const got: string[] = [];
        let from = 0;
        for (const c of [...at, bytes.length]) {
          for (const l of r.push(bytes.subarray(from, c))) got.push(`${l.line}:${l.bytes.toString()}`);
          from = c;
        }
        const text = bytes.toString();
        const whole = text.split("\n").slice(0, -1);
        expect(got).toEqual(whole.map((l, i) => `${i + 1}:${l}`));
        expect(r.pendingBytes).toBe(Buffer.byteLength(text.slice(text.lastIndexOf("\n") + 1)));
      }),
    );
  });

  it("continues numbering after a reset to a line", () => {
    const r = new LineReader();
    r.reset(41);
    expect(r.push(Buffer.from("x\ny")).map((l) => l.line)).toEqual([42]);
    r.reset();
    expect(r.push(Buffer.from("z\n")).map((l) => [l.line, l.bytes.toString()])).toEqual([[1, "z"]]);
  });
});

describe("guardRequest", () => {
  const hosts = allowedHosts("127.0.0.1", 8765);
  const host = "127.0.0.1:8765";
  it("serves the page's own files to GET and HEAD from its own host", () => {
    expect(guardRequest("GET", "/", host, hosts)).toEqual({ ok: true, rel: "" });
    expect(guardRequest("HEAD", "/data/episodes-3.js?x=1", "localhost:8765", hosts)).toEqual({ ok: true, rel: "data/episodes-3.js" });
    expect(guardRequest("GET", "/views/ab%63.jpg", "[::1]:8765", hosts)).toEqual({ ok: true, rel: "views/abc.jpg" });
  });
  it("refuses other methods, foreign hosts and every spelling of a way out", () => {
    expect(guardRequest("POST", "/", host, hosts)).toMatchObject({ status: 405 });
    for (const h of [undefined, "evil.example:8765", "127.0.0.1:80", "127.0.0.1", "localhost.evil.example:8765"])
      expect(guardRequest("GET", "/", h, hosts)).toMatchObject({ ok: false, status: 403 });
    for (const url of [
      "/../x",
      "/a/../../x",
      "/%2e%2e/x",
      "/%2E%2e%2fx",
      "/..%2f..%2fetc/passwd",
      "/a%5c..%5cb",
      "/a\\b",
      "/%00",
      "/%zz",
      "x",
      "/./index.html",
    ])
      expect(guardRequest("GET", url, host, hosts).ok, url).toBe(false);
    expect(guardRequest("GET", "/.georeplay-page", host, hosts)).toMatchObject({ status: 404 });
    expect(guardRequest("GET", "/data/episodes-1.js.part", host, hosts)).toMatchObject({ status: 404 });
  });
});

describe("EventLog", () => {
  it("replays exactly the events after a cursor, from disk", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-eventlog-"));
    try {
      const log = new EventLog(dir);
      const live: number[] = [];
      const off = log.subscribe((e) => live.push(e.id));
      for (let i = 0; i < 5; i++) log.append(i % 2 ? "writer" : "episodes", JSON.stringify({ i }));
      off();
      log.append("episodes", "{}");
      expect(live).toEqual([1, 2, 3, 4, 5]);
      expect([...log.after(3)].map((e) => [e.id, e.type, e.data])).toEqual([
        [4, "writer", '{"i":3}'],
        [5, "episodes", '{"i":4}'],
        [6, "episodes", "{}"],
      ]);
      expect([...log.after(6)]).toEqual([]);
      expect([...log.after(-5)].length).toBe(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("markLive", () => {
  it("adds only connect-src 'self' to the policy, and the live mark", () => {
    const html = `<head><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; base-uri &#39;none&#39;">\n<title>x</title>`;
    const out = markLive(html);
    expect(out).toContain(`content="default-src &#39;none&#39;; base-uri &#39;none&#39;; connect-src &#39;self&#39;">`);
    expect(out).toContain('<meta name="georeplay-live" content="serve">');
    expect(markLive(html, 'a"><script>')).toContain('<meta name="georeplay-live" content="ascript">');
    expect(() => markLive("<head></head>")).toThrow();
  });
});

describe("the malloc arena cap of a long-running server or page build", () => {
  it("is asked for by serve and page, on glibc's platform, once", async () => {
    const { wantsArenaCap } = await import("../../src/commands/arena-cap.ts");
    expect(wantsArenaCap(["serve", "run.jsonl"], {}, "linux")).toBe(true);
    expect(wantsArenaCap(["--no-color", "serve", "run.jsonl"], {}, "linux")).toBe(true);
    // Already capped (the child itself, or a user's own setting), --once (a page build), other commands, other systems.
    expect(wantsArenaCap(["serve", "run.jsonl"], { MALLOC_ARENA_MAX: "2" }, "linux")).toBe(false);
    expect(wantsArenaCap(["serve", "run.jsonl", "--once", "-o", "x/"], {}, "linux")).toBe(false);
    expect(wantsArenaCap(["page", "board/", "--baseline", "base", "-o", "out/"], {}, "linux")).toBe(true);
    expect(wantsArenaCap(["page", "run.jsonl"], { MALLOC_ARENA_MAX: "2" }, "linux")).toBe(false);
    expect(wantsArenaCap(["verify", "run.jsonl"], {}, "linux")).toBe(false);
    expect(wantsArenaCap(["page", "run.jsonl"], {}, "darwin")).toBe(false);
    expect(wantsArenaCap(["serve", "run.jsonl"], {}, "darwin")).toBe(false);
  });

  it("runs a page build's child with a fixed mmap threshold and a smaller heap growth step; the user's own settings win", async () => {
    const { cappedLaunch } = await import("../../src/commands/arena-cap.ts");
    const page = cappedLaunch("cli.js", ["page", "board/", "-o", "out/"], ["--enable-source-maps"], { PATH: "/bin" });
    expect(page.argv).toEqual(["--heap-growing-percent=25", "--enable-source-maps", "cli.js", "page", "board/", "-o", "out/"]);
    expect(page.env).toEqual({ PATH: "/bin", MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" });
    const own = cappedLaunch("cli.js", ["page", "b/"], ["--heap-growing-percent=50"], { MALLOC_MMAP_THRESHOLD_: "65536" });
    expect(own.argv).toEqual(["--heap-growing-percent=50", "cli.js", "page", "b/"]);
    expect(own.env).toEqual({ MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "65536" });
    // serve keeps what it measured with (the arenas capped, nothing else).
    const serve = cappedLaunch("cli.js", ["serve", "run.jsonl"], [], {});
    expect(serve.argv).toEqual(["cli.js", "serve", "run.jsonl"]);
    expect(serve.env).toEqual({ MALLOC_ARENA_MAX: "2" });
  });
});

describe("the live episodes' player files", () => {
  it("are made only for data/player-<n>.js of a number the server gave, once whoever asks", async () => {
    const { LivePlayers } = await import("../../envs/geoguesser/src/serve/live-players.ts");
    const dir = mkdtempSync(join(tmpdir(), "georeplay-live-players-"));
    try {
      mkdirSync(join(dir, "data"));
      const players = new LivePlayers({ root: dir, scratch: join(dir, "scratch"), inputs: [], pool: undefined });
      expect(players.file("data/player-0.js")).toBeNull();
      const ref = { input: { file: join(dir, "run.jsonl"), format: "eval" as const }, copy: join(dir, "gone.jsonl"), line: 1, id: "e" };
      expect(players.add(ref)).toBe(0);
      for (const rel of [
        "data/player-1.js",
        "data/player-00x.js",
        "data/player-00.js",
        "data/player-0.js.part",
        "data/episodes-0.js",
        "views/player-0.js",
        "player-0.js",
      ])
        expect(players.file(rel)).toBeNull();
      const made = players.file("data/player-0.js");
      expect(players.file("data/player-0.js")).toBe(made);
      await made;
      // Its copy is gone: the file says why the episode cannot play (the player shows it), and is never planned again.
      const text = readFileSync(join(dir, "data", "player-0.js"), "utf8");
      expect(text).toBe(`georeplayData("player",0,{"error":"episode e: the server's copy of its line is gone"});\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
