/**
 * The environment seam moved GeoGuesser's engine into envs/geoguesser/ and made core dispatch on
 * the record's `env`. Its contract: GeoGuesser's output did not change by one byte. This test holds
 * the sha256 of every output a user gets from the bundled sample (verify --json, every frames file,
 * an MP4, a two-up MP4, the one-file page, report --json) as they were before the move
 * (test/fixtures/geoguesser-bytes.json, written by the code before the seam); a change to any of
 * them fails here, naming the output. GEOREPLAY_WRITE_BYTES=1 rewrites the file (only for a change
 * that is meant to alter GeoGuesser's bytes, reviewed on its own).
 */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { runCli, ROOT, FIXTURES } from "../helpers.ts";

const EXPECTED = join(FIXTURES, "geoguesser-bytes.json");
const S = join("rollouts", "sample");
const IN = [join(S, "episodes.jsonl"), "--tasks", join(S, "tasks.jsonl"), "--panos", join(S, "panos")];
const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

/** Runs the CLI from the checkout with relative input paths (as the README does), so no output can carry where the checkout lives. */
function run(args: string[]): string {
  const r = runCli(args, { cwd: ROOT, timeoutMs: 600_000 });
  expect(r.code, `georeplay ${args.join(" ")}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

describe("GeoGuesser's outputs are byte-identical across the environment seam", () => {
  it("verify, frames, render (one-up and two-up), page and report give the bytes they gave before the seam", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-seam-"));
    try {
      const got: Record<string, string> = {};
      got["verify --json"] = sha(run(["verify", ...IN, "--json"]).replace(/"(elapsed|seconds|duration)[a-z_]*": [0-9.e-]+/g, ""));
      const frames = join(dir, "frames");
      run(["frames", ...IN, "--episode", "90a9d3eba5ce", "--out", frames]);
      for (const f of filesUnder(frames)) got[`frames/${relative(frames, f)}`] = sha(readFileSync(f));
      run(["render", ...IN, "--episode", "90a9d3eba5ce", "-o", join(dir, "one.mp4"), "--preset", "ultrafast"]);
      got["render one.mp4"] = sha(readFileSync(join(dir, "one.mp4")));
      run(["render", ...IN, "--episode", "d37a27bd393a", "--versus", "ff03ebd569bb", "-o", join(dir, "two.mp4"), "--preset", "ultrafast"]);
      got["render --versus two.mp4"] = sha(readFileSync(join(dir, "two.mp4")));
      run(["page", ...IN, "-o", join(dir, "page.html")]);
      got["page page.html"] = sha(readFileSync(join(dir, "page.html")));
      got["report --json"] = sha(run(["report", join(S, "episodes.jsonl"), "--json"]));
      if (process.env.GEOREPLAY_WRITE_BYTES === "1") writeFileSync(EXPECTED, JSON.stringify(got, null, 2) + "\n");
      const expected = JSON.parse(readFileSync(EXPECTED, "utf8")) as Record<string, string>;
      expect(got).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});
