/**
 * Issue 51, item 4, on the board it is about: the held-out-size board (bench/board/make.ts, 4 arms
 * x 40 tasks x k=4 = 640 episodes, cached in bench/.cache as bench/board-page.ts --held-out makes
 * it) as a one-file page with the default budget keeps every zoom (fov <= 45) exact, and the
 * page's header says how many views are exact. Measured 2026-12-07: 204 zooms among 1,047
 * distinct verified views; the older default (12 MB for the whole page) kept none.
 */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runCli } from "../helpers.ts";

interface Built {
  root: string;
  tasks: string;
  panos: string;
}

describe("the held-out-size board's one-file page", () => {
  it("keeps every zoom exact with the default budget", async () => {
    // The generator renders with workers: its compiled form (npm run build).
    const { ensureBoard } = (await import(join(ROOT, "dist", "bench", "board", "make.js"))) as { ensureBoard: (s: object) => Promise<Built> };
    const { DEFAULT_SHAPE } = (await import(join(ROOT, "dist", "bench", "board", "shape.js"))) as { DEFAULT_SHAPE: object };
    const b = await ensureBoard({ ...DEFAULT_SHAPE, arms: 4, tasks: 40, k: 4 });
    const zooms = new Set<string>();
    const out = join(b.root, "..", "held-out-default.html");
    const r = runCli(["page", b.root, "--tasks", b.tasks, "--panos", b.panos, "--baseline", "base", "-o", out, "--json"], { timeoutMs: 900_000 });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    // The zooms' digests, from the records; the page's table holds each exact view's bytes.
    const { execFileSync } = await import("node:child_process");
    const list = execFileSync("find", [b.root, "-name", "episodes.jsonl"], { encoding: "utf8" }).trim().split("\n");
    for (const file of list)
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (!line.trim()) continue;
        const e = JSON.parse(line) as { turns?: { image_kind?: string; image_sha256?: string; camera_after?: { fov_deg: number } }[] };
        for (const t of e.turns ?? [])
          if (t.image_kind === "view" && t.image_sha256 && t.camera_after && t.camera_after.fov_deg <= 45) zooms.add(t.image_sha256);
      }
    const html = readFileSync(out, "utf8");
    const at = html.indexOf('id="gr-images">') + 'id="gr-images">'.length;
    const table = JSON.parse(html.slice(at, html.indexOf("</script>", at))) as (string | null)[];
    const exact = new Set(
      table
        .filter((u): u is string => typeof u === "string")
        .map((u) =>
          createHash("sha256")
            .update(Buffer.from(u.split(",")[1], "base64"))
            .digest("hex"),
        ),
    );
    expect(zooms.size).toBeGreaterThan(100);
    for (const z of zooms) expect(exact.has(z), z).toBe(true);
    expect(json.views_embedded).toBe(exact.size);
    expect(json.views_embedded + json.views_left_out).toBe(table.length);
  });
});
