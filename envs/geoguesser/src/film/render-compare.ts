/**
 * Two episodes to one two-up MP4 (the Compare composition). Each side is
 * prepared once (found, verified, filmed into the video's private folder: a
 * drifted view aborts before anything is encoded, unless --unverified, which
 * stamps that side), then both are encoded together by the chosen engine and
 * renamed into place. Nothing partial is left at the output path and every
 * temporary folder is removed.
 */
import { findEpisode, prepareEpisode, writeFrames, type FramesOptions, type FramesResult, type FoundEpisode } from "../../replay/frames/frames.ts";
import { listAttempts, pickVersusAttempt } from "../../replay/frames/versus.ts";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { ComparePropsSchema, sideLabels, type CompareProps } from "../../video/compare/props.ts";
import { deferredImages, framesOptionsFor, type RenderEpisodeOptions } from "./render-episode.ts";
import { filmPrepared, workFolder, type EarlySpec, type PreparedVideo } from "../../../../src/film/film-prepared.ts";
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import type { Size } from "../../../../src/film/size.ts";

export interface RenderCompareOptions extends RenderEpisodeOptions {
  /** B: an episode id or #n from any of the inputs. Exactly one of `versus` and `versusArm`. */
  versus?: string;
  /** B: this arm's (model_name's) attempt at A's task. */
  versusArm?: string;
  /** With `versusArm`: the pass (task.sample) to take; default A's, else the arm's lowest. */
  pass?: number;
}

export interface CompareSideResult {
  gen: FramesResult;
  arm: string;
  pass: number | null;
}

export interface RenderCompareResult {
  out: string;
  props: CompareProps;
  sides: [CompareSideResult, CompareSideResult];
  size: Size;
  frames: number;
  fps: number;
  renderMs: number;
  framesMs: number;
  /** Frames painted (held ones are repeated by the encoder). */
  painted: number;
}

const sameRecord = (x: FoundEpisode, y: FoundEpisode) => x.file === y.file && x.line === y.line;

/** Which episode is B, as an id generateFrames finds (or the #n given). */
async function resolveVersus(opts: Omit<RenderCompareOptions, "out">, a: FoundEpisode): Promise<string> {
  if (opts.pass !== undefined && opts.versusArm === undefined)
    throw new GeoreplayError("--pass chooses among --versus-arm's attempts (give --versus-arm <arm>); with --versus name the episode itself");
  if ((opts.versus === undefined) === (opts.versusArm === undefined)) throw new GeoreplayError("give exactly one of --versus <id|#n> and --versus-arm <arm>");
  if (opts.versus !== undefined) return opts.versus;
  const attempts = await listAttempts(opts.episodes, opts.format, opts.signal);
  const me = {
    episodeId: a.episode.episode_id,
    arm: a.episode.model_name,
    split: a.episode.task.split,
    index: a.episode.task.index,
    sample: a.episode.task.sample ?? null,
    file: a.file,
    line: a.line,
  };
  const b = pickVersusAttempt(attempts, me, { arm: opts.versusArm!, pass: opts.pass });
  // An id that appears twice would find its first copy: then say which one by ordinal.
  const ordinal = attempts.findIndex((t) => t.file === b.file && t.line === b.line);
  const firstWithId = attempts.findIndex((t) => t.episodeId === b.episodeId);
  return firstWithId === ordinal ? b.episodeId : `#${ordinal + 1}`;
}

export interface PreparedCompare extends PreparedVideo {
  spec: { composition: "Compare"; props: CompareProps };
  sides: [CompareSideResult, CompareSideResult];
}

/** A two-up's spec from its sides' timelines, arms and passes. */
function compareSpec(a: Side, b: Side, size: Size | undefined): PreparedCompare["spec"] {
  const [la, lb] = sideLabels(a, b);
  const props: CompareProps = ComparePropsSchema.parse({
    version: 1,
    a: { timeline: a.timeline, arm: a.arm, pass: a.pass, label: la },
    b: { timeline: b.timeline, arm: b.arm, pass: b.pass, label: lb },
    output: size ?? { width: 1280, height: 720 },
  });
  return { composition: "Compare", props };
}

