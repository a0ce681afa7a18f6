/** ffmpeg's life cycle (src/ffmpeg/process.ts) with a real ffmpeg: what a write keeps alive, and a death mid-write. */
import { describe, expect, it } from "vitest";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { startFfmpeg } from "../src/ffmpeg/process.ts";
import { resolveFfmpeg } from "../src/ffmpeg/find.ts";

const RAW_TO_NULL = ["-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "64x64", "-r", "30", "-i", "pipe:0", "-f", "null", "-"];

function collector(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (o?: { type: "major" }) => void;
  return () => gc({ type: "major" });
}
const turn = () => new Promise((r) => setImmediate(r));

describe("an ffmpeg process fed on stdin", () => {
  it("lets go of each written buffer once the pipe has taken it, while ffmpeg still runs (the painter writes a fresh 3.7 MB frame each time)", async () => {
    const gc = collector();
    const proc = startFfmpeg(resolveFfmpeg().path, RAW_TO_NULL, { stdin: true });
    const written: WeakRef<Uint8Array>[] = [];
    for (let i = 0; i < 24; i++) {
      const frame = new Uint8Array(64 * 64 * 4).fill(i);
      written.push(new WeakRef(frame));
      await proc.write(frame);
    }
    await turn();
    gc();
    await turn();
    const alive = written.filter((w) => w.deref() !== undefined).length;
    // A race against the exit used to keep every one of them until ffmpeg exited.
    expect(alive).toBeLessThanOrEqual(1);
    await proc.finish();
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
});
