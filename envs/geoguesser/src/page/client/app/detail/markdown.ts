/**
 * Model replies rendered as Markdown, by markdown-it (CommonMark, well kept,
 * bundles into the page script), turned into DOM nodes from its token
 * stream: no HTML string is ever parsed, so nothing in a reply can become
 * markup. Raw HTML is off (shown as text), links are inert (their text, with
 * the target in a tooltip: nothing navigates), and images are never fetched
 * (shown as "[image: alt]" text). Only a fixed set of tags is created.
 */
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** The tags a token may open; anything else becomes a <span>. */
const ALLOWED = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "blockquote",
  "strong",
  "em",
  "s",
  "code",
  "pre",
  "hr",
  "br",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
]);

/** Blocks that take their direction from their own first strong letter: an Arabic or Hebrew paragraph reads right to left. */
const OWN_DIRECTION = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "td", "th"]);

function open(tag: string): HTMLElement {
  const n = document.createElement(ALLOWED.has(tag) ? tag : "span");
  if (OWN_DIRECTION.has(tag)) n.dir = "auto";
  return n;
}

function inline(children: Token[], parent: HTMLElement): void {
  const stack: HTMLElement[] = [parent];
  const top = () => stack[stack.length - 1];
  for (const t of children) {
    if (t.type === "text" || t.type === "html_inline") top().appendChild(document.createTextNode(t.content));
    else if (t.type === "softbreak") top().appendChild(document.createTextNode("\n"));
    else if (t.type === "hardbreak") top().appendChild(document.createElement("br"));
    else if (t.type === "code_inline") {
      const c = document.createElement("code");
      c.textContent = t.content;
      top().appendChild(c);
    } else if (t.type === "image") {
      const s = document.createElement("span");
      s.className = "md-image";
      s.textContent = `[image: ${t.content || t.attrGet("src") || ""}]`;
      s.title = `not loaded: ${t.attrGet("src") ?? ""}`;
      top().appendChild(s);
    } else if (t.type === "link_open") {
      const a = document.createElement("span");
      a.className = "md-link";
      a.title = `link (not followed): ${t.attrGet("href") ?? ""}`;
      top().appendChild(a);
      stack.push(a);
    } else if (t.nesting === 1) {
      const n = open(t.tag);
      top().appendChild(n);
      stack.push(n);
    } else if (t.nesting === -1) {
      if (stack.length > 1) stack.pop();
    }
  }
}

/** A reply's Markdown as DOM (a <div class="md">). */
export function renderMarkdown(src: string): HTMLElement {
  const root = document.createElement("div");
  root.className = "md";
  const stack: HTMLElement[] = [root];
  const top = () => stack[stack.length - 1];
  for (const t of md.parse(src, {})) {
    if (t.type === "inline") inline(t.children ?? [], top());
    else if (t.type === "fence" || t.type === "code_block") {
      const pre = document.createElement("pre");
      const code = document.createElement("code");
      code.textContent = t.content;
      if (t.info) pre.dataset.lang = t.info.trim().split(/\s+/)[0];
      pre.appendChild(code);
      top().appendChild(pre);
    } else if (t.type === "html_block") top().appendChild(document.createTextNode(t.content));
    else if (t.type === "hr") top().appendChild(document.createElement("hr"));
    else if (t.nesting === 1) {
      const n = open(t.tag);
      // Tight list items carry hidden paragraphs: markdown-it marks them, the text goes straight into the item.
      if (t.hidden) continue;
      top().appendChild(n);
      stack.push(n);
    } else if (t.nesting === -1) {
      if (t.hidden) continue;
      if (stack.length > 1) stack.pop();
    }
  }
  return root;
}
