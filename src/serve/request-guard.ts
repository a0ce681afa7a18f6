/**
 * What the server answers before it reads any file (pure): only GET and
 * HEAD; only a Host header naming the server itself (a page of another site
 * that rebinds its DNS name to 127.0.0.1 sends its own name: 403); only
 * paths inside the served folder, with no `..`, encoded or not, and no
 * backslash or NUL.
 */
import { posix } from "node:path";

export type Guard = { ok: true; rel: string } | { ok: false; status: 403 | 404 | 405; reason: string };

/**
 * The Host header values the server answers to, with its port: its bound host, localhost, 127.0.0.1
 * and [::1], and `others` (a server bound to every interface: this machine's names and addresses).
 */
export function allowedHosts(host: string, port: number, others: readonly string[] = []): Set<string> {
  const bracket = (h: string) => (h.includes(":") && !h.startsWith("[") ? `[${h}]` : h);
  const names = new Set(["localhost", "127.0.0.1", "[::1]", ...[host, ...others].map(bracket)]);
  return new Set([...names].map((n) => `${n}:${port}`.toLowerCase()));
}

/** The request's file, relative to the served folder ("" for the page itself), or why not. */
export function guardRequest(method: string | undefined, url: string | undefined, host: string | undefined, hosts: Set<string>): Guard {
  if (method !== "GET" && method !== "HEAD") return { ok: false, status: 405, reason: "read-only: GET and HEAD only" };
  if (!host || !hosts.has(host.toLowerCase())) return { ok: false, status: 403, reason: "unknown Host header" };
  const raw = (url ?? "/").split(/[?#]/)[0];
  if (!raw.startsWith("/") || raw.includes("\\")) return { ok: false, status: 403, reason: "bad path" };
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return { ok: false, status: 403, reason: "bad path encoding" };
  }
  if (path.includes("\\") || path.includes("\0") || path.split("/").some((seg) => seg === ".." || seg === "."))
    return { ok: false, status: 403, reason: "path outside the page" };
  const rel = posix.normalize(path).replace(/^\/+/, "");
  // Hidden files (the folder's mark, half-written .part files) are not the page's.
  if (rel.split("/").some((seg) => seg.startsWith(".")) || rel.endsWith(".part")) return { ok: false, status: 404, reason: "not found" };
  return { ok: true, rel };
}
