/**
 * render, page and serve run the core's pipelines, which are still GeoGuesser-shaped: an
 * environment whose runs cannot go through them yet is told so, by name, before any work (exit 2).
 */
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { environmentOf } from "../../../envs/index.ts";

export async function requireFilmedEnvironment(command: "render" | "page" | "serve", inputs: string[]): Promise<void> {
  const env = await environmentOf(inputs);
  if (env.filmsAndPublishes !== true) throw new GeoreplayError(`${command} does not read ${env.title} runs yet (${env.filmsAndPublishes})`);
}
