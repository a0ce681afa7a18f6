/**
 * The `georeplay render` command for an MP4 of an episode, as the player
 * shows it for copying (never run). Pure: the board's player builds it in
 * the browser from the page's inputs, the run page's embed in Node.
 */
import { slugFor } from "../../../replay/frames/slug.ts";

/** Where the inputs of a `georeplay render` command for an episode come from (as the page's builder was given them). */
export interface RenderInputs {
  episodes: string[];
  tasks?: string;
  panos?: string;
}

/** A shell word, quoted only when it needs to be (the command is shown for copying, never run). */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+#-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function renderCommand(inputs: RenderInputs, episodeId: string): string {
  const words = ["npx", "georeplay", "render", ...inputs.episodes, "--episode", episodeId];
  if (inputs.tasks) words.push("--tasks", inputs.tasks);
  if (inputs.panos) words.push("--panos", inputs.panos);
  words.push("-o", `${slugFor(episodeId)}.mp4`);
  return words.map(shellWord).join(" ");
}

/** The two-up MP4 of two attempts (`render --versus`). */
export function renderVersusCommand(inputs: RenderInputs, a: string, b: string): string {
  const words = ["npx", "georeplay", "render", ...inputs.episodes, "--episode", a, "--versus", b];
  if (inputs.tasks) words.push("--tasks", inputs.tasks);
  if (inputs.panos) words.push("--panos", inputs.panos);
  words.push("-o", `${slugFor(a)}-vs-${slugFor(b)}.mp4`);
  return words.map(shellWord).join(" ");
}
