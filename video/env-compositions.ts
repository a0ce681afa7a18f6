/**
 * The compositions environments bring (envs/<env>/video/), registered by id through the seam
 * (envs/compositions.ts): the core scenes and both engines know no environment, so a video names
 * its composition only by id and leaves its length, rate, size and scenes to what was registered.
 * Every thread that builds scenes registers the same compositions before it does.
 */
import type { TextLayouter, TextPlan } from "./text/layouter.ts";
import type { Scene } from "./scene/types.ts";

/** What core reads of any composition's props: the text plan and the output size; the rest is the composition's own (validated when it was made). */
export type VideoProps = { text?: TextPlan; output?: { width: number; height: number } } & Record<string, unknown>;

/** A video as data: a registered composition's id and its props. */
export interface EnvVideo {
  /** The composition's id, e.g. "Rollout" or "CropsGroup" (also the Remotion composition's id). */
  composition: string;
  props: VideoProps;
}

export interface EnvComposition {
  frames(props: VideoProps): number;
  fps(props: VideoProps): number;
  size(props: VideoProps): { width: number; height: number };
  scene(props: VideoProps, frame: number, tx: TextLayouter): Scene;
}

/** A file of Remotion's public dir, as the Studio lists it. */
export interface StaticFile {
  name: string;
  src: string;
}

/**
 * What the Remotion Studio needs besides the scenes (registered apart, envs/studio.ts, so that a
 * painter's thread loads no validator): the props' schema, props to show when none are given,
 * and optionally props found in the public dir (e.g. what `npm run demo` writes) to preview instead.
 */
export interface StudioComposition {
  schema?: unknown;
  placeholder: VideoProps;
  preview?(props: VideoProps, files: StaticFile[], read: (src: string) => Promise<unknown>): Promise<VideoProps>;
}

/** Remotion's rule for composition ids (letters, digits, dashes): every engine can name it. */
const ID = /^[A-Za-z0-9-]+$/;
const registered = new Map<string, EnvComposition>();
const studios = new Map<string, StudioComposition>();

export function registerEnvComposition(id: string, c: EnvComposition): void {
  if (!ID.test(id)) throw new Error(`composition id ${JSON.stringify(id)}: letters, digits and dashes only`);
  registered.set(id, c);
}

export function registerStudioComposition(id: string, s: StudioComposition): void {
  studios.set(id, s);
}

export function envComposition(id: string): EnvComposition {
  const c = registered.get(id);
  if (!c) throw new Error(`no composition registered for ${id} videos`);
  return c;
}

/** Every registered composition, in registration order, with its Studio parts when registered. */
export function registeredCompositions(): { id: string; composition: EnvComposition; studio: StudioComposition | null }[] {
  return [...registered].map(([id, composition]) => ({ id, composition, studio: studios.get(id) ?? null }));
}
