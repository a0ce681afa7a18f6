/**
 * The package as a user gets it: `npm pack`, install the tarball into an empty
 * project, then run the CLI (verify, page, render with the native engine and
 * an MP4 checked with ffprobe), import the API from a Node ESM script, and
 * type-check a TypeScript consumer against the shipped .d.ts files. Remotion
 * is not installed with it (an optional peer): no remotion or @remotion/*
 * package in the tree, and `--engine remotion` says how to add it and what
 * its licence is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { REMOTION_MISSING } from "../../src/film/engine.ts";
import { BT709, colourTags } from "../video-helpers.ts";

const SAMPLE = join(ROOT, "rollouts", "sample");
const IN = [join(SAMPLE, "episodes.jsonl"), "--tasks", join(SAMPLE, "tasks.jsonl"), "--panos", join(SAMPLE, "panos")];
let work: string;
let app: string;
let tarball: string;

/** Runs a command in the consumer project; returns its result without throwing. */
function inApp(cmd: string, args: string[], timeoutMs = 600_000) {
  const r = spawnSync(cmd, args, {
    cwd: app,
    encoding: "utf8",
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const georeplay = (...args: string[]) => inApp(join(app, "node_modules", ".bin", "georeplay"), args);

/** The `run:` of the workflow's "Install georeplay" steps (both jobs install the same way). */
function workflowInstallStep(): string {
  const yml = readFileSync(join(ROOT, "docs", "github-actions-verify.yml"), "utf8");
  const steps = [...yml.matchAll(/- name: Install georeplay\n\s+run: (.+)\n/g)].map((m) => m[1].trim());
  expect(steps.length).toBe(2);
  expect(new Set(steps).size).toBe(1);
  expect(steps[0]).toContain('"$GEOREPLAY"');
  return steps[0];
}

beforeAll(() => {
  // Short paths: Chromium's socket path under TMPDIR is limited to 107 bytes.
  work = mkdtempSync("/tmp/grpkg-");
  app = join(work, "app");
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  );
  tarball = join(work, packed[0].filename);
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
  // Installed exactly as docs/github-actions-verify.yml does it, with $GEOREPLAY naming this tarball.
  execFileSync("bash", ["-c", workflowInstallStep()], {
    cwd: app,
    stdio: "ignore",
    timeout: 900_000,
    env: { ...process.env, GEOREPLAY: tarball, npm_config_prefer_offline: "true" },
  });
}, 1_200_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the installed package", () => {
  it("ships the compiled engine, composition and declarations, and no benchmarks or sources", () => {
    const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
    for (const f of [
      "package/dist/src/cli.js",
      "package/dist/src/index.d.ts",
      "package/dist/envs/geoguesser/video/api.js",
      "package/dist/video/remotion/index.js",
      "package/dist/src/film/native/paint-worker.js",
      "package/dist/envs/geoguesser/replay/timeline/timeline-schema.d.ts",
      "package/dist/envs/geoguesser/replay/verify/pool-worker.js",
      "package/LICENSE",
    ]) {
      expect(listing).toContain(f);
    }
    expect(listing.filter((f) => f.startsWith("package/dist/bench"))).toEqual([]);
    expect(listing.filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"))).toEqual([]);
  });

  it("--version is package.json's", () => {
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
    expect(georeplay("--version").stdout.trim()).toBe(version);
  });

  it("verify: every view of the bundled sample reproduces, exit 0", () => {
    const r = georeplay("verify", ...IN, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ episodes: 9, checked: 70, match: 70, mismatch: 0, resolved: 1, errors: [] });
  });

  it("page: one self-contained page", () => {
    const out = join(work, "sample.html");
    const r = georeplay("page", ...IN, "-o", out, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ written: true, episodes: 9, mismatch: 0 });
    const html = readFileSync(out, "utf8");
    expect(html).toMatch(/^<!doctype html>/i);
    // Both scripts come from the bundles recorded at build time (an installed package has no sources to bundle).
    expect(html).toContain("window.grPlayerLoad=function(){");
    expect(html).toContain("grReadyAt");
  });

  it("render: a real MP4 painted natively (no browser, no Remotion)", () => {
    const out = join(work, "trieste.mp4");
    const r = georeplay("render", ...IN, "--episode", "90a9d3eba5ce", "-o", out, "--size", "640x360", "--fps", "10", "--json");
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const stream = probeVideo(out);
    expect(stream).toMatchObject({ codec: "h264", pixFmt: "yuv420p", colorSpace: "bt709", width: 640, height: 360, fps: 10, faststart: true });
    expect(colourTags(out)).toEqual(BT709);
    expect(stream.frames).toBe(report.frames);
    expect(report.verified).toBe(true);
  });

  it("render --engine remotion without Remotion installed: exit 2, the npm command to add it and its licence terms", () => {
    const out = join(work, "remotion.mp4");
    const r = georeplay("render", ...IN, "--episode", "90a9d3eba5ce", "-o", out, "--engine", "remotion");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("npm install --save-exact remotion@4.0.527 @remotion/bundler@4.0.527 @remotion/renderer@4.0.527 react@19.3.1 react-dom@19.3.1");
    expect(r.stderr).toContain("Remotion's licence is not open source");
    expect(r.stderr).toContain(REMOTION_MISSING);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it("import { verify } from 'georeplay' in a Node ESM script gives the CLI's report", () => {
    const script = join(app, "api.mjs");
    writeFileSync(
      script,
      `import { verify, GeoreplayError } from "georeplay";\n` +
        `const r = await verify(${JSON.stringify({ episodes: [IN[0]], tasks: IN[2], panos: IN[4] })});\n` +
        `let bad = null;\n` +
        `try { await verify({ episodes: ["/nonexistent/episodes.jsonl"], tasks: ${JSON.stringify(IN[2])}, panos: ${JSON.stringify(IN[4])} }); } catch (e) { bad = { isGeoreplayError: e instanceof GeoreplayError, kind: e.kind, problems: e.problems.length }; }\n` +
        `console.log(JSON.stringify({ r, bad }));\n`,
    );
    const run = inApp(process.execPath, [script]);
    expect(run.code, run.stderr).toBe(0);
    const { r, bad } = JSON.parse(run.stdout);
    const cli = JSON.parse(georeplay("verify", ...IN, "--json").stdout);
    expect(r).toEqual(cli);
    expect(bad).toEqual({ isGeoreplayError: true, kind: "input", problems: 1 });
  });

  it("import { renderVideos } from 'georeplay': a batch of real MP4s into a folder, with its manifest", () => {
    const dir = join(work, "api-batch");
    const script = join(app, "batch.mjs");
    const opts = {
      episodes: [IN[0]],
      tasks: IN[2],
      panos: IN[4],
      selection: { by: "episodes", wanted: ["#1", "#2"] },
      dir,
      size: { width: 320, height: 180 },
      fps: 5,
      preset: "ultrafast",
    };
    writeFileSync(
      script,
      `import { renderVideos } from "georeplay";\n` +
        `const r = await renderVideos(${JSON.stringify(opts)});\n` +
        `console.log(JSON.stringify({ written: r.written.map((v) => [v.file, v.frames]), failed: r.failed.length, planned: r.plan.planned.length }));\n`,
    );
    const run = inApp(process.execPath, [script]);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.failed).toBe(0);
    expect([r.written.length, r.planned]).toEqual([2, 2]);
    for (const [file, frames] of r.written) expect(probeVideo(join(dir, file))).toMatchObject({ codec: "h264", width: 320, height: 180, frames });
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    expect(manifest.videos.map((v: { file: string }) => v.file).sort()).toEqual(r.written.map((w: [string, number]) => w[0]).sort());
    expect(manifest.videos[0].options.generator).toBe(`georeplay ${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version}`);
  });

  it("the README's 'Use it from code' example runs as written", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = /<!-- test\/slow\/package\.test\.ts runs this block[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme);
    expect(block, "README has the marked example").not.toBeNull();
    cpSync(SAMPLE, join(app, "rollouts", "sample"), { recursive: true });
    writeFileSync(join(app, "readme-example.mjs"), block![1]);
    const run = inApp(process.execPath, [join(app, "readme-example.mjs")]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("70/70 views reproduce, 0 drifted\n");
  });

  it("report: the board numbers from the API equal report --json", () => {
    const board = join(ROOT, "test", "fixtures", "boards", "main");
    const script = join(app, "report.mjs");
    writeFileSync(script, `import { report } from "georeplay";\nconsole.log(JSON.stringify(await report([${JSON.stringify(board)}])));\n`);
    const api = inApp(process.execPath, [script]);
    expect(api.code, api.stderr).toBe(0);
    const cli = georeplay("report", board, "--json");
    expect(JSON.parse(api.stdout)).toEqual(JSON.parse(cli.stdout));
  });

  it("a TypeScript consumer type-checks against the shipped .d.ts, and a wrong call does not", () => {
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [] },
        files: ["consumer.ts"],
      }),
    );
    const good = [
      `import { verify, GeoreplayError, EpisodeSchema, type VerifyReport, type Episode } from "georeplay";`,
      `import { TimelineSchema, type Timeline } from "georeplay/timeline";`,
      `const report: VerifyReport = await verify({ episodes: ["run/episodes.jsonl"], tasks: "tasks.jsonl", panos: "panos", signal: AbortSignal.timeout(1000) });`,
      `const matched: number = report.match;`,
      `const kind: "input" | "drift" = new GeoreplayError("x").kind;`,
      `const ep: Episode = EpisodeSchema.parse({});`,
      `const tl: Timeline | undefined = TimelineSchema.safeParse({}).data;`,
      `export { matched, kind, ep, tl };`,
    ].join("\n");
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    writeFileSync(join(app, "consumer.ts"), good);
    const ok = inApp(process.execPath, [tsc, "-p", "tsconfig.json"]);
    expect(ok.stdout + ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    writeFileSync(join(app, "consumer.ts"), good.replace(`episodes: ["run/episodes.jsonl"]`, "episodes: 1"));
    const bad = inApp(process.execPath, [tsc, "-p", "tsconfig.json"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toMatch(/consumer\.ts\(3,\d+\): error TS2322/);
  });

  it("installs no Remotion: npm ls lists no remotion or @remotion/* package", () => {
    expect(existsSync(join(app, "node_modules", "georeplay", "dist", "src", "cli.js"))).toBe(true);
    const ls = inApp("npm", ["ls", "--all", "--parseable"]);
    const paths = ls.stdout.split("\n").filter(Boolean);
    expect(
      paths.some((p) => p.endsWith(join("node_modules", "georeplay"))),
      ls.stderr,
    ).toBe(true);
    expect(paths.filter((p) => /node_modules\/(remotion|@remotion\/[^/]+)$/.test(p))).toEqual([]);
    expect(existsSync(join(app, "node_modules", "remotion"))).toBe(false);
    expect(existsSync(join(app, "node_modules", "@remotion"))).toBe(false);
  });
});
