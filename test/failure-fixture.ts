/**
 * Boards and panorama folders for the failure-injection tests, made from the
 * mixed fixture (episodes that reproduce exactly, so only the injected fault
 * changes the outcome): two arms, base and ckpt, of the same seven episodes.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIXED } from "./helpers.ts";

/** The fixture's two episodes with a deliberately corrupted hash, left out. */
const DRIFTED = new Set(["0ec192c0f90d", "23b323a8f473"]);
/** An image kept only as `<id>.orig.jpg` (full resolution): its views are all zoomed in (fov <= 45). */
export const ORIG_ONLY = "1051700993720114";
/** The last episode's panorama (task 5): faults in it surface mid-run, after other episodes are done. */
export const LATE_PANO = "5277912792378049";
export const LATE_EPISODE = "4b86cb1e4dca";

export interface FailureBoard {
  board: string;
  /** The base arm's episodes file (for verify, frames and the plain page). */
  episodes: string;
  tasks: string;
  panos: string;
}

export function makeFailureBoard(dir: string): FailureBoard {
  const board = join(dir, "board");
  const eps = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .filter((e) => Array.isArray(e.turns) && !DRIFTED.has(e.episode_id));
  const tasks = new Map(
    readFileSync(join(MIXED, "tasks.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l))
      .map((t) => [t.task_index, t]),
  );
  for (const e of eps) {
    // Views of the orig-only image at fov > 45 would need its `.jpg`: drop those turns.
    e.turns = e.turns.filter((t: any) => {
      const c = t.camera_after;
      if (t.image_kind !== "view" || !c) return true;
      return tasks.get(e.task.index).frames[c.frame_index].image_id !== ORIG_ONLY || c.fov_deg <= 45;
    });
  }
  for (const arm of ["base", "ckpt"]) {
    mkdirSync(join(board, arm), { recursive: true });
    const rows = eps.map((e) => JSON.stringify({ ...e, model_name: arm, episode_id: arm === "base" ? e.episode_id : `${arm}-${e.episode_id}` }));
    writeFileSync(join(board, arm, "episodes.jsonl"), rows.join("\n") + "\n");
  }
  const panos = join(dir, "panos");
  mkdirSync(panos, { recursive: true });
  for (const f of readdirSync(join(MIXED, "panos"))) if (f !== `${ORIG_ONLY}.jpg`) copyFileSync(join(MIXED, "panos", f), join(panos, f));
  return { board, episodes: join(board, "base", "episodes.jsonl"), tasks: join(MIXED, "tasks.jsonl"), panos };
}

/** Cuts a JPEG in half: sharp reads its header, then finds it truncated while decoding. */
export function truncateJpeg(path: string): void {
  truncateSync(path, Math.floor(statSync(path).size / 2));
}
