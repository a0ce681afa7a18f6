/**
 * Markup as data: a part of the page both the server writes (as escaped
 * HTML, `toHtml`) and a live page redraws in the browser (as DOM nodes,
 * client/dom.ts `toDom`, text only ever as text nodes), so one function lays
 * it out for both. Pure, browser-safe.
 */
import { escapeHtml } from "./escape-html.ts";

export interface Markup {
  tag: string;
  attrs: Record<string, string | number>;
  children: Child[];
}
export type Child = Markup | string;

/** An element; empty strings among the children are left out. */
export const h = (tag: string, attrs: Record<string, string | number> = {}, ...children: (Child | Child[])[]): Markup => ({
  tag,
  attrs,
  children: children.flat().filter((c) => c !== ""),
});

/** SVG shapes written self-closed (`<path .../>`), as an HTML parser reads them inside <svg>. */
const SELF_CLOSED = new Set(["path", "circle", "polyline", "rect", "line"]);

/** The markup as HTML, every text and attribute value escaped. */
export function toHtml(m: Child): string {
  if (typeof m === "string") return escapeHtml(m);
  const attrs = Object.entries(m.attrs)
    .map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`)
    .join("");
  if (!m.children.length && SELF_CLOSED.has(m.tag)) return `<${m.tag}${attrs}/>`;
  return `<${m.tag}${attrs}>${m.children.map(toHtml).join("")}</${m.tag}>`;
}
