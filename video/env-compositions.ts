/**
 * Compositions an environment brings (envs/<env>/video/), registered by the delivery code that
 * films them: the core scenes know no environment, so they name such a video only by its env
 * and leave its length, rate, size and scenes to what was registered. Every thread that builds
 * scenes registers the same compositions before it does (src/film/env-compositions.ts).
 */
import type { TextLayouter } from "./text/layouter.ts";
import type { Scene } from "./scene/types.ts";
import type { TextPlan } from "./text/layouter.ts";

/** An environment's video: its props are the composition's own (validated when it was made). */
export interface EnvVideo {
  composition: "Env";
  /** The environment and its composition, e.g. "crops/Rollout". */
  env: string;
  props: { text?: TextPlan; output?: { width: number; height: number } } & Record<string, unknown>;
}

export interface EnvComposition {
  frames(props: EnvVideo["props"]): number;
  fps(props: EnvVideo["props"]): number;
  size(props: EnvVideo["props"]): { width: number; height: number };
  scene(props: EnvVideo["props"], frame: number, tx: TextLayouter): Scene;
}

const registered = new Map<string, EnvComposition>();

export function registerEnvComposition(env: string, c: EnvComposition): void {
  registered.set(env, c);
}

export function envComposition(env: string): EnvComposition {
  const c = registered.get(env);
  if (!c) throw new Error(`no composition registered for ${env} videos`);
  return c;
}
