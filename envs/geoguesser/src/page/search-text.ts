/**
 * An episode's text as search sees it, lower-cased: replies, reasoning,
 * prompts, feedback, actions and errors, each distinct line once (a prompt
 * that repeats the conversation so far repeats most of its lines; the search
 * box holds one line, so no match is lost). One function for both forms of
 * a page: the client builds it from an episode's detail (one file), the page
 * writer stores it as the folder form's compact search text (data/text-*.js).
 */
import type { PageEpisode } from "./model.ts";

export function detailText(e: Pick<PageEpisode, "turns" | "errors">): string {
  const all = [...e.turns.flatMap((t) => [t.reply, t.reasoning, t.prompt, t.feedback, t.call, ...t.errors]), ...e.errors]
    .filter(Boolean)
    .join("\n")
    .toLowerCase();
  return [...new Set(all.split("\n"))].join("\n");
}
