/**
 * Long replies are shown clamped to their first lines (the page's CSS fades
 * them out), with a button to show all: a transcript of a dozen turns stays
 * readable. "expand all" and a search match inside one show it whole.
 */

/** Replies longer than this (in chars, or in lines) are clamped. */
const CLAMP_CHARS = 1200;
const CLAMP_LINES = 16;

export function isLongReply(text: string): boolean {
  return text.length > CLAMP_CHARS || text.split("\n").length > CLAMP_LINES;
}

/** Clamps (on) or shows all of (off) a clamped reply: its rendered Markdown and its button. */
export function setClamp(reply: Element, on: boolean): void {
  const md = reply.querySelector<HTMLElement>(".md[data-clamp]");
  const more = reply.querySelector<HTMLButtonElement>("button.clamp-toggle");
  if (!md || !more) return;
  md.dataset.clamp = on ? "on" : "off";
  more.textContent = on ? "show all" : "show less";
  more.setAttribute("aria-expanded", String(!on));
}
