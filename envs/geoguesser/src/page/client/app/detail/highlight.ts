/**
 * Search matches marked where they occur: every text node under a root is
 * scanned (case-insensitively) and each match wrapped in <mark class="hit">.
 * Works on any rendered view (list cells, Markdown replies, prompts), since
 * trace text is only ever in text nodes. Collapsed parts and clamped replies
 * holding a match are opened so the mark can be seen.
 */
import { setClamp } from "./clamp.ts";
export function highlight(root: Node, q: string): number {
  const needle = q.trim().toLowerCase();
  if (!needle) return 0;
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = (n as Text).parentElement;
    if (p && p.tagName !== "MARK" && p.tagName !== "SCRIPT" && (n as Text).data.toLowerCase().includes(needle)) nodes.push(n as Text);
  }
  let hits = 0;
  for (const node of nodes) {
    const text = node.data;
    const low = text.toLowerCase();
    const frag = doc.createDocumentFragment();
    let i = 0;
    for (let j = low.indexOf(needle); j >= 0; j = low.indexOf(needle, i)) {
      if (j > i) frag.appendChild(doc.createTextNode(text.slice(i, j)));
      const m = doc.createElement("mark");
      m.className = "hit";
      m.textContent = text.slice(j, j + needle.length);
      frag.appendChild(m);
      hits++;
      i = j + needle.length;
    }
    if (i < text.length) frag.appendChild(doc.createTextNode(text.slice(i)));
    const details = node.parentElement?.closest("details");
    if (details) (details as HTMLDetailsElement).open = true;
    const clamped = node.parentElement?.closest('.md[data-clamp="on"]')?.closest(".reply");
    if (clamped) setClamp(clamped, false);
    // A raw reply hidden behind its rendered one: the rendered one carries the mark too.
    node.replaceWith(frag);
  }
  return hits;
}
