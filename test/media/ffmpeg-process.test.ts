/** ffmpeg's life cycle (src/ffmpeg/process.ts) with a real ffmpeg: what a write keeps alive, and a death mid-write. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startFfmpeg } from "../../src/ffmpeg/process.ts";
import { ENCODER_MALLOC, encoderEnv } from "../../src/ffmpeg/encoder-env.ts";
import { readFileSync } from "node:fs";
import { resolveFfmpeg } from "../../src/ffmpeg/find.ts";
import { ROOT } from "../helpers.ts";

const RAW_TO_NULL = ["-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "64x64", "-r", "30", "-i", "pipe:0", "-f", "null", "-"];

describe("an ffmpeg process fed on stdin", () => {
  it("lets go of each written buffer once the pipe has taken it, while ffmpeg still runs (the painter writes a fresh 3.7 MB frame each time)", () => {
    // In a process of its own (the compiled module, --expose-gc): what the test runner holds cannot blur it.
    const dir = mkdtempSync(join(tmpdir(), "georeplay-ffproc-"));
    try {
      const script = join(dir, "writes.mjs");
      writeFileSync(
        script,
        `
        const { startFfmpeg } = await import(${JSON.stringify(pathToFileURL(join(ROOT, "dist/src/ffmpeg/process.js")).href)});
        const proc = startFfmpeg(${JSON.stringify(resolveFfmpeg().path)}, ${JSON.stringify(RAW_TO_NULL)}, { stdin: true });
        const written = [];
        for (let i = 0; i < 24; i++) {
          const frame = new Uint8Array(64 * 64 * 4).fill(i);
          written.push(new WeakRef(frame));
          await proc.write(frame);
        }
        for (let k = 0; k < 3; k++) { await new Promise((r) => setImmediate(r)); gc(); }
        console.log(written.filter((w) => w.deref() !== undefined).length);
        await proc.finish();
      `,
      );
      const r = spawnSync(process.execPath, ["--expose-gc", script], { encoding: "utf8", timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      // A race against the exit used to keep every one of them (24) until ffmpeg exited.
      expect(Number(r.stdout.trim())).toBeLessThanOrEqual(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a write to an ffmpeg that has been killed rejects, naming how it ended", async () => {
    const proc = startFfmpeg(resolveFfmpeg().path, RAW_TO_NULL, { stdin: true });
    await proc.write(new Uint8Array(64 * 64 * 4));
    process.kill(proc.pid!, "SIGKILL");
    const big = new Uint8Array(64 * 64 * 4 * 64); // more than the pipe holds
    await expect(
      (async () => {
        for (let i = 0; i < 50; i++) await proc.write(big);
      })(),
    ).rejects.toThrow(/ffmpeg \(.*\) was killed \(SIGKILL\)/);
  });

  it("runs ffmpeg with glibc told to keep the memory it frees, unless the user set GLIBC_TUNABLES (empty: glibc's defaults)", async () => {
    // What the running ffmpeg was really given, read from the kernel.
    // What the running ffmpeg was given, read from the kernel: its GLIBC_TUNABLES entry. Until its
    // exec is done the child shows this process's environment (read until the entry shows, up to
    // 2 s); and glibc (2.36) parses the variable in place as it starts, so a read after that shows
    // the string cut after its first tunable: "...mmap_threshold=33554432" (seen 1 run in ~5).
    const tunablesOf = async (): Promise<string | undefined> => {
      const proc = startFfmpeg(resolveFfmpeg().path, RAW_TO_NULL, { stdin: true });
      try {
        const entry = () =>
          readFileSync(`/proc/${proc.pid}/environ`, "utf8")
            .split("\0")
            .find((e) => e.startsWith("GLIBC_TUNABLES="));
        let got = entry();
        for (let i = 0; i < 200 && got === undefined; i++) {
          await new Promise((r) => setTimeout(r, 10));
          got = entry();
        }
        return got;
      } finally {
        await proc.write(new Uint8Array(64 * 64 * 4));
        await proc.finish();
      }
    };
    const ours = `GLIBC_TUNABLES=${ENCODER_MALLOC}`;
    const had = process.env.GLIBC_TUNABLES;
    try {
      delete process.env.GLIBC_TUNABLES;
      expect([ours, ours.slice(0, ours.indexOf(":"))]).toContain(await tunablesOf());
      process.env.GLIBC_TUNABLES = "";
      expect(await tunablesOf()).toBe("GLIBC_TUNABLES=");
    } finally {
      if (had === undefined) delete process.env.GLIBC_TUNABLES;
      else process.env.GLIBC_TUNABLES = had;
    }
    // The rest of the environment goes through untouched, and the caller's object is not changed.
    const env = { PATH: "/usr/bin", LANG: "C.UTF-8" };
    expect(encoderEnv(env)).toEqual({ ...env, GLIBC_TUNABLES: ENCODER_MALLOC });
    expect(env).toEqual({ PATH: "/usr/bin", LANG: "C.UTF-8" });
    expect(encoderEnv({ ...env, GLIBC_TUNABLES: "glibc.malloc.arena_max=1" }).GLIBC_TUNABLES).toBe("glibc.malloc.arena_max=1");
  });
});
