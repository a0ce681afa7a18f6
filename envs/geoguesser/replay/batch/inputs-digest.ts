/**
 * What a batch video is made from, and one digest over it, for resuming:
 * - each side's episode record: file, line and the sha256 of its validated content (exact);
 * - the task index file(s) and the panorama file of every task frame the video shows (`<id>.jpg`, `<id>.orig.jpg`):
 *   size and mtime (cheap; a panorama rewritten in place with the same size and mtime would be missed);
 * - example-rollout images: size and mtime.
 * The digest is sha256 over this list as canonical JSON.
 */
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { TaskIndex } from "../tasks/task-index.ts";
import { checkImageId } from "../panos/store.ts";
import { statOf, type PlannedVideo } from "./plan.ts";
import type { ManifestInput } from "../../../../replay/batch/manifest-schema.ts";

function fileInput(role: ManifestInput["role"], path: string): ManifestInput {
  const s = statOf(path);
  return { role, path, line: null, bytes: s?.bytes ?? null, mtime_ms: s?.mtime_ms ?? null, sha256: null };
}

function taskFiles(tasks: string): string[] {
  try {
    if (statSync(tasks).isFile()) return [tasks];
    return readdirSync(tasks)
      .filter((n) => n.endsWith(".jsonl"))
      .sort()
      .map((n) => join(tasks, n));
  } catch {
    return [tasks];
  }
}

export async function videoInputs(
  v: PlannedVideo,
  opts: { tasks?: string; panos?: string; index?: TaskIndex },
): Promise<{ digest: string; files: ManifestInput[] }> {
  const files: ManifestInput[] = [];
  v.sides.forEach((s, i) => files.push({ role: "record", path: s.file, line: s.line, bytes: null, mtime_ms: null, sha256: v.plans[i].recordSha }));
  for (const p of v.plans) for (const im of p.images) files.push(fileInput("image", im));
  const replays = v.plans.some((p) => p.format !== "example");
  if (replays && opts.tasks) {
    for (const f of taskFiles(opts.tasks)) files.push(fileInput("tasks", f));
    if (opts.panos) {
      const index = opts.index ?? TaskIndex.open(opts.tasks);
      const ids = new Set<string>();
      for (const [i, s] of v.sides.entries()) {
        try {
          const { row } = await index.lookup(s.split, s.index);
          for (const fi of v.plans[i].frameIndexes) if (row.frames[fi]) ids.add(row.frames[fi].image_id);
        } catch {
          /* the render reports a missing task row; the digest just lacks its panoramas */
        }
      }
      for (const id of [...ids].sort()) {
        try {
          checkImageId(id);
        } catch {
          continue; // never a path: the render reports it
        }
        files.push(fileInput("panorama", join(opts.panos, `${id}.jpg`)));
        const orig = fileInput("panorama", join(opts.panos, `${id}.orig.jpg`));
        if (orig.bytes !== null) files.push(orig);
      }
    }
  }
  const digest = createHash("sha256").update(JSON.stringify(files)).digest("hex");
  return { digest, files };
}