type Side = { timeline: Timeline; arm: string; pass: number | null };

/**
 * Finds and verifies both sides, once each, then films them (A, then B) into one private folder.
 * `early` hears the provisional spec once both sides are planned (while B's views are verified).
 */
export async function prepareCompare(opts: Omit<RenderCompareOptions, "out">, early?: EarlySpec): Promise<PreparedCompare> {
  const foundA = await findEpisode(opts.episodes, opts.episode, opts.format);
  const versus = await resolveVersus(opts, foundA);
  const foundB = await findEpisode(opts.episodes, versus, opts.format);
  if (sameRecord(foundA, foundB))
    throw new GeoreplayError(`--versus ${versus}: is episode ${foundA.episode.episode_id} itself (${foundA.file}:${foundA.line}); name another episode`);
  const work = workFolder(opts.signal);
  try {
    const t0 = performance.now();
    const found = [foundA, foundB] as const;
    const sideOf = (which: 0 | 1, timeline: Timeline): Side => ({
      timeline,
      arm: found[which].episode.model_name,
      pass: found[which].episode.task.sample ?? null,
    });
    const provisional: [Timeline | null, Timeline | null] = [null, null];
    const onPlanned = (which: 0 | 1) => (t: Timeline) => {
      provisional[which] = t;
      if (early && provisional[0] && provisional[1]) early(compareSpec(sideOf(0, provisional[0]), sideOf(1, provisional[1]), opts.size));
    };
    // Frame progress: A's files are the first half of the stage, B's the second.
    const framesOpts = (which: 0 | 1, wanted: string): FramesOptions =>
      framesOptionsFor(
        opts,
        wanted,
        work.dir,
        which === 0 ? "a" : "b",
        (done, total) => opts.onProgress?.("frames", which * total + done, 2 * total),
        onPlanned(which),
      );
    // Say which side failed; the kind (drift: exit 1) is kept.
    const sideError = (which: 0 | 1, e: unknown) =>
      e instanceof GeoreplayError ? new GeoreplayError(`${which === 0 ? "--episode (A)" : "--versus (B)"}: ${e.message}`, e.kind, e.problems) : e;
    // Both sides found, planned and verified once, before either is filmed: a drift on either stops here.
    const prepare = (which: 0 | 1) =>
      prepareEpisode(framesOpts(which, which === 0 ? opts.episode : versus), which === 0 ? foundA : foundB).catch((e) => {
        throw sideError(which, e);
      });
    const prepared = [await prepare(0), await prepare(1)] as const;
    const side = async (which: 0 | 1): Promise<CompareSideResult> => {
      let gen: FramesResult;
      try {
        gen = await writeFrames(prepared[which], framesOpts(which, which === 0 ? opts.episode : versus));
      } catch (e) {
        throw sideError(which, e);
      }
      const { arm, pass } = sideOf(which, gen.timeline);
      return { gen, arm, pass };
    };
    const a = await side(0);
    const b = await side(1);
    return {
      spec: compareSpec(sideOf(0, a.gen.timeline), sideOf(1, b.gen.timeline), opts.size),
      sides: [a, b],
      publicDir: work.dir,
      framesMs: performance.now() - t0,
      deferred: [...deferredImages(a.gen), ...deferredImages(b.gen)],
      dispose: work.dispose,
    };
  } catch (e) {
    work.dispose();
    throw e;
  }
}

export function renderCompareMp4(opts: RenderCompareOptions): Promise<RenderCompareResult> {
  return filmPrepared(
    opts,
    (early) => prepareCompare(opts, early),
    (prepared, r, target) => {
      const props = prepared.spec.props;
      return {
        out: target,
        props,
        sides: prepared.sides,
        size: props.output!,
        frames: r.frames,
        fps: props.a.timeline.fps,
        renderMs: r.ms,
        framesMs: prepared.framesMs,
        painted: r.painted,
      };
    },
  );
}
