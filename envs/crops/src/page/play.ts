/**
 * A crops episode's video as the page's player paints it: the props of `render` (the same
 * frames plan, trace, HUD and score card: film/crops-props.ts), made from what verify saw, with
 * the frame files named for the page's own tables instead of files on disk: `sha:<sha256>` a
 * re-rendered view or thumbnail (the exact bytes the page embeds), `pic:<image_id>` the dataset
 * image, `cam:<x0>,<y0>,<x1>,<y1>` an in-between frame the browser crops from that image (the
 * MP4 renders it with the gym's resize). Never a path from the trace. Carried gzipped (base64),
 * one entry per episode, decoded only when played.
 */
import { gzipSync } from "node:zlib";
import type { CropsRecordSeen } from "../../replay/verify.ts";
import { outcomeOf, planFrames } from "../../replay/frames-plan.ts";
import { fitSize, VIEW_LONG } from "../../replay/geometry.ts";
import type { CropsTimeline } from "../../replay/frames-timeline.ts";
import type { CropsVideoProps } from "../../video/props.ts";
import { cropsVideoProps } from "../film/crops-props.ts";

/** The player's frame rate (render's default). */
export const PLAY_FPS = 30;

export const camFile = (r: readonly number[]): string => `cam:${r.join(",")}`;

export function cropsPlayProps(s: CropsRecordSeen): CropsVideoProps {
  const { rec, task } = s;
  const plan = planFrames(rec, PLAY_FPS, task.width, task.height);
  const index = new Map(rec.turns.map((t, i) => [t.turn, i]));
  const view = (i: number) => `sha:${s.rendered[i].view}`;
  const drifted = rec.turns.filter((t, i) => s.rendered[i].view !== t.image_sha256 || s.rendered[i].thumb !== t.thumb_sha256).map((t) => t.turn);
  const [W, H] = fitSize(task.width, task.height, VIEW_LONG);
  const timeline: CropsTimeline = {
    version: 1,
    env: "crops",
    fps: PLAY_FPS,
    viewport: { width: W, height: H },
    image: { id: task.image_id, width: task.width, height: task.height },
    totalFrames: plan.frames.length,
    framesDir: "",
    episode: {
      episodeId: rec.episode_id,
      modelName: typeof rec.model_name === "string" ? rec.model_name : null,
      split: rec.task.split,
      index: rec.task.index,
      verified: drifted.length === 0,
      drifted,
    },
    keyframes: plan.keyframes.map((k, i) => ({ ...k, file: view(i), sha256: s.rendered[i].view, recordedSha256: rec.turns[i].image_sha256 })),
    frames: plan.frames.map((f) => ({ ...f, file: f.keyframe === null ? camFile(f.camera) : view(index.get(f.keyframe)!) })),
    turns: plan.turns,
    outcome: outcomeOf(rec),
  };
  return cropsVideoProps(rec, timeline, s.gt, { dir: "", thumbs: s.rendered.map((r) => `sha:${r.thumb}`), image: `pic:${task.image_id}` });
}

/** The props as the page carries them: gzipped JSON in base64 (the same props give the same bytes). */
export const playEntry = (p: CropsVideoProps): string => gzipSync(JSON.stringify(p), { level: 9 }).toString("base64");
