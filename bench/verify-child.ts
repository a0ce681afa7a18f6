/**
 * `verifyRun` as a whole process, printing the report's counts and the
 * number of distinct views rendered (repeats are rendered once per run) as
 * JSON: what the bench runs under /usr/bin/time -v when it needs that count,
 * which the CLI's report does not carry.
 *
 *   node dist/bench/verify-child.js --tasks T --panos P INPUT...
 */
import { parseArgs } from "node:util";
import { verifyRun } from "../envs/geoguesser/replay/verify/verify.ts";

const { values, positionals } = parseArgs({
  options: { tasks: { type: "string" }, panos: { type: "string" }, jobs: { type: "string" } },
  allowPositionals: true,
});
let rendered = 0;
const r = await verifyRun({
  episodes: positionals,
  tasks: values.tasks,
  panos: values.panos,
  jobs: values.jobs ? Number(values.jobs) : undefined,
  onStats: (s) => (rendered = s.rendered),
});
console.log(
  JSON.stringify({ episodes: r.episodes, checked: r.checked, match: r.match, mismatch: r.mismatch, resolved: r.resolved, errors: r.errors.length, rendered }),
);
