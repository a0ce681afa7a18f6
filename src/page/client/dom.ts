/**
 * Small DOM helpers for the page client. Trace strings only ever reach the
 * DOM through textContent and attribute setters here, never as markup.
 */
import type { Child } from "../markup.ts";

export const SVG_NS = "http://www.w3.org/2000/svg";

export function el(tag: string, cls?: string | null, text?: string | null): HTMLElement {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text != null) n.textContent = text;
  return n;
}

export function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const n = document.createElementNS(SVG_NS, tag) as SVGElement;
  for (const k in attrs) n.setAttribute(k, String(attrs[k]));
  return n;
}

/** Markup data (markup.ts) as DOM nodes: every string a text node, every attribute set as a value, never parsed as markup. */
export function toDom(m: Child, inSvg = false): Node {
  if (typeof m === "string") return document.createTextNode(m);
  const svgNode = inSvg || m.tag === "svg";
  const n = svgNode ? document.createElementNS(SVG_NS, m.tag) : document.createElement(m.tag);
  for (const k in m.attrs) n.setAttribute(k, String(m.attrs[k]));
  for (const c of m.children) n.appendChild(toDom(c, svgNode));
  return n;
}

export function badge(kind: string, text: string): HTMLElement {
  return el("span", "badge b-" + kind, text);
}

/** The JSON inside one of the page's inert `<script type="application/json">` elements. */
export function readJson<T>(id: string): T {
  return JSON.parse((document.getElementById(id) as HTMLElement).textContent || "null") as T;
}

export const fmt = (x: number | null | undefined, d: number): string => (x == null ? "–" : x.toFixed(d));
export const km = (x: number | null): string => (x == null ? "–" : x < 10 ? x.toFixed(2) + " km" : Math.round(x).toLocaleString("en-US") + " km");

/** Appends one <option> per value to a select (value as given, label by `label`). */
export function fillSelect(s: HTMLSelectElement, values: string[], label: (v: string) => string = (v) => v): void {
  for (const v of values) {
    const o = el("option", null, label(v)) as HTMLOptionElement;
    o.value = v;
    s.appendChild(o);
  }
}

/** Adds the values a select does not offer yet (a live page's new arms, countries, verdicts), after its options. */
export function addOptions(s: HTMLSelectElement, values: string[], label: (v: string) => string = (v) => v): void {
  const have = new Set(Array.from(s.options, (o) => o.value));
  fillSelect(
    s,
    values.filter((v) => !have.has(v)),
    label,
  );
}
