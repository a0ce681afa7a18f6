/**
 * Renders the in-between frame files on the engine's pool. On abort the
 * workers are stopped first, then the temp file any of them was writing is
 * removed, and the call rejects with the signal's reason.
 */
import { onAbort, throwIfAborted } from "../../../../replay/io/abort.ts";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import type { JobPool } from "../verify/pool.ts";
import type { RenderTask } from "../render/frame-file.ts";
import { sweepTemps } from "./output.ts";

export interface PendingRender {
  file: string;
  task: RenderTask;
  key: string;
}

export async function renderInBetween(
  pool: JobPool,
  items: PendingRender[],
  opts: { framesPath: string; where: string; signal?: AbortSignal; onDone: (item: PendingRender, sha: string) => void },
): Promise<void> {
  if (items.length === 0) return;
  throwIfAborted(opts.signal);
  const off = onAbort(opts.signal, async () => {
    await pool.close();
    sweepTemps(opts.framesPath);
  });
  try {
    let failed = false;
    await Promise.all(
      items.map((item) =>
        pool.run({ kind: "frame", task: item.task }).then(
          (r) => {
            if (r.kind !== "frame") throw new Error(`frame ${item.file}: the pool answered with a view check`);
            if (!failed) opts.onDone(item, r.sha256);
          },
          (e: Error) => {
            failed = true;
            // The first failure ends the run (a dead worker fails every task: its own error says so).
            throw e instanceof GeoreplayError ? e : new GeoreplayError(`${opts.where}: frame ${item.file}: ${e.message}`);
          },
        ),
      ),
    );
  } catch (e) {
    if (opts.signal?.aborted) {
      // Workers stopped before the sweep, so no temp file appears after it.
      await pool.close();
      sweepTemps(opts.framesPath);
      throwIfAborted(opts.signal);
    }
    throw e;
  } finally {
    off();
  }
}
