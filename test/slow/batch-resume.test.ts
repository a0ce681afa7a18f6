/**
 * A batch killed by a real SIGINT resumes: exit 130, no partial file, work folder or lock left,
 * the manifest lists exactly the videos on disk, and a rerun renders only what is missing.
 * Then the GitHub Actions example's render step, run shard by shard as CI would, renders
 * each selected video exactly once across the shards.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { CLI, MIXED, ROOT } from "../helpers.ts";
import { BatchManifestSchema } from "../../replay/batch/manifest-schema.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = mkdtempSync("/tmp/grr-");
  dirs.push(d);
  return d;
};
const ndjson = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const manifestOf = (dir: string) => BatchManifestSchema.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));

const EPISODES = ["b110d889e34e", "4b86cb1e4dca", "b9b50c59f425"];
// The interrupted batch has more videos than can finish between its first one and the interrupt.
const INTERRUPTED = [...EPISODES, "1ae5a0c90017", "b62f83ac792b"];
const batchArgs = (dir: string, episodes = EPISODES) => [
  CLI,
  "render",
  join(MIXED, "episodes.jsonl"),
  "--tasks",
  join(MIXED, "tasks.jsonl"),
  "--panos",
  join(MIXED, "panos"),
  ...episodes.flatMap((e) => ["--episode", e]),
  "--size",
  "320x180",
  "--fps",
  "6",
  "--jobs",
  "1",
  "-o",
  dir + "/",
  "--json",
];

describe("an interrupted batch", () => {
  it("leaves only complete videos, and a rerun renders only the missing ones", async () => {
    const dir = tmp();
    const child = spawn(process.execPath, batchArgs(dir, INTERRUPTED), { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      // The first video is written: a second batch into the same folder is refused (one batch
      // per folder), and once it has been, the first is interrupted mid-render (a fallback timer
      // interrupts it if the second never answers).
      if (!signalled && stdout.includes('"status":"written"')) {
        signalled = true;
        const fallback = setTimeout(() => child.kill("SIGINT"), 15_000);
        second = new Promise((resolve) => {
          const c = spawn(process.execPath, batchArgs(dir, INTERRUPTED), { stdio: ["ignore", "pipe", "pipe"] });
          let err = "";
          c.stderr.on("data", (d: Buffer) => void (err += d.toString()));
          c.on("exit", (code) => {
            clearTimeout(fallback);
            child.kill("SIGINT");
            resolve({ code, stderr: err });
          });
        });
      }
    });
    let second: Promise<{ code: number | null; stderr: string }> | undefined;
    child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(signalled, stderr).toBe(true);
    expect(code, stderr).toBe(130);
    const refused = await second!;
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`${dir}: another batch is writing this folder (process ${child.pid} on `);
    expect(refused.stderr).not.toMatch(/\n\s+at /);

    const names = readdirSync(dir);
    // No temp files, no work folders, no lock: only finished videos and the manifest.
    expect(names.filter((n) => n.startsWith("."))).toEqual([]);
    const done = manifestOf(dir).videos.map((v) => v.file);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(done.length).toBeLessThan(INTERRUPTED.length);
    expect(names.sort()).toEqual([...done, "manifest.json"].sort());
    const before = new Map(done.map((f) => [f, statSync(join(dir, f)).mtimeMs]));

    const again = spawnSync(process.execPath, batchArgs(dir, INTERRUPTED), { encoding: "utf8", timeout: 600_000 });
    expect(again.status, again.stderr).toBe(0);
    const lines = ndjson(again.stdout);
    const status = Object.fromEntries(lines.filter((l) => l.type === "video").map((l) => [l.file, l.status]));
    for (const e of INTERRUPTED) expect(status[`${e}.mp4`]).toBe(done.includes(`${e}.mp4`) ? "skipped" : "written");
    expect(lines.at(-1)).toMatchObject({ type: "summary", written: INTERRUPTED.length - done.length, skipped: done.length, failed: 0 });
    // Skipped files were not touched.
    for (const [f, t] of before) expect(statSync(join(dir, f)).mtimeMs).toBe(t);
    expect(manifestOf(dir).videos.map((v) => v.file)).toEqual(INTERRUPTED.map((e) => `${e}.mp4`).sort());
  });
});

describe("docs/github-actions-render.yml, run locally shard by shard", () => {
  it("its shards together render each selected video exactly once", () => {
    const yml = readFileSync(join(ROOT, "docs", "github-actions-render.yml"), "utf8");
    const step = /- name: Render shard [^\n]+\n(?:\s+#[^\n]*\n)*\s+run: (.+)\n/.exec(yml);
    expect(step, "the workflow has its render step").not.toBeNull();
    const matrix = /shard: \[([\d, ]+)\]/
      .exec(yml)![1]
      .split(",")
      .map((s) => Number(s.trim()));
    expect(matrix).toEqual([1, 2, 3, 4]);
    expect(yml).toMatch(/SHARDS: 4\n/);

    const work = tmp();
    const shards = 3;
    const env = {
      ...process.env,
      RUNS: join(MIXED, "episodes.jsonl"),
      TASKS: join(MIXED, "tasks.jsonl"),
      PANOS: join(MIXED, "panos"),
      SELECTION: EPISODES.map((e) => `--episode ${e}`).join(" "),
      VIDEO: "--format mp4 --size 320x180 --fps 6 --jobs 1",
      SHARDS: String(shards),
    };
    const files: string[] = [];
    for (let i = 1; i <= shards; i++) {
      const cmd = step![1].replaceAll("${{ matrix.shard }}", String(i)).replace(/^npx georeplay /, `node ${CLI} `);
      const r = spawnSync("bash", ["-c", cmd], { cwd: work, env, encoding: "utf8", timeout: 600_000 });
      expect(r.status, r.stderr).toBe(0);
      const lines = ndjson(readFileSync(join(work, `render-${i}.ndjson`), "utf8"));
      expect(lines.at(-1)).toMatchObject({ type: "summary", shard: `${i}/${shards}`, failed: 0, selected: EPISODES.length });
      const m = manifestOf(join(work, `videos-${i}`));
      files.push(...m.videos.map((v) => v.file));
      expect(readdirSync(join(work, `videos-${i}`)).sort()).toEqual([...m.videos.map((v) => v.file), "manifest.json"].sort());
    }
    expect(files.sort()).toEqual(EPISODES.map((e) => `${e}.mp4`).sort());
  });
});
