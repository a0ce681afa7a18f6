/**
 * One ffmpeg process's life cycle, for every caller: spawn, keep the tail of
 * stderr, feed stdin with back-pressure, wait for the exit, and kill on abort.
 * A failure always says which ffmpeg, how it ended and its last lines.
 */
import { spawn } from "node:child_process";
import { GeoreplayError, abortError } from "../../replay/io/errors.ts";
import { encoderEnv } from "./encoder-env.ts";

export interface FfmpegProcess {
  /** The process id (undefined when it could not be started). */
  readonly pid: number | undefined;
  /** Hands bytes to stdin; resolves once the pipe has taken them (the caller may reuse the buffer). */
  write(bytes: Uint8Array): Promise<void>;
  /** Closes stdin (if any) and waits: resolves on exit 0, else rejects with the failure. */
  finish(): Promise<void>;
  /** Kills ffmpeg (SIGKILL) and resolves once it is gone; idempotent. */
  kill(): Promise<void>;
}

export interface FfmpegStart {
  /** Frames or images go in on stdin; without it stdin is closed. */
  stdin?: boolean;
  /** Aborting kills ffmpeg; finish() then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Starts `path args` (in encoderEnv's environment); every failure becomes a GeoreplayError naming the binary, the exit and stderr's last lines. */
export function startFfmpeg(path: string, args: string[], o: FfmpegStart = {}): FfmpegProcess {
  const child = spawn(path, args, { stdio: [o.stdin ? "pipe" : "ignore", "ignore", "pipe"], env: encoderEnv() });
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => {
    stderr = (stderr + b.toString("utf8")).slice(-8000);
  });
  let spawnError: Error | null = null;
  let how = "";
  const exited = new Promise<number | null>((resolve) => {
    child.on("error", (e) => {
      spawnError = e;
      resolve(null);
    });
    child.on("close", (code, signal) => {
      how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      resolve(code);
    });
  });
  // Writes in flight, woken when ffmpeg exits before taking their bytes.
  const pendingWrites = new Set<() => void>();
  void exited.then(() => pendingWrites.forEach((wake) => wake()));
  // EPIPE when ffmpeg dies first: its exit status and stderr say why.
  child.stdin?.on("error", () => undefined);
  const onAbort = () => child.kill("SIGKILL");
  o.signal?.addEventListener("abort", onAbort, { once: true });
  void exited.then(() => o.signal?.removeEventListener("abort", onAbort));
  let killed = false;
  const failure = async (): Promise<Error> => {
    await exited;
    if (o.signal?.aborted) return abortError(o.signal);
    if (spawnError) return new GeoreplayError(`could not run ${path}: ${(spawnError as Error).message}`);
    if (killed) return new GeoreplayError(`ffmpeg (${path}) was stopped`);
    return new GeoreplayError(`ffmpeg (${path}) ${how}: ${stderr.trim().split("\n").slice(-3).join(" / ") || "no message"}`);
  };
  return {
    pid: child.pid,
    async write(bytes) {
      if (!child.stdin) throw new GeoreplayError("ffmpeg was started without stdin");
      if (killed) throw new GeoreplayError(`ffmpeg (${path}) was stopped`);
      if (child.exitCode !== null || child.signalCode !== null || spawnError) throw await failure();
      // Not Promise.race with `exited`: every race left a reaction on `exited` that kept the
      // written bytes alive until ffmpeg exited (measured: 1.5 GB of frames held in one render).
      const r = await new Promise<Error | null | undefined | "exit">((resolve) => {
        const onExit = () => resolve("exit");
        pendingWrites.add(onExit);
        child.stdin!.write(bytes, (e) => (pendingWrites.delete(onExit), resolve(e)));
      });
      if (r === "exit" || r) throw await failure();
    },
    async finish() {
      child.stdin?.end();
      const code = await exited;
      if (code !== 0 || spawnError || o.signal?.aborted) throw await failure();
    },
    async kill() {
      killed = true;
      if (child.exitCode === null && child.signalCode === null && !spawnError) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** Runs ffmpeg with no input to completion (quiet, overwriting): transcodes, posters. */
export function runFfmpeg(path: string, args: string[], signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return startFfmpeg(path, ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...args], { signal }).finish();
}
