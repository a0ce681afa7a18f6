/**
 * `georeplay serve` under a training step's appends (issue 41): a writer
 * appends fixture episodes (new ids) to a served run at --rate episodes a
 * second for --seconds, while a raw event-stream client follows /events, as
 * a page does. Reported side by side with the writer: episodes written and
 * delivered each 5 s, the backlog, how long after the last write the last
 * episode arrived, the server's CPU (its whole process tree, from
 * /proc/<pid>/stat) and its resident memory (the tree's, at 10 s, its peak
 * and at the end; the goal is flat: end within 20% of 10 s).
 *
 *   node dist/bench/serve.js [--rate 128] [--seconds 60] [--profile DIR]
 *
 * Goals (issue 41): 128 episodes/s kept up with on 2 cores; memory flat over an hour's appends.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MIXED, ROOT, fmt, loadavg } from "./common.ts";

const { values } = parseArgs({
  options: { rate: { type: "string", default: "128" }, seconds: { type: "string", default: "60" }, profile: { type: "string" } },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const TICK_MS = 125;

const LINES = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim());
const episodeLine = (n: number, id: string) => JSON.stringify({ ...JSON.parse(LINES[n % LINES.length]), episode_id: id }) + "\n";

/** The pids of a process and its descendants (Linux). */
function tree(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    /* gone */
  }
  return [pid, ...kids.flatMap(tree)];
}
const rssMb = (pid: number) => tree(pid).reduce((n, p) => n + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0), 0) / 1024;
/** CPU seconds (user + system) of the tree so far. */
const cpuS = (pid: number) =>
  tree(pid).reduce((n, p) => {
    const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
    return n + (Number(f[11]) + Number(f[12])) / 100;
  }, 0);

const dir = mkdtempSync(join(tmpdir(), "georeplay-bench-serve-"));
const run = join(dir, "rollouts.jsonl");
writeFileSync(run, LINES.slice(0, 3).join("\n") + "\n");
mkdirSync(join(dir, "tmp"));
const server = spawn(
  process.execPath,
  [
    // --profile DIR: CPU profiles of the server's processes (and the re-run under the arena cap) into DIR.
    ...(values.profile ? ["--cpu-prof", `--cpu-prof-dir=${values.profile}`] : []),
    join(ROOT, "dist", "src", "cli.js"),
    "serve",
    run,
    "--tasks",
    join(MIXED, "tasks.jsonl"),
    "--panos",
    join(MIXED, "panos"),
    "--no-progress",
    "--port",
    "0",
    "--idle",
    "3600",
  ],
  { env: { ...process.env, TMPDIR: join(dir, "tmp") }, stdio: ["ignore", "ignore", "pipe"] },
);
let err = "";
server.stderr!.on("data", (d: Buffer) => (err += d.toString()));
try {
  const port = await new Promise<number>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /georeplay serve: http:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) {
        clearInterval(t);
        resolve(Number(m[1]));
      }
    }, 100);
    server.on("exit", (code) => reject(new Error(`serve exited ${code}:\n${err}`)));
  });
  let delivered = 0;
  let lastAt = 0;
  let buf = "";
  const req = request({ host: "127.0.0.1", port, path: "/events", headers: { host: `127.0.0.1:${port}` } }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (d: string) => {
      buf += d;
      for (let at = buf.indexOf("\n\n"); at !== -1; at = buf.indexOf("\n\n")) {
        const frame = buf.slice(0, at);
        buf = buf.slice(at + 2);
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (/^event: episodes$/m.test(frame) && data) {
          const n = (JSON.parse(data) as { rows: unknown[] }).rows.length;
          if (n) lastAt = Date.now();
          delivered += n;
        }
      }
    });
  });
  req.on("error", () => undefined);
  req.end();

  const total = RATE * SECONDS;
  const perTick = (RATE * TICK_MS) / 1000;
  const cpu0 = cpuS(server.pid!);
  const start = Date.now();
  let written = 0;
  let rssAt10: number | null = null;
  let peak = 0;
  let maxBacklog = 0;
  let nextReport = 5000;
  console.log(`serve: ${RATE} episodes/s for ${SECONDS} s (fixture lines, new ids), a raw /events client following`);
  while (written < total) {
    const due = Math.min(total, Math.floor(((Date.now() - start) / TICK_MS + 1) * perTick));
    let text = "";
    for (; written < due; written++) text += episodeLine(written, `bench-${written}`);
    if (text) appendFileSync(run, text);
    const t = Date.now() - start;
    const rss = rssMb(server.pid!);
    peak = Math.max(peak, rss);
    maxBacklog = Math.max(maxBacklog, written - delivered);
    if (rssAt10 === null && t >= 10_000) rssAt10 = rss;
    if (t >= nextReport) {
      console.log(`  t=${fmt(t / 1000, 0)} s  written ${written}  delivered ${delivered}  backlog ${written - delivered}  RSS ${fmt(rss, 0)} MB`);
      nextReport += 5000;
    }
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  const lastWrite = Date.now();
  while (delivered < total && Date.now() - lastWrite < 600_000) await new Promise((r) => setTimeout(r, 100));
  const end = rssMb(server.pid!);
  const cpu = cpuS(server.pid!) - cpu0;
  const wall = (Date.now() - start) / 1000;
  const behind =
    delivered >= total ? `${fmt(Math.max(0, lastAt - lastWrite) / 1000, 1)} s after the last write` : `not within 600 s (${delivered} of ${total})`;
  console.log(`  delivered ${delivered} of ${total}; the last ${behind}; largest backlog ${maxBacklog} episodes`);
  console.log(
    `  server CPU ${fmt(cpu, 1)} s over ${fmt(wall, 1)} s wall (${fmt(cpu / wall, 2)} of 2 cores busy; ${fmt((cpu * 1000) / total, 1)} ms CPU per episode)`,
  );
  console.log(
    `  server RSS (process tree): ${fmt(rssAt10 ?? 0, 0)} MB at 10 s, peak ${fmt(peak, 0)} MB, ${fmt(end, 0)} MB at the end: end/10 s = ${fmt(end / (rssAt10 ?? end), 2)} (goal < 1.20) · load ${loadavg()}`,
  );
  req.destroy();
} finally {
  server.kill("SIGINT");
  await new Promise((r) => server.on("exit", r));
  rmSync(dir, { recursive: true, force: true });
}
