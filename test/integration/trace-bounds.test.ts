/**
 * Untrusted, huge replies stay inside the trace pane: a 20,000-character
 * reply (words, an unbreakable 3,000-character token, CJK, emoji) and one
 * full of control characters and HTML, put into a copy of the Trieste
 * timeline's trace. For every frame of that turn's segment, every text
 * primitive of the pane lies within the pane's width (measured with Skia,
 * as the native painter draws it), the reply is capped at MAX_REPLY_LINES
 * lines ending in an ellipsis, and no control character reaches a text
 * primitive (they are shown as escapes). The same for the two-up trace
 * strip. Pure: scenes only.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { armsTimeline, boxOf, textExtent, textsInGroup, triesteTimeline, tx, type TextPrim } from "../video-helpers.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { RolloutPropsSchema } from "../../envs/geoguesser/video/rollout/props.ts";
import { ComparePropsSchema, type CompareProps } from "../../envs/geoguesser/video/compare/props.ts";
import { rolloutLayout } from "../../video/scene/layout.ts";
import { compareLayout } from "../../video/parts/compare-layout.ts";
import { rolloutScene } from "../../envs/geoguesser/video/rollout/scene.ts";
import { compareScene } from "../../envs/geoguesser/video/compare/scene.ts";
import { compareClock } from "../../envs/geoguesser/video/compare/clock.ts";
import { MAX_REPLY_LINES, replyLayout } from "../../video/parts/trace-pane.ts";
import { Draw } from "../../video/scene/draw.ts";
import type { Box } from "../../video/scene/types.ts";
import { measuringLayouter } from "../../video/text/layouter.ts";
import { nodeMeasure } from "../../src/film/shared/fonts.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-trace-bounds-"));
let trieste: Timeline;
let base: Timeline;
let ckpt: Timeline;

beforeAll(async () => {
  trieste = await triesteTimeline(join(tmp, "public"), 10);
  base = await armsTimeline(join(tmp, "public"), "d37a27bd393a", "rollouts/a", 10);
  ckpt = await armsTimeline(join(tmp, "public"), "ff03ebd569bb", "rollouts/b", 10);
}, 600_000);

/** 20,000 characters: prose, one 3,000-character token with no break opportunity, CJK, emoji. */
function hugeReply(): string {
  const words = "The storefront says borsa and the plates are Italian, so I lean towards Trieste near the coast. ";
  let s = words.repeat(60);
  s += "x".repeat(3000) + " ";
  s += "北京と東京の区別は簡体字と新字体で付きます。".repeat(60);
  s += " 🇯🇵👨‍👩‍👧‍👦🏳️‍🌈 ".repeat(100);
  while (s.length < 20_000) s += words;
  return s.slice(0, 20_000);
}

