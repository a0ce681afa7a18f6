/** Property tests: the reader and the schemas never crash on anything, and valid records round-trip. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readJsonl } from "../../replay/io/jsonl.ts";
import { classifyRecord } from "../../envs/geoguesser/replay/schema/record.ts";
import { EpisodeSchema } from "../../envs/geoguesser/replay/schema/episode.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-prop-"));
let n = 0;
async function readAll(bytes: Uint8Array) {
  const f = join(dir, `f${n++}.jsonl`);
  writeFileSync(f, bytes);
  const items = [];
  for await (const it of readJsonl(f)) items.push(it);
  rmSync(f);
  return items;
}

const camera = fc.record({
  heading_deg: fc.double({ min: -3600, max: 3600, noNaN: true }),
  pitch_deg: fc.double({ min: -90, max: 90, noNaN: true }),
  fov_deg: fc.double({ min: 10, max: 120, noNaN: true }),
  frame_index: fc.nat(500),
});
const turn = fc.record({
  turn: fc.nat(30),
  status: fc.constantFrom("ok", "unparseable", "provider_error", "invalid_action: bad", "forced_guess"),
  camera_before: camera,
  camera_after: camera,
  action: fc.option(fc.record({ action: fc.constantFrom("look", "zoom", "move", "place_pin") }), { nil: null }),
  pins: fc.array(fc.tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })), { maxLength: 3 }),
  image_kind: fc.constantFrom("view", "map", "none"),
  image_sha256: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: null }),
  feedback: fc.string(),
  action_cost: fc.double({ min: 0, max: 1, noNaN: true }),
  model: fc.option(fc.record({ reply: fc.string({ unit: "grapheme" }), reasoning: fc.option(fc.string(), { nil: null }) }), { nil: undefined }),
  extra_field_from_a_newer_producer: fc.jsonValue(),
});
const episode = fc.record({
  schema_version: fc.constant(2),
  episode_id: fc.stringMatching(/^[0-9a-f]{12}$/),
  model_name: fc.string({ minLength: 1 }),
  task: fc.record({ split: fc.constantFrom("eval", "train"), index: fc.nat(1000), country: fc.option(fc.string(), { nil: null }) }),
  turns: fc.array(turn, { maxLength: 6 }),
  outcome: fc.option(
    fc.record({ reward: fc.double({ min: 0, max: 1, noNaN: true }), distance_km: fc.option(fc.double({ min: 0, max: 20000, noNaN: true }), { nil: null }) }),
    { nil: null },
  ),
});

describe("JSONL reader and record classifier", () => {
  it("arbitrary bytes never crash: every non-blank line yields a value or a line-numbered error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        const items = await readAll(bytes);
        for (const it of items) {
          expect(it.line).toBeGreaterThanOrEqual(1);
          if (it.kind === "value")
            classifyRecord(it.value); // must not throw
          else expect(it.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("arbitrary JSON values never crash the classifier and always get a verdict", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = classifyRecord(v);
        expect(["episode", "errored", "invalid"]).toContain(r.kind);
        if (r.kind === "invalid") expect(r.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it("valid episodes round-trip through a JSONL file, unknown fields kept", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(episode, { minLength: 1, maxLength: 4 }), async (eps) => {
        const text = eps.map((e) => JSON.stringify(e)).join("\n") + "\n";
        const items = await readAll(Buffer.from(text));
        expect(items).toHaveLength(eps.length);
        items.forEach((it, i) => {
          expect(it.kind).toBe("value");
          const r = classifyRecord((it as { value: unknown }).value);
          expect(r.kind, JSON.stringify(r)).toBe("episode");
          if (r.kind === "episode") {
            expect(JSON.parse(JSON.stringify(r.episode))).toEqual(JSON.parse(JSON.stringify(eps[i])));
            expect(EpisodeSchema.safeParse(r.episode).success).toBe(true);
          }
        });
      }),
      { numRuns: 100 },
    );
  });

  it("a corrupted field in a valid episode is always reported with its path", () => {
    fc.assert(
      fc.property(
        episode.filter((e) => e.turns.length > 0),
        fc.constantFrom("heading_deg", "pitch_deg", "fov_deg", "frame_index"),
        fc.oneof(fc.string(), fc.boolean(), fc.constant(null)),
        (e, field, bad) => {
          const copy = JSON.parse(JSON.stringify(e));
          copy.turns[0].camera_after[field] = bad;
          const r = classifyRecord(copy);
          expect(r.kind).toBe("invalid");
          if (r.kind === "invalid") expect(r.problems.join("\n")).toContain(`turns[0].camera_after.${field}`);
        },
      ),
      { numRuns: 200 },
    );
  });
});
