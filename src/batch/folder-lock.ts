/**
 * One batch per folder. Two batches writing one folder would sweep each
 * other's work folders and overwrite each other's manifest, so a batch holds
 * `DIR/.georeplay-batch.lock` while it runs. The lock is created whole or not
 * at all (written beside it, then hard-linked into place, which fails if it
 * exists), says who holds it, and is removed when the run ends however it
 * ends. A lock left by a process that is gone (same host, no such pid) is
 * taken over; one from another host (a shared volume) cannot be checked, so
 * the message says how to remove it.
 */
import { hostname } from "node:os";
import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { tempPathFor } from "../../replay/io/atomic.ts";

export const LOCK_NAME = ".georeplay-batch.lock";

const HolderSchema = z.object({ pid: z.number().int().positive(), host: z.string(), started: z.string() });
type Holder = z.infer<typeof HolderSchema>;

/** True unless the pid certainly names no process on this host (EPERM: alive, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function readHolder(path: string): Holder | null {
  try {
    const parsed = HolderSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Takes the folder's lock or throws an input error naming its holder; returns the release. */
export function lockBatchFolder(dir: string): () => void {
  const path = join(dir, LOCK_NAME);
  const me: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const tmp = tempPathFor(path);
  writeFileSync(tmp, JSON.stringify(me) + "\n");
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, path);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      const holder = readHolder(path);
      const stale = holder !== null && holder.host === me.host && !alive(holder.pid);
      if (stale && attempt === 0) {
        rmSync(path, { force: true });
        continue;
      }
      const who = holder ? `process ${holder.pid} on ${holder.host}, since ${holder.started}` : "a process this one cannot identify";
      throw new GeoreplayError(
        `${dir}: another batch is writing this folder (${who}); one batch per folder: give this one another -o, ` +
          `or if that batch is no longer running, delete ${path}`,
      );
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  // process.exit (a second Ctrl-C) skips finally blocks; the exit hook still removes the lock.
  const release = () => {
    process.off("exit", release);
    const holder = readHolder(path);
    if (holder?.pid === me.pid && holder.host === me.host) rmSync(path, { force: true });
  };
  process.on("exit", release);
  return release;
}
