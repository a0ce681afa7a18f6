/**
 * Two episodes to one two-up MP4 (the Compare composition): both verified
 * before either is filmed, then filmed by the frame generator into one private
 * public dir (drift in either aborts, unless --unverified, which stamps that
 * side), bundled once,
 * rendered with Remotion, renamed into place. As for one episode, nothing
 * partial is left at the output path and every temporary folder is removed.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir, availableParallelism } from "node:os";
import { basename, dirname, extname, join } from "node:path";
import { generateFrames, findEpisode, type FramesOptions, type FramesResult, type FoundEpisode } from "../../replay/frames/frames.ts";
import { listAttempts, pickVersusAttempt } from "../../replay/frames/versus.ts";
import { verifyRun } from "../../replay/verify/verify.ts";
import { alignTimelines } from "../../replay/timeline/align.ts";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../replay/io/abort.ts";
import { ComparePropsSchema, sideLabels, type CompareProps } from "../../video/compare-props.ts";
import { resolveBrowser } from "./browser.ts";
import { openSession } from "./session.ts";
import { checkOutputPath, type RenderEpisodeOptions } from "./render-episode.ts";
import type { Size } from "./size.ts";

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
  /** Screenshots taken (distinct frames; held ones are repeated by the encoder). */
  screenshots: number;
}

function tempMp4For(target: string): string {
  return join(dirname(target), `.${basename(target, extname(target))}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}.mp4`);
}

const sameRecord = (x: FoundEpisode, y: FoundEpisode) => x.file === y.file && x.line === y.line;

/** Which episode is B, as an id generateFrames finds (or the #n given). */
async function resolveVersus(opts: RenderCompareOptions, a: FoundEpisode): Promise<string> {
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

export async function renderCompareMp4(opts: RenderCompareOptions): Promise<RenderCompareResult> {
  const target = checkOutputPath(opts.out);
  const browserExecutable = resolveBrowser();
  const concurrency = opts.concurrency ?? 1;
  if (concurrency > availableParallelism()) throw new GeoreplayError(`--concurrency ${concurrency}: this machine has ${availableParallelism()} cores`);
  const size = opts.size ?? { width: 1280, height: 720 };

  const foundA = await findEpisode(opts.episodes, opts.episode, opts.format);
  const versus = await resolveVersus(opts, foundA);
  const foundB = await findEpisode(opts.episodes, versus, opts.format);
  if (sameRecord(foundA, foundB))
    throw new GeoreplayError(`--versus ${versus}: is episode ${foundA.episode.episode_id} itself (${foundA.file}:${foundA.line}); name another episode`);

  try {
    mkdirSync(dirname(target), { recursive: true });
  } catch (e) {
    throw new GeoreplayError(`-o ${opts.out}: cannot create its folder (${errorMessage(e)})`);
  }
  const work = mkdtempSync(join(tmpdir(), "georeplay-compare-"));
  const tmpOut = tempMp4For(target);
  const cleanup = () => {
    rmSync(tmpOut, { force: true });
    rmSync(work, { recursive: true, force: true });
  };
  const offAbort = onAbort(opts.signal, cleanup);
  try {
    const publicDir = join(work, "public");
    const t0 = performance.now();
    // Frame progress: A's files are the first half of the stage, B's the second.
    const side = async (which: 0 | 1, found: FoundEpisode, wanted: string): Promise<CompareSideResult> => {
      const framesOpts: FramesOptions = {
        episodes: opts.episodes,
        episode: wanted,
        tasks: opts.tasks,
        panos: opts.panos,
        format: opts.format,
        fps: opts.fps ?? 30,
        unverified: opts.unverified ?? false,
        jobs: opts.jobs,
        publicDir,
        out: join(publicDir, which === 0 ? "a" : "b"),
        onProgress: (done, total) => opts.onProgress?.("frames", which * total + done, 2 * total),
        signal: opts.signal,
      };
      let gen: FramesResult;
      try {
        gen = await generateFrames(framesOpts);
      } catch (e) {
        // Say which side failed; the kind (drift: exit 1) is kept.
        if (e instanceof GeoreplayError) throw new GeoreplayError(`${which === 0 ? "--episode (A)" : "--versus (B)"}: ${e.message}`, e.kind, e.problems);
        throw e;
      }
      return { gen, arm: found.episode.model_name, pass: found.episode.task.sample ?? null };
    };
    // Both sides are verified before either is filmed: A by its own frame run (which checks every
    // view first), B here. When B does not check out, its frame run says why (drift: exit 1) now.
    let bFirst: CompareSideResult | null = null;
    if (!opts.unverified && foundB.format !== "example" && opts.tasks && opts.panos) {
      const wanted = foundB.episode.episode_id;
      const check = await verifyRun({
        episodes: opts.episodes,
        tasks: opts.tasks,
        panos: opts.panos,
        format: opts.format,
        jobs: opts.jobs,
        episodeFilter: (e) => e.episode_id === wanted,
        signal: opts.signal,
      });
      if (check.mismatch > 0 || check.errors.length > 0) bFirst = await side(1, foundB, versus);
    }
    const a = await side(0, foundA, opts.episode);
    const b = bFirst ?? (await side(1, foundB, versus));
    const framesMs = performance.now() - t0;
    const [la, lb] = sideLabels(a, b);
    const props: CompareProps = ComparePropsSchema.parse({
      version: 1,
      a: { timeline: a.gen.timeline, arm: a.arm, pass: a.pass, label: la },
      b: { timeline: b.gen.timeline, arm: b.arm, pass: b.pass, label: lb },
      output: size,
    });
    const frames = alignTimelines(props.a.timeline, props.b.timeline).totalFrames;

    let session;
    try {
      throwIfAborted(opts.signal);
      session = await openSession({ publicDir, browserExecutable, signal: opts.signal, onBundleProgress: (p) => opts.onProgress?.("bundle", p, 100) });
    } catch (e) {
      throwIfAborted(opts.signal);
      throw new GeoreplayError(`could not start the renderer (bundling the composition or launching ${browserExecutable}): ${errorMessage(e)}`);
    }
    try {
      // Hold-aware: a side holding its guess while the other plays on, and the settled score card, are screenshotted once.
      const r = await session.renderHoldAware({
        composition: "Compare",
        props,
        outputLocation: tmpOut,
        concurrency,
        onProgress: (done) => opts.onProgress?.("render", done, frames),
      });
      renameSync(tmpOut, target);
      return { out: target, props, sides: [a, b], size, frames, fps: props.a.timeline.fps, renderMs: r.ms, framesMs, screenshots: r.rendered };
    } catch (e) {
      if (e instanceof GeoreplayError) throw e;
      throwIfAborted(opts.signal);
      throw new GeoreplayError(`rendering ${target} failed: ${errorMessage(e)}`);
    } finally {
      await session.close();
    }
  } finally {
    cleanup();
    offAbort();
  }
}
