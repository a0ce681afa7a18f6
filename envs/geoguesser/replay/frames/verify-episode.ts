/**
 * Step 2 of a replay: every view the model saw, re-rendered at the size it
 * saw it with the record's digest scheme, by the engine's one view verifier
 * (the same checker and pool as `verify`). Problems and drift become errors
 * here, before any frame file is written.
 */
import { GeoreplayError, problemsByTurn } from "../../../../replay/io/errors.ts";
import type { HashScheme } from "../../../../replay/render/hash.ts";
import type { Episode } from "../schema/episode.ts";
import type { TaskRow } from "../schema/task.ts";
import type { JobPool } from "../verify/pool.ts";
import type { ViewOutcome } from "../verify/job-runner.ts";
import { createViewChecker } from "../verify/view-checker.ts";
import { viewJobs } from "../verify/view-jobs.ts";

export interface EpisodeViews {
  /** Outcome per turn (with our render's JPEG). */
  outcomes: Map<number, ViewOutcome>;
  /** Turns whose render differs from the recorded digest, by turn. */
  drifted: ViewOutcome[];
}

export async function verifyEpisodeViews(
  episode: Episode,
  row: TaskRow,
  opts: { pool: JobPool; panos: string; viewSize: number; scheme: HashScheme; unverified: boolean; where: string },
): Promise<EpisodeViews> {
  const { where, scheme } = opts;
  const vj = viewJobs(episode, row, opts.panos, opts.viewSize, scheme);
  if (vj.problems.length) throw new GeoreplayError(vj.problems.map((p) => `${where}: ${p.message}`).join("\n"));
  const checked = await createViewChecker(opts.pool, true).check(vj.jobs);
  const outcomes = new Map<number, ViewOutcome>();
  for (const o of checked) outcomes.set(o.turn, o);
  const errors = [...outcomes.values()].filter((o) => o.status === "error");
  if (errors.length) {
    const lines = problemsByTurn(errors.map((o) => ({ turn: o.turn, message: o.error ?? "the view could not be rendered" })));
    throw new GeoreplayError(lines.map((l) => `${where}: ${l}`).join("\n"));
  }
  const drifted = [...outcomes.values()].filter((o) => o.status === "mismatch").sort((a, b) => a.turn - b.turn);
  if (drifted.length && !opts.unverified) {
    const what = scheme === "sha256" ? "hash" : "digest (16 hex digits of sha256 over the base64 text)";
    const lines = drifted.map((o) => {
      const c = vj.jobs.find((j) => j.turn === o.turn)!.camera;
      return `  turn ${o.turn}: camera heading ${c.heading_deg} pitch ${c.pitch_deg} fov ${c.fov_deg} frame ${c.frame_index} · recorded ${o.recorded.slice(0, 12)}… rendered ${(o.rendered ?? "").slice(0, 12)}…`;
    });
    throw new GeoreplayError(
      `${where}: ${drifted.length} view(s) drifted from the recorded ${what}; refusing to film views the model never saw (--unverified renders anyway, marked unverified):\n${lines.join("\n")}`,
      "drift",
    );
  }
  return { outcomes, drifted };
}
