/**
 * Runs of equal frames: a frame whose signature (its scene) equals the previous frame's
 * is not rendered again, the encoder repeats the previous image instead.
 */
/** A pure function from frame number to a string: equal strings mean equal pixels. */
export type FrameSignature = (frame: number) => string;

export interface FrameRuns {
  /** The first frame of each run: the frames to screenshot, ascending. */
  frames: number[];
  /** How many video frames each run lasts (sums to the duration). */
  lengths: number[];
}

export function frameRuns(durationInFrames: number, signature: FrameSignature): FrameRuns {
  const frames: number[] = [];
  const lengths: number[] = [];
  let prev: string | null = null;
  for (let f = 0; f < durationInFrames; f++) {
    const s = signature(f);
    if (s === prev) lengths[lengths.length - 1]++;
    else {
      frames.push(f);
      lengths.push(1);
      prev = s;
    }
  }
  return { frames, lengths };
}
