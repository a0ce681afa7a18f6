/**
 * What the player paints, made from the page's tables on the first play:
 * the video spec (Rollout, or the two-up Compare), the text layouter, the
 * frame files' sources (per frames folder: the two-up has two), the turn
 * marks and the `georeplay render` command.
 *
 * One-file run pages embed each episode planned, with Node's text plan. Board
 * pages and folder run pages plan in the browser (board-episode.ts) and lay text out here with the
 * video's own layouter measuring with the canvas: the same Inter and
 * JetBrains Mono files as Node's Skia, loaded from the page before anything
 * is measured, so the lines match Node's within font-rasteriser noise (a
 * width a hair apart can move a break; the test compares timelines, not
 * the text plan).
 */
// GeoGuesser's compositions (the videos this player builds), registered before any is painted; no other environment's in the bundle.
import "../../../video/register.ts";
import { videoFps, videoFrames } from "../../../../../video/spec.ts";
import type { GeoVideoSpec as VideoSpec } from "../../../video/composition.ts";
import { measuringLayouter, planLayouter, type TextLayouter, type TextPlan } from "../../../../../video/text/layouter.ts";
import { cssFont } from "../../../../../video/text/fonts.ts";
import type { Measure } from "../../../../../video/text/lines.ts";
import type { RolloutProps } from "../../../video/rollout/props.ts";
import type { CompareProps } from "../../../video/compare/props.ts";
import { sideLabels } from "../../../video/compare/sides.ts";
import { compareClock } from "../../../video/compare/clock.ts";
import { sideAt, slotAt } from "../../../replay/timeline/align.ts";
import type { PageEpisode } from "../model.ts";
import { boardVideo } from "./board-episode.ts";
import { turnAt, turnMarks, type TurnMark } from "./clock.ts";
import { episodeData, type PageAssets } from "./load.ts";
import { renderCommand, renderVersusCommand } from "./render-command.ts";
import { PLAYER_OUTPUT, type FileSource, type LivePlayerData } from "./format.ts";

/**
 * Where a player's episode comes from: the run page's embedded table (the one-file form), an episode
 * `serve` added live (its data file, planned by the server when asked: `data` loads it), an episode
 * carrying its PlayRecord (a board chunk's, or a folder run page's detail: `run`, whose keyframes
 * are all exact views), or two of them (the two-up).
 */
export type PlaySource =
  | { kind: "run" }
  | { kind: "live"; data: () => Promise<LivePlayerData> }
  | { kind: "board"; episode: PageEpisode; run?: true }
  | { kind: "compare"; a: PageEpisode; b: PageEpisode };

export interface PlayerVideo {
  spec: VideoSpec;
  tx: TextLayouter;
  /** frames folder -> frame file sources, by file number. */
  files: Map<string, FileSource[]>;
  fps: number;
  total: number;
  marks: TurnMark[];
  /** The turn (Rollout) or turn slot (Compare, 0 = opening) a frame shows; null on the score card. */
  turnAt(frame: number): number | null;
  /** Compare: the turn slot each side shows at a frame (both sides run on one clock). */
  sides?(frame: number): [number, number];
  render: string;
  /** Where the browser lays text out: what it laid out so far. */
  plan?: () => TextPlan;
}

function browserMeasure(): Measure {
  const ctx = document.createElement("canvas").getContext("2d")!;
  return (text, font) => {
    ctx.font = cssFont(font);
    return ctx.measureText(text).width;
  };
}

function liveLayouter(a: PageAssets): TextLayouter & { plan(): TextPlan } {
  return measuringLayouter(browserMeasure(), (key) => a.places[key] ?? []);
}

const noRecord = (e: PageEpisode) => new Error(`episode ${e.id} has no video in this page`);

export async function loadVideo(a: PageAssets, id: string, source: PlaySource): Promise<PlayerVideo> {
  // A live episode's tables are its own (load.ts liveAssets); its entry is the run page's.
  if (source.kind === "run" || source.kind === "live") {
    const data = await episodeData<RolloutProps>(a, id);
    const spec: VideoSpec = { composition: "Rollout", props: data.props };
    const tx = planLayouter(data.props.text ?? {}, browserMeasure(), () =>
      console.warn("georeplay player: a line not in the text plan was laid out by the browser"),
    );
    return rollout(spec, tx, new Map([[data.props.framesDir, data.files]]), data.render);
  }
  const inputs = a.meta.inputs ?? { episodes: [] };
  if (source.kind === "board") {
    const e = source.episode;
    if (!e.play) throw noRecord(e);
    const v = boardVideo(e, e.play);
    const spec: VideoSpec = { composition: "Rollout", props: { ...v.timeline, output: PLAYER_OUTPUT } };
    const tx = liveLayouter(a);
    return { ...rollout(spec, tx, new Map([[v.timeline.framesDir, v.files]]), renderCommand(inputs, e.id)), plan: tx.plan };
  }
  const [ea, eb] = [source.a, source.b];
  if (!ea.play) throw noRecord(ea);
  if (!eb.play) throw noRecord(eb);
  const va = boardVideo(ea, ea.play);
  const vb = boardVideo(eb, eb.play);
  // Two ids may share a slug: the painter tells the sides apart by their frames folder.
  if (vb.timeline.framesDir === va.timeline.framesDir) vb.timeline = { ...vb.timeline, framesDir: `${vb.timeline.framesDir}-b` };
  const sa = { arm: ea.model, pass: ea.sample };
  const sb = { arm: eb.model, pass: eb.sample };
  const [la, lb] = sideLabels(sa, sb);
  const props: CompareProps = {
    version: 1,
    a: { timeline: va.timeline, ...sa, label: la },
    b: { timeline: vb.timeline, ...sb, label: lb },
    output: PLAYER_OUTPUT,
  };
  const spec: VideoSpec = { composition: "Compare", props };
  const clock = compareClock(props);
  const marks = clock.slots.filter((s) => s.kind !== "score").map((s) => ({ turn: s.turn, frame: s.startFrame }));
  const slotOf = (side: 0 | 1, frame: number) => {
    const shown = sideAt(clock, (side ? vb : va).timeline.segments, side, frame).index;
    const i = clock.slots.findIndex((s) => s.segments[side] === shown);
    return i < 0 ? slotAt(clock, frame).index : i;
  };
  const tx = liveLayouter(a);
  return {
    spec,
    tx,
    plan: tx.plan,
    files: new Map([
      [va.timeline.framesDir, va.files],
      [vb.timeline.framesDir, vb.files],
    ]),
    fps: videoFps(spec),
    total: videoFrames(spec),
    marks,
    turnAt: (frame) => {
      const s = slotAt(clock, frame).slot;
      return s.kind === "score" ? null : s.turn;
    },
    sides: (frame) => [slotOf(0, frame), slotOf(1, frame)],
    render: renderVersusCommand(inputs, ea.id, eb.id),
  };
}

function rollout(spec: Extract<VideoSpec, { composition: "Rollout" }>, tx: TextLayouter, files: Map<string, FileSource[]>, render: string): PlayerVideo {
  const props = spec.props;
  return { spec, tx, files, fps: props.fps, total: props.totalFrames, marks: turnMarks(props), turnAt: (f) => turnAt(props, f), render };
}
