/**
 * Per composition: a pure function from (props, output size) to its frame
 * signature (frame number -> string; equal strings, equal pixels). The MP4
 * renderer screenshots only frames whose signature differs from the previous
 * frame's. A composition without an entry has every frame rendered.
 */
import type { RolloutProps } from "./props.ts";
import type { CompareProps } from "./compare-props.ts";
import { rolloutSignature, type FrameSignature } from "./frame-state.ts";
import { compareSignature } from "./compare-state.ts";

export type { FrameSignature } from "./frame-state.ts";
export type SignatureOf<P> = (props: P, size: { width: number; height: number }) => FrameSignature;

/** Every frame distinct: the fallback, and the "full render" the hold-aware one is compared with. */
export const everyFrame: SignatureOf<unknown> = () => (frame) => String(frame);

/** Per composition id, its signature; the props are the composition's own (Root.tsx registers them). */
export const FRAME_SIGNATURES = {
  Rollout: rolloutSignature as SignatureOf<RolloutProps>,
  // The benchmark baseline moves every frame.
  Trivial: everyFrame as SignatureOf<RolloutProps>,
  Compare: ((p: CompareProps) => compareSignature(p)) as SignatureOf<CompareProps>,
};
