/**
 * Text is laid out once, where the fonts are measured (Node, with the same
 * font files every painter loads), and the broken lines travel with the
 * props: the browser composition replays the plan instead of breaking lines
 * with its own text engine, so both painters draw the same lines by
 * construction. A plan entry is keyed by everything the layout depends on.
 */
import { cssFont, type FontSpec } from "./fonts.ts";
import { fitLine, wrapText, type Measure } from "./lines.ts";
import type { Place } from "../map/places.ts";
import type { TextPlan } from "./text-plan-schema.ts";

export interface TextLayouter {
  /** One line, cut with an ellipsis to fit `maxWidth`. */
  fit(text: string, font: FontSpec, maxWidth: number): string;
  /** Lines broken at Unicode break opportunities; past `maxLines` the last one ends with an ellipsis. */
  wrap(text: string, font: FontSpec, maxWidth: number, maxLines: number): string[];
  /** Advance width of one line. */
  width(text: string, font: FontSpec): number;
  /**
   * A gazetteer cell's places (maps name them): where fonts are measured the
   * gazetteer is read from disk, and the plan carries the cells the scenes
   * asked for, so the browser composition names the same places. Absent: maps name none.
   */
  places?(cellKey: string): readonly Place[];
}

export type { TextPlan };

const px = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
const key = (op: string, font: FontSpec, w: number | null, n: number | null, text: string) =>
  `${op}|${cssFont(font)}|${w === null ? "" : px(w)}|${n ?? ""}|${text}`;

/**
 * Answers shared by the plans of many videos measured with one Measure (a page's episodes repeat
 * the same strings in the same fonts), keyed exactly (the plan key rounds widths to 1/100 px, so
 * two widths one key apart could lay out differently; this key keeps the full width). A plan
 * takes a copy of what it records, so no plan shares an array with another.
 */
export class LayoutCache {
  private map = new Map<string, string | readonly string[] | number>();
  constructor(private readonly maxEntries = 50_000) {}
  get(key: string): string | readonly string[] | number | undefined {
    return this.map.get(key);
  }
  set(key: string, value: string | readonly string[] | number): void {
    if (this.map.size >= this.maxEntries) this.map.clear();
    this.map.set(key, value);
  }
}

const SHARED_KEY_MAX = 400;

const exactKey = (op: string, font: FontSpec, w: number | null, n: number | null, text: string) =>
  `${op}|${cssFont(font)}|${font.size}|${w ?? ""}|${n ?? ""}|${text}`;

/**
 * Measures (Node: Skia with the registered fonts) and records every answer into a plan. With a
 * `shared` cache (its answers measured with this same `measure`), a layout already made for
 * another plan is recorded without measuring again: the plan is the same, entry for entry and in
 * the same order.
 */
export function measuringLayouter(
  measure: Measure,
  gazetteer?: (cellKey: string) => readonly Place[],
  shared?: LayoutCache,
): TextLayouter & { plan(): TextPlan } {
  const plan: TextPlan = {};
  const cached = <T extends string | readonly string[] | number>(k: string, compute: () => T): T => {
    // Long texts (a reply, a reasoning) rarely repeat: kept out, the cache stays small (~50,000 short keys).
    if (!shared || k.length > SHARED_KEY_MAX) return compute();
    const v = shared.get(k) as T | undefined;
    if (v !== undefined) return v;
    const made = compute();
    shared.set(k, made);
    return made;
  };
  return {
    ...(gazetteer
      ? {
          places(cellKey: string) {
            const k = `places|${cellKey}`;
            let v = plan[k] as Place[] | undefined;
            if (v === undefined) plan[k] = v = [...gazetteer(cellKey)];
            return v;
          },
        }
      : {}),
    fit(text, font, maxWidth) {
      const k = key("fit", font, maxWidth, null, text);
      let v = plan[k] as string | undefined;
      if (v === undefined) plan[k] = v = cached(exactKey("fit", font, maxWidth, null, text), () => fitLine(text, font, Math.max(0, maxWidth), measure));
      return v;
    },
    wrap(text, font, maxWidth, maxLines) {
      const k = key("wrap", font, maxWidth, maxLines, text);
      let v = plan[k] as string[] | undefined;
      if (v === undefined)
        plan[k] = v = [
          ...cached<readonly string[]>(
            exactKey("wrap", font, maxWidth, maxLines, text),
            () => wrapText(text, font, Math.max(1, maxWidth), measure, { maxLines }).lines,
          ),
        ];
      return v;
    },
    width(text, font) {
      const k = key("width", font, null, null, text);
      let v = plan[k] as number | undefined;
      if (v === undefined) plan[k] = v = cached(exactKey("width", font, null, null, text), () => Math.round(measure(text, font) * 100) / 100);
      return v;
    },
    plan: () => plan,
  };
}

/**
 * Replays a plan. A layout the plan lacks (Studio at another size, a timeline
 * without a plan) is measured with `fallback` (the browser's canvas), and
 * reported once through `onMiss` so a preview can say it is approximate;
 * places it lacks come from `gazetteer` (Node's reader of dist/map).
 */
export function planLayouter(plan: TextPlan, fallback: Measure, onMiss?: () => void, gazetteer?: (cellKey: string) => readonly Place[]): TextLayouter {
  const live = measuringLayouter(fallback, gazetteer);
  let missed = false;
  const miss = () => {
    if (!missed) onMiss?.();
    missed = true;
  };
  return {
    fit(text, font, maxWidth) {
      const v = plan[key("fit", font, maxWidth, null, text)];
      if (typeof v === "string") return v;
      miss();
      return live.fit(text, font, maxWidth);
    },
    wrap(text, font, maxWidth, maxLines) {
      const v = plan[key("wrap", font, maxWidth, maxLines, text)];
      if (Array.isArray(v)) return v as string[];
      miss();
      return live.wrap(text, font, maxWidth, maxLines);
    },
    width(text, font) {
      const v = plan[key("width", font, null, null, text)];
      if (typeof v === "number") return v;
      miss();
      return live.width(text, font);
    },
    // A cell the plan lacks is read from the gazetteer where there is one (Node); the browser has none and names nothing.
    places: (cellKey) => (plan[`places|${cellKey}`] as Place[] | undefined) ?? live.places?.(cellKey) ?? [],
  };
}
