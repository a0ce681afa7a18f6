/**
 * Finding ffmpeg and ffprobe, one rule for every caller: `$GEOREPLAY_FFMPEG` (and `$GEOREPLAY_FFPROBE`), else
 * ffmpeg-static's binary where its install script managed to download one
 * (an optional dependency: usually absent offline), else `ffmpeg` on PATH
 * (Debian's, which scripts/setup.sh installs). Remotion's bundled ffmpeg is
 * never used: it has no rawvideo demuxer and is Remotion-licensed.
 */
import { createRequire } from "node:module";
import { existsSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { execFileSync } from "node:child_process";
import { GeoreplayError } from "../../replay/io/errors.ts";

const require = createRequire(import.meta.url);

export const FFMPEG_ENV = "GEOREPLAY_FFMPEG";
export const FFPROBE_ENV = "GEOREPLAY_FFPROBE";
const INSTALL = "install it with: apt-get install ffmpeg (Debian/Ubuntu), or set $GEOREPLAY_FFMPEG to an ffmpeg with libx264";

export interface Tool {
  path: string;
  source: "env" | "ffmpeg-static" | "system";
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function fromFfmpegStatic(): string | null {
  try {
    const p = require("ffmpeg-static") as string | null;
    return p && existsSync(p) ? p : null;
  } catch {
    return null; // not installed (its download fails offline)
  }
}

function fromPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const d of (env.PATH ?? "").split(delimiter)) {
    if (!d) continue;
    const p = join(d, name);
    if (isFile(p)) return p;
  }
  return null;
}

function fromEnv(name: string, env: NodeJS.ProcessEnv): string | null {
  const v = env[name];
  if (v === undefined || v === "") return null;
  if (!isFile(v)) throw new GeoreplayError(`$${name}=${v}: no such file; point it at an ffmpeg binary, or unset it to use ffmpeg on PATH`);
  return v;
}

export function resolveFfmpeg(env: NodeJS.ProcessEnv = process.env): Tool {
  const e = fromEnv(FFMPEG_ENV, env);
  if (e) return { path: e, source: "env" };
  const s = fromFfmpegStatic();
  if (s) return { path: s, source: "ffmpeg-static" };
  const p = fromPath("ffmpeg", env);
  if (p) return { path: p, source: "system" };
  throw new GeoreplayError(`no ffmpeg found ($${FFMPEG_ENV}, ffmpeg-static, PATH); ${INSTALL}`);
}

/** ffprobe: $GEOREPLAY_FFPROBE, else beside the ffmpeg in use, else on PATH. */
export function resolveFfprobe(env: NodeJS.ProcessEnv = process.env): Tool {
  const e = fromEnv(FFPROBE_ENV, env);
  if (e) return { path: e, source: "env" };
  try {
    const ff = resolveFfmpeg(env);
    const beside = join(dirname(ff.path), "ffprobe");
    if (isFile(beside)) return { path: beside, source: ff.source };
  } catch {
    /* fall through to PATH */
  }
  const p = fromPath("ffprobe", env);
  if (p) return { path: p, source: "system" };
  throw new GeoreplayError(`no ffprobe found ($${FFPROBE_ENV}, beside ffmpeg, PATH); ${INSTALL}`);
}

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

/**
 * An ffmpeg with this encoder (`libvpx-vp9`, `libwebp_anim`, `gif`, `png`): the one resolveFfmpeg
 * picks when it has it, else the first on PATH that does (an ffmpeg-static build may lack one).
 */
export function ffmpegWith(encoder: string, env: NodeJS.ProcessEnv = process.env): string {
  const tried: string[] = [];
  try {
    tried.push(resolveFfmpeg(env).path);
  } catch {
    /* none of the usual ones: PATH below may still have one */
  }
  for (const d of (env.PATH ?? "").split(delimiter)) if (d && isFile(join(d, "ffmpeg"))) tried.push(join(d, "ffmpeg"));
  const all = [...new Set(tried)];
  for (const p of all) if (new RegExp(`^\\s*V\\S*\\s+${encoder}\\s`, "m").test(encoders(p))) return p;
  throw new GeoreplayError(`no ffmpeg with the ${encoder} encoder (tried ${all.join(", ") || "none found"}); ${INSTALL}`);
}
