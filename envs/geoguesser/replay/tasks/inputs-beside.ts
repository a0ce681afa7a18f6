/**
 * `--tasks` and `--panos` when they are not given: a recorded run is laid out with its task index
 * and panoramas beside it (run/episodes.jsonl, run/tasks.jsonl, run/panos/), or one folder up
 * (board/<arm>/episodes.jsonl, board/tasks/, board/panos/). The first input's folder is looked in,
 * then its parent; a flag that is given is never replaced. Nothing is guessed from trace contents.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

export interface GeoInputs {
  tasks?: string;
  panos?: string;
}

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();
const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile();

/** The folders a run's inputs are looked for in: the first input's own folder, then its parent. */
function foldersOf(inputs: readonly string[]): string[] {
  if (!inputs.length || !existsSync(inputs[0])) return [];
  // Relative stays relative: a path the run's outputs name is the same as if it had been typed.
  const own = isDir(inputs[0]) ? inputs[0] : dirname(inputs[0]);
  return [own, join(own, "..")];
}

/** What is found beside the run for the flags not given (`found` names the flags filled). */
export function inputsBeside(inputs: readonly string[], given: GeoInputs): GeoInputs & { found: ("tasks" | "panos")[] } {
  const out: GeoInputs & { found: ("tasks" | "panos")[] } = { tasks: given.tasks, panos: given.panos, found: [] };
  for (const dir of foldersOf(inputs)) {
    if (!out.tasks) {
      const t = [join(dir, "tasks.jsonl"), join(dir, "tasks")].find((p) => (p.endsWith(".jsonl") ? isFile(p) : isDir(p)));
      // A task index and panoramas are taken from one folder together, never mixed across two.
      if (t && (out.panos || isDir(join(dir, "panos")))) {
        out.tasks = t;
        out.found.push("tasks");
      }
    }
    if (!out.panos && out.tasks && isDir(join(dir, "panos"))) {
      out.panos = join(dir, "panos");
      out.found.push("panos");
    }
    if (out.tasks && out.panos) break;
  }
  return out;
}