// C0 controls but the tab, DEL and C1 controls (built from code points: the linter refuses them in a regex literal).
const CONTROL = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(10)}-${String.fromCharCode(31)}${String.fromCharCode(127)}-${String.fromCharCode(159)}]`,
);
const hostileReply = () =>
  "<script>alert('x')</script>\u0000\u0007\u001b[31mred\u001b[0m\r\n<img src=x onerror=alert(1)>\tTAB\u0085NEL\u200b&lt;&amp;\n".repeat(40) +
  '{"action": "look", "heading_deg": 90}';

const withReply = (t: Timeline, turn: number, reply: string): Timeline => ({ ...t, trace: t.trace.map((e) => (e.turn === turn ? { ...e, reply } : e)) });

function expectInside(prims: TextPrim[], pane: Box, where: string): void {
  expect(prims.length, `${where}: text in the pane`).toBeGreaterThan(0);
  for (const p of prims) {
    const [l, r] = textExtent(p);
    expect(l, `${where}: left of ${JSON.stringify(p.text.slice(0, 40))}`).toBeGreaterThanOrEqual(pane.x - 0.5);
    expect(r, `${where}: right of ${JSON.stringify(p.text.slice(0, 40))} (${p.text.length} chars)`).toBeLessThanOrEqual(pane.x + pane.w + 0.5);
    expect(p.text, `${where}: a control character reached the painter`).not.toMatch(CONTROL);
  }
}

describe("the Rollout trace pane", () => {
  const sizes = [
    { width: 1280, height: 720 },
    { width: 1080, height: 1080 },
  ];
  for (const [name, reply] of [
    ["a 20,000-character reply", hugeReply],
    ["a reply of control characters and HTML", hostileReply],
  ] as const) {
    for (const output of sizes) {
      it(`${name} stays inside the pane on every frame of its turn (${output.width}x${output.height}), capped at ${MAX_REPLY_LINES} lines`, () => {
        const text = reply();
        if (name.startsWith("a 20")) expect(text.length).toBe(20_000);
        const turn = 2;
        const t = withReply(trieste, turn, text);
        const props = RolloutPropsSchema.parse({ ...t, output });
        const L = rolloutLayout(output.width, output.height, t.viewport);
        const pane = boxOf(L.trace);
        const seg = t.segments.find((s) => s.kind !== "opening" && s.turn === turn)!;
        const replyLines = new Set<string>();
        const replySize = 13.5 * L.unit;
        // One layouter for the segment, as the engine has; it counts the characters it measures.
        const measure = nodeMeasure();
        let measured = 0;
        let firstFrame = 0;
        const layouter = measuringLayouter((s, font) => ((measured += s.length), measure(s, font)));
        for (let f = seg.startFrame; f < seg.startFrame + seg.durationFrames; f++) {
          const prims = textsInGroup(rolloutScene(props, f, layouter), pane);
          if (f === seg.startFrame) firstFrame = measured;
          expectInside(prims, pane, `frame ${f}`);
          for (const p of prims) if (p.font.size === replySize && p.font.role === "sans") replyLines.add(p.text);
        }
        // The reply's lines, broken once for the segment: capped, the cut marked; the frames show only those.
        const layout = replyLayout(
          new Draw(tx()),
          t.trace.find((e) => e.turn === turn)!,
          pane,
          L.unit,
        );
        expect(layout.lines.length).toBe(MAX_REPLY_LINES);
        expect(layout.lines.at(-1)!.endsWith("…"), "the cut is marked").toBe(true);
        expect([...replyLines].every((l) => layout.lines.includes(l))).toBe(true);
        expect(replyLines.has(layout.lines.at(-1)!), "the reply scrolls to its last line").toBe(true);
        if (name.includes("HTML")) {
          const all = [...replyLines].join("\n");
          expect(all).toContain("<script>alert('x')</script>");
          expect(all).toContain("<img src=x onerror=alert(1)>");
        }
        // Scenes stay cheap with a huge reply: its lines are broken once for the segment, not per frame.
        console.log(`${name}: ${firstFrame} characters measured for the first frame, ${measured - firstFrame} for the next ${seg.durationFrames - 1}`);
        // Later frames measure only a few short labels; wrapping the reply again would cost its first frame's share each frame.
        expect(measured - firstFrame, "characters measured after the segment's first frame").toBeLessThan(250);
      });
    }
  }
});

describe("the two-up trace strip", () => {
  it("both huge replies stay inside each side's strip on every frame of the turn", () => {
    const turn = 2;
    const props: CompareProps = ComparePropsSchema.parse({
      version: 1,
      a: { timeline: withReply(base, turn, hugeReply()), arm: "base", pass: 0, label: "A · base" },
      b: { timeline: withReply(ckpt, turn, hostileReply()), arm: "ckpt200", pass: 1, label: "B · ckpt200" },
    });
    const clock = compareClock(props);
    const slot = clock.slots.find((s) => s.kind === "turn" && s.turn === turn)!;
    const L = compareLayout(1280, 720, [base.viewport, ckpt.viewport]);
    for (let f = slot.startFrame; f < slot.startFrame + slot.durationFrames; f++) {
      const scene = compareScene(props, f, tx());
      L.columns.forEach((c, i) => {
        // The strip's text is drawn inside a group clipped to the strip (rounded).
        const strip = { ...boxOf(c.trace), r: 8 * L.unit };
        const g = scene.prims.find((p) => p.t === "push" && p.clip?.x === strip.x && p.clip?.y === strip.y && p.clip?.w === strip.w && p.clip?.h === strip.h);
        expect(g, `frame ${f} side ${i}: the strip's clip`).toBeDefined();
        const clip = (g as { clip: Box }).clip;
        expectInside(textsInGroup(scene, clip), boxOf(c.trace), `frame ${f} side ${i}`);
      });
    }
  });
});
