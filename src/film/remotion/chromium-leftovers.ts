/**
 * Chromium keeps a singleton folder in the temp dir (org.chromium.Chromium.*:
 * SingletonCookie and SingletonSocket). Remotion stops the browser with
 * SIGKILL, so Chromium often cannot remove it. A folder whose socket no
 * process listens on any more belongs to a browser that is gone, whoever
 * started it: removing it is safe. Only folders made since `sinceMs`.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function socketIsDead(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (dead: boolean) => {
      s.destroy();
      resolve(dead);
    };
    s.once("connect", () => done(false));
    s.once("error", (e: NodeJS.ErrnoException) => done(e.code === "ECONNREFUSED" || e.code === "ENOENT"));
    s.setTimeout(1000, () => done(false));
  });
}

export async function removeDeadChromiumSingletons(sinceMs: number, dir: string = tmpdir()): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith("org.chromium.Chromium."));
  } catch {
    return;
  }
  for (const n of names) {
    const p = join(dir, n);
    try {
      if (statSync(p).mtimeMs < sinceMs) continue;
      const entries = readdirSync(p);
      if (!entries.every((e) => e.startsWith("Singleton"))) continue;
      if (entries.includes("SingletonSocket") && !(await socketIsDead(join(p, "SingletonSocket")))) continue;
      rmSync(p, { recursive: true, force: true });
    } catch {
      /* gone already, or not ours to read */
    }
  }
}
