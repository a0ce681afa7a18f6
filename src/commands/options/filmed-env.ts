/**
 * render, page and serve: each environment films and publishes its own runs (its hooks in
 * envs/environment.ts). An environment without the command's hook is told so by name before any
 * work (exit 2), with the commands that do read its runs.
 */
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { environmentOf, type Environment } from "../../../envs/index.ts";

const COMMANDS = ["verify", "frames", "report", "render", "page", "serve"] as const;

/** The environment that recorded the inputs, when it has the command's hook; else an input error naming what does read its runs. */
export async function filmingEnvironment<C extends "render" | "page" | "serve">(
  command: C,
  inputs: string[],
): Promise<Environment & Required<Pick<Environment, C>>> {
  const env = await environmentOf(inputs);
  if (typeof env[command] === "function") return env as Environment & Required<Pick<Environment, C>>;
  const reads = COMMANDS.filter((c) => typeof env[c] === "function");
  const words = reads.length > 1 ? `${reads.slice(0, -1).join(", ")} and ${reads.at(-1)}` : reads.join("");
  throw new GeoreplayError(`${command} does not read ${env.title} runs yet (${words} do)`);
}
