/**
 * The crops gym's rules against the contract's worked examples (crops-trace-format.md) and
 * against the reference gym's `map_box` and `apply_action` on 400 random cases each
 * (test/fixtures/crops/action-cases.json, generated once by make_fixtures.py).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { applyAction, zoomText } from "../../envs/crops/replay/actions.ts";
import { fitSize, fitView, mapBox, rectPixels, type Rect } from "../../envs/crops/replay/geometry.ts";
import { canonical } from "../../envs/crops/replay/labels.ts";
import { parseReply } from "../../envs/crops/replay/pyjson.ts";
import { pyFixed, pyRepr, pyStrip } from "../../envs/crops/replay/pytext.ts";
import { groupAdvantages, potential, scoreBoxes, shaping, type GtObject } from "../../envs/crops/replay/score.ts";
import { FIXTURES } from "../helpers.ts";

const CROPS = join(FIXTURES, "crops");
const SAMPLE = join(CROPS, "sample");
const jsonl = (f: string) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const episodes = jsonl(join(SAMPLE, "eval", "episodes.jsonl"));
const episode = (id: string) => episodes.find((e) => e.episode_id === id);
const gtOf = (imageId: string): GtObject[] => jsonl(join(SAMPLE, "gt.jsonl")).find((r) => r.image_id === imageId).objects;

describe("the contract's worked examples", () => {
  it("view sizes: 512x512, 600x400, 384x303, 600x800 and the thumbnail rule", () => {
    expect(fitSize(512, 512, 512)).toEqual([512, 512]);
    expect(fitSize(600, 400, 512)).toEqual([512, 341]);
    expect(fitSize(384, 303, 512)).toEqual([512, 404]);
    expect(fitSize(600, 800, 512)).toEqual([384, 512]);
    expect(fitSize(600, 400, 128)).toEqual([128, 85]);
  });

  it("mapping (episode b86310395365 turn 6): per-mille of the zoomed view to image pixels, and its outline's pixels", () => {
    const view: Rect = [82.43199999999999, 299.008, 254.46400000000003, 471.04];
    const m = mapBox([281, 235, 764, 715], view);
    expect(m).toEqual([130.772992, 339.43552, 213.864448, 422.01088000000004]);
    const t = episode("b86310395365").turns[6];
    expect(t.mapped_box.box).toEqual(m);
    expect(rectPixels(m, view, 512, 512)).toEqual([144, 120, 390, 365]);
    expect(view.map(Math.fround)).toEqual([82.43199920654297, 299.00799560546875, 254.46400451660156, 471.0400085449219]);
  });

  it("zoom (episode b86310395365 turn 5): widened to the view's aspect, nothing shifted", () => {
    const r = mapBox([163, 584, 495, 920], [0, 0, 512, 512]);
    expect(r).toEqual([83.456, 299.008, 253.44, 471.04]);
    const w = r[2] - r[0];
    const h = r[3] - r[1];
    expect([w, h]).toEqual([169.98399999999998, 172.03200000000004]);
    expect(fitView((r[0] + r[2]) / 2, (r[1] + r[3]) / 2, w, h, 512, 512, 512, 512)).toEqual([82.43199999999999, 299.008, 254.46400000000003, 471.04]);
    const res = applyAction({ view: [0, 0, 512, 512], boxes: [], nextId: 1 }, { action: "zoom", box: [163, 584, 495, 920] }, 512, 512, 512, 512);
    expect(res.ok && res.state.view).toEqual(episode("b86310395365").turns[5].view_after);
  });

  it("score with a false alarm (episode bd92d1fa6bce)", () => {
    const ep = episode("bd92d1fa6bce");
    const s = scoreBoxes(ep.turns.at(-1).boxes, gtOf("scene-1003"));
    expect(s.matches.map((m) => [m.pred, m.gt, m.giou, m.credit])).toEqual([
      [1, "g3", 0.43344339625369577, 0.7167216981268478],
      [2, "g2", 0.6414750358805316, 0.8207375179402658],
      [4, "g1", 0.7558640315555387, 0.8779320157777694],
    ]);
    expect(s.false_alarms).toEqual([3]);
    expect(s.parts.recall_term).toBe(0.6038478079612207);
    expect(s.parts.precision_factor).toBe(0.75);
    expect(s.score).toBe(0.4528858559709156);
    expect(s.parts.mean_credit).toBe(0.8051304106149609);
    expect(s.parts.label_accuracy).toBe(1.0);
    expect(s.score).toBe(ep.outcome.score);
  });

  it("score with wrong labels (episode 9fed5938e88a): truck and balloon earn half", () => {
    const ep = episode("9fed5938e88a");
    const s = scoreBoxes(ep.turns.at(-1).boxes, gtOf("scene-1003"));
    expect(s.matches.map((m) => [m.pred, m.gt, m.credit, m.label_ok])).toEqual([
      [1, "g3", 0.8762810218067535, true],
      [2, "g2", 0.8757264184286433, false],
      [3, "g1", 0.839183620504104, false],
    ]);
    expect(s.parts.recall_term).toBe(0.5779120137577091);
    expect(s.score).toBe(0.5779120137577091);
    expect(s.parts.mean_credit).toBe(0.8637303535798336);
    expect(s.parts.label_accuracy).toBe(0.3333333333333333);
  });

  it("shaping (episode bd92d1fa6bce turn 1, and the terminal turn) and shaping_sum", () => {
    // The doc's "same episode" is the first score's: its terminal F is -score.
    const ep = episode("bd92d1fa6bce");
    const gt = gtOf("scene-1003");
    const [t0, t1] = ep.turns;
    const sh = shaping({ view: t0.view_after, boxes: t0.boxes }, { view: t1.view_after, boxes: t1.boxes }, gt, false);
    expect(sh).toEqual({ phi_before: 0.11365885416666666, phi_after: 0.28815202437561593, reward: 0.17161164996519312, terminal: false });
    expect(potential(t0.view_after, [], gt)).toBe(0.11365885416666666);
    const last = ep.turns.at(-1);
    const prev = ep.turns.at(-2);
    expect(shaping({ view: prev.view_after, boxes: prev.boxes }, { view: last.view_after, boxes: last.boxes }, gt, true).reward).toBe(-0.4528858559709156);
    let sum = 0.0;
    for (const t of ep.turns.slice(1)) sum += t.shaping.reward;
    expect(sum).toBe(-0.14781526268532535);
  });

  it("GRPO group train/step-000/train-000: mean and advantages", () => {
    const scores = [0.47008452035479237, 0.42302658855255854, 0.7322284482179239, 0.4706364749852063, 0.8020916264363702, 0.9060971867561491];
    const g = groupAdvantages(scores);
    expect(g.mean).toBe(0.6340274742171667);
    expect(g.advantages).toEqual([
      -0.16394295386237429, -0.21100088566460812, 0.09820097400075722, -0.16339099923196038, 0.16806415221920357, 0.2720697125389825,
    ]);
    const rollouts = jsonl(join(SAMPLE, "train", "rollouts.jsonl")).filter((r) => r.group_id === "train/step-000/train-000");
    expect(rollouts.sort((a, b) => a.sibling - b.sibling).map((r) => r.outcome.score)).toEqual(scores);
    expect(groupAdvantages([0.5, 0.5, 0.5]).advantages).toEqual([0, 0, 0]);
  });

  it("labels: red car, Teacups, lamp post, tower block", () => {
    expect(canonical("red car")).toBe("car");
    expect(canonical("Teacups")).toBe("cup");
    expect(canonical("lamp post")).toBeNull();
    expect(canonical("tower block")).toBe("building");
    expect(canonical("the Galaxies")).toBe("galaxy");
    expect(canonical("")).toBeNull();
  });
});

describe("the reference gym on random cases (action-cases.json)", () => {
  const cases = JSON.parse(readFileSync(join(CROPS, "action-cases.json"), "utf8"));

  it("map_box: 400 random views and per-mille boxes, bit for bit", () => {
    expect(cases.maps.length).toBe(400);
    for (const c of cases.maps) expect(mapBox(c.box, c.view)).toEqual(c.mapped);
  });

  it("apply_action: 400 random actions on random states give the same view, boxes, mapping, feedback or invalid message", () => {
    let ok = 0;
    for (const c of cases.actions) {
      const state = { view: c.state.view, boxes: c.state.boxes, nextId: c.state.next_id };
      const r = applyAction(state, c.action, c.iw, c.ih, c.size[0], c.size[1]);
      const want = c.result;
      if (want.status === "ok") {
        ok++;
        expect(r.ok, JSON.stringify(c.action)).toBe(true);
        if (!r.ok) continue;
        expect(r.state.view).toEqual(want.view);
        expect(r.state.boxes).toEqual(want.boxes);
        expect(r.state.nextId).toBe(want.next_id);
        expect(r.mapped).toEqual(want.mapped);
        expect(r.feedback).toBe(want.feedback);
      } else expect(r.ok ? "ok" : `invalid_action: ${r.message}`, JSON.stringify(c.action)).toBe(want.status);
    }
    // Both outcomes are well represented.
    expect(ok).toBeGreaterThan(100);
    expect(cases.actions.length - ok).toBeGreaterThan(100);
  });
});

describe("Python behaviour the messages depend on", () => {
  it("the reply parser takes the last `{` that decodes to an object with an action, as raw_decode does", () => {
    expect(parseReply('think {"a": 1} then ```json\n{"action": "zoom", "box": [1, 2, 3, 4]}\n``` ok')?.action).toEqual({ action: "zoom", box: [1, 2, 3, 4] });
    expect(parseReply('{"action": "done"} and later {"note": {"x": 1}}')?.action).toEqual({ action: "done" });
    expect((parseReply('{"action": "box", "box": [NaN, 1, 2, 3]}')?.action.box as number[])[0]).toBeNaN();
    expect(parseReply('{"action": "remove", "id": 2.0}')?.floatKeys).toEqual(new Set(["id"]));
    expect(parseReply('{"action": "box", "label": "a\\u00e9\\ud83d\\ude00"}')?.action.label).toBe("aé😀");
    expect(parseReply('{"action": "zoom",}')).toBeNull(); // trailing comma: Python rejects it
    expect(parseReply('{"action": "x\n"}')).toBeNull(); // control character in a string (strict)
    expect(parseReply("no json here")).toBeNull();
    expect(parseReply(null)).toBeNull();
  });

  it("an id written as a float is not an int for the gym", () => {
    const state = { view: [0, 0, 100, 100] as Rect, boxes: [{ id: 2, label: "car", box: [1, 1, 5, 5] }], nextId: 3 };
    const parsed = parseReply('{"action": "remove", "id": 2.0}')!;
    const r = applyAction(state, parsed.action, 100, 100, 512, 512, parsed.floatKeys);
    expect(r.ok ? "ok" : r.message).toBe("id must be an integer");
  });

  it("repr, strip, and .1f rounding of ties to even", () => {
    expect(pyRepr("fly")).toBe("'fly'");
    expect(pyRepr("it's")).toBe(`"it's"`);
    expect(pyRepr("a\nb\u0001")).toBe("'a\\nb\\x01'");
    expect(pyStrip("\x1c car \x85")).toBe("car");
    expect(pyStrip("\ufeffcar")).toBe("\ufeffcar"); // not whitespace to Python
    expect(pyFixed(1.25, 1)).toBe("1.2");
    expect(pyFixed(1.75, 1)).toBe("1.8");
    expect(pyFixed(0.45, 1)).toBe("0.5"); // 0.45 is just above the tie in binary
    expect(pyFixed(12.5, 0)).toBe("12");
    expect(zoomText([0, 0, 400, 300], 500)).toBe("1.2x");
  });

  it("property: pyFixed agrees with exact decimal rounding of the binary value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400000 }), fc.integer({ min: 1, max: 64 }), (n, d) => {
        const x = n / d / 100;
        // The exact decimal expansion of x (BigInt), rounded half to even at one digit.
        const [mant, exp] = exact(x);
        const scaled = mant * 10n; // x * 10 = mant * 10 / 2^exp
        const q = scaled >> exp;
        const r = scaled - (q << exp);
        const half = 1n << (exp - 1n);
        const digit = exp === 0n ? scaled : r > half || (r === half && q % 2n === 1n) ? q + 1n : q;
        const want = `${digit / 10n}.${digit % 10n}`;
        expect(pyFixed(x, 1)).toBe(want);
      }),
      { numRuns: 500 },
    );
  });
});

/** x = mant / 2^exp exactly (x >= 0, exp >= 1). */
function exact(x: number): [bigint, bigint] {
  let exp = 1n;
  let v = x * 2;
  while (!Number.isInteger(v)) {
    v *= 2;
    exp++;
  }
  return [BigInt(v), exp];
}
