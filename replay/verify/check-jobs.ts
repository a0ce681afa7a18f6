/** Runs render jobs against a panorama store: shared by the worker threads and the in-thread fallback. */
import { PanoError, PanoStore, type Pano } from "../panos/store.ts";
import { checkView } from "../render/view.ts";
import type { ViewJob } from "./view-jobs.ts";

export interface ViewOutcome {
  turn: number;
  status: "match" | "resolved" | "mismatch" | "error";
  recorded: string;
  rendered: string | null;
  /** Distinct candidate renders the boundary search encoded (0 when the plain render decided). */
  candidates?: number;
  /** The rendered JPEG (the exact bytes the model saw when match/resolved), when asked for. */
  jpeg?: Buffer;
  error?: string;
}

export async function runJobs(
  panos: PanoStore | ((path: string) => Promise<Pano>),
  jobs: ViewJob[],
  keepImages: boolean,
): Promise<ViewOutcome[]> {
  const getPano = panos instanceof PanoStore ? (p: string) => panos.get(p) : panos;
  const out: ViewOutcome[] = [];
  for (const job of jobs) {
    try {
      const pano = await getPano(job.path);
      const r = await checkView(pano, job.view, job.expected, job.scheme);
      out.push({
        turn: job.turn,
        status: r.status,
        recorded: job.expected,
        rendered: r.digest,
        candidates: r.status === "match" ? 0 : r.candidates,
        ...(keepImages ? { jpeg: r.jpeg } : {}),
      });
    } catch (e) {
      const message = e instanceof PanoError ? e.message : `turn ${job.turn}: ${(e as Error).message}`;
      out.push({ turn: job.turn, status: "error", recorded: job.expected, rendered: null, error: message });
    }
  }
  return out;
}
