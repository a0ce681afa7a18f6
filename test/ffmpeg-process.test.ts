/** ffmpeg's life cycle (src/ffmpeg/process.ts) with a real ffmpeg: what a write keeps alive, and a death mid-write. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startFfmpeg } from "../src/ffmpeg/process.ts";
import { ENCODER_MALLOC, encoderEnv } from "../src/ffmpeg/encoder-env.ts";
import { readFileSync } from "node:fs";
import { resolveFfmpeg } from "../src/ffmpeg/find.ts";
import { ROOT } from "./helpers.ts";

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
    const environOf = async (): Promise<string[]> => {
      const proc = startFfmpeg(resolveFfmpeg().path, RAW_TO_NULL, { stdin: true });
      try {
        return readFileSync(`/proc/${proc.pid}/environ`, "utf8").split("\0");
      } finally {
        await proc.write(new Uint8Array(64 * 64 * 4));
        await proc.finish();
      }
    };
    const had = process.env.GLIBC_TUNABLES;
    try {
      delete process.env.GLIBC_TUNABLES;
      expect(await environOf()).toContain(`GLIBC_TUNABLES=${ENCODER_MALLOC}`);
      process.env.GLIBC_TUNABLES = "";
      const given = await environOf();
      expect(given).toContain("GLIBC_TUNABLES=");
      expect(given).not.toContain(`GLIBC_TUNABLES=${ENCODER_MALLOC}`);
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
