/**
 * A video's size from its props. Apart from the props' schema so that the
 * scenes, which paint from props already validated, load no validator (the
 * painter's thread then starts without zod).
 */
export const DEFAULT_WIDTH = 1280;
export const DEFAULT_HEIGHT = 720;

export function outputSize(p: { output?: { width: number; height: number } }): { width: number; height: number } {
  return p.output ?? { width: DEFAULT_WIDTH, height: DEFAULT_HEIGHT };
}
