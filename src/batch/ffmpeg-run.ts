/**
 * Running ffmpeg for the batch's formats: the first ffmpeg that has the
 * encoder a format needs ($GEOREPLAY_FFMPEG, then the system's, then the one
 * render uses), killed when the signal aborts.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { abortError } from "../../replay/io/abort.ts";
import { resolveFfmpeg } from "../mp4/ffmpeg.ts";

const encodersOf = new Map<string, string>();

function encoders(path: string): string {
  let e = encodersOf.get(path);
  if (e === undefined) {
    try {
      e = execFileSync(path, ["-hide_banner", "-encoders"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      e = "";
    }
    encodersOf.set(path, e);
  }
  return e;
}

function candidates(): string[] {
  const out: string[] = [];
  if (process.env.GEOREPLAY_FFMPEG) out.push(process.env.GEOREPLAY_FFMPEG);
  for (const d of (process.env.PATH ?? "").split(delimiter)) if (d && existsSync(join(d, "ffmpeg"))) out.push(join(d, "ffmpeg"));
  try {
    out.push(resolveFfmpeg().path);
  } catch {
    /* none there */
  }
  return [...new Set(out)];
}

/** An ffmpeg with this encoder (`libvpx-vp9`, `libwebp_anim`, `gif`, `png`), or an error saying how to get one. */
export function ffmpegWith(encoder: string): string {
  const all = candidates();
  for (const p of all) if (new RegExp(`^\\s*V\\S*\\s+${encoder}\\s`, "m").test(encoders(p))) return p;
  throw new GeoreplayError(
    `no ffmpeg with the ${encoder} encoder (tried ${all.join(", ") || "none found"}); apt-get install ffmpeg, or set GEOREPLAY_FFMPEG to one that has it`,
  );
}

/** Runs ffmpeg to completion; rejects with its last lines of stderr, or the abort reason. */
export function runFfmpeg(path: string, args: string[], signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const child = spawn(path, ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err = (err + d.toString("utf8")).slice(-4000);
    });
    const onAbort = () => child.kill("SIGKILL");
    signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (e) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new GeoreplayError(`could not run ${path}: ${errorMessage(e)}`));
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) return reject(abortError(signal));
      if (code === 0) return resolve();
      reject(new GeoreplayError(`ffmpeg failed (exit ${code}): ${err.trim().split("\n").slice(-3).join(" / ")}`));
    });
  });
}
