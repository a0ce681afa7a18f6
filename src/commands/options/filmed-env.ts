/**
 * render, page and serve: the environment's own body when it has one, else the core's pipeline
 * (still GeoGuesser-shaped). An environment with neither is told so by name before any work
 * (exit 2), with the commands that do read its runs.
 */
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { environmentOf, type Environment } from "../../../envs/index.ts";

const COMMANDS = ["verify", "frames", "report", "render", "page", "serve"] as const;

/** The environment when it films or publishes the run itself (the caller hands it over), null when the core's pipeline does. */
export async function filmingEnvironment(command: "render" | "page" | "serve", inputs: string[]): Promise<Environment | null> {
  const env = await environmentOf(inputs);
  if ((command === "render" && env.render) || (command === "page" && env.page) || (command === "serve" && env.serve)) return env;
  if (env.corePipelines) return null;
  const reads = COMMANDS.filter((c) => typeof env[c] === "function");
  const words = reads.length > 1 ? `${reads.slice(0, -1).join(", ")} and ${reads.at(-1)}` : reads.join("");
  throw new GeoreplayError(`${command} does not read ${env.title} runs yet (${words} do)`);
}
