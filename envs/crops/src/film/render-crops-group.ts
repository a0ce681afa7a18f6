/**
 * `render --group` on a crops training run: one GRPO group's siblings (the rollouts of one step
 * on one task), every one verified and its frame files written (envs/crops/replay/frames.ts),
 * in a grid on one clock, then the group's score card. The advantages are the trainer's:
 * `r - mean` as recorded (scale none, the default here), or divided by the group's or the
 * step's std as TRL's scale_rewards says.
 */
import "../../../compositions.ts";
import { copyFileSync } from "node:fs";
import { basename, join } from "node:path";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { readJsonl } from "../../../../replay/io/jsonl.ts";
import { parseGroupRef, groupName } from "../../../../replay/groups/find.ts";
import { advantagesOf, isCloseToZero, mean, rankOrder, sampleStd, type ScaleRewards } from "../../../../replay/groups/stats.ts";
import { cropsFrames } from "../../replay/frames.ts";
import { openDataset, taskOf } from "../../replay/dataset.ts";
import { datasetFor, recordEnv, runFiles } from "../../replay/inputs.ts";
import { cropsGroupSpec } from "../../video/composition.ts";
import { CropsGroupPropsSchema, type CropsGroupProps, type CropsSibling } from "../../video/group-props.ts";
import { CARD_S } from "../../video/props.ts";
import type { EnvVideo } from "../../../../video/env-compositions.ts";
import { filmPrepared, workFolder, type PreparedVideo } from "../../../../src/film/film-prepared.ts";
import { cropsVideoProps } from "./crops-props.ts";
import type { RenderCropsOptions, RenderCropsResult } from "./render-crops.ts";

export interface RenderCropsGroupOptions extends Omit<RenderCropsOptions, "episode"> {
  /** `<step>/<split>/<index>`. */
  group: string;
  /** Default none: the advantage the gym records (r - mean). */
  scaleRewards?: ScaleRewards;
}

interface Member {
  episodeId: string;
  sibling: number;
  reward: number;
  run: string;
  groupId: string | null;
  rollout: string;
}

const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/** The group's rollouts in sibling order, and every reward of its step (the batch's std). */
async function findGroup(files: string[], text: string): Promise<{ members: Member[]; stepRewards: number[] }> {
  const ref = parseGroupRef(text);
  const members: Member[] = [];
  const stepRewards: number[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    for await (const item of readJsonl(file)) {
      if (item.kind === "error") throw new GeoreplayError(`${file}:${item.line}: ${item.message}`);
      recordEnv(item.value, file, item.line);
      const r = item.value as {
        step?: unknown;
        sibling?: unknown;
        episode_id?: unknown;
        run?: unknown;
        group_id?: unknown;
        task?: { split?: unknown; index?: unknown };
        outcome?: { reward?: unknown; score?: unknown };
      };
      const step = num(r.step);
      if (step === null) throw new GeoreplayError(`${file}:${item.line}: step: expected a training rollout's step (--group films training runs), got none`);
      const reward = num(r.outcome?.reward) ?? num(r.outcome?.score);
      if (reward === null) throw new GeoreplayError(`${file}:${item.line}: outcome.reward: expected a number`);
      const split = typeof r.task?.split === "string" ? r.task.split : "";
      const index = num(r.task?.index);
      seen.add(groupName(step, split, index ?? -1));
      if (step === ref.step) stepRewards.push(reward);
      if (step !== ref.step || split !== ref.split || index !== ref.index) continue;
      members.push({
        episodeId: String(r.episode_id),
        sibling: num(r.sibling) ?? members.length,
        reward,
        run: typeof r.run === "string" ? r.run : "",
        groupId: typeof r.group_id === "string" ? r.group_id : null,
        rollout: `${basename(file)}:${item.line}`,
      });
    }
  }
  if (!members.length) {
    const there = [...seen].slice(0, 8).join(", ");
    throw new GeoreplayError(
      `group ${groupName(ref.step, ref.split, ref.index)} not found in ${files.join(", ")}${there ? ` (groups there: ${there}${seen.size > 8 ? ", …" : ""})` : ""}`,
    );
  }
  if (members.length > 16) throw new GeoreplayError(`group ${text}: ${members.length} siblings; a crops group video shows at most 16`);
  return { members: members.sort((a, b) => a.sibling - b.sibling), stepRewards };
}

export interface PreparedCropsGroup extends PreparedVideo {
  spec: EnvVideo;
  props: CropsGroupProps;
}

export async function prepareCropsGroup(o: Omit<RenderCropsGroupOptions, "out">): Promise<PreparedCropsGroup> {
  const files = runFiles(o.inputs);
  const { members, stepRewards } = await findGroup(files, o.group);
  const ref = parseGroupRef(o.group);
  const mode = o.scaleRewards ?? "none";
  const rewards = members.map((m) => m.reward);
  const groupMean = mean(rewards);
  const std = sampleStd(rewards);
  const advantages = advantagesOf(rewards, groupMean, mode, mode === "batch" ? sampleStd(stepRewards) : std);
  const ranks = rankOrder(advantages);
  const work = workFolder(o.signal);
  try {
    const t0 = performance.now();
    const ds = await openDataset(datasetFor(files, o.dataset));
    const siblings: (CropsSibling & { rank: number })[] = [];
    let done = 0;
    for (const [i, m] of members.entries()) {
      const dir = `s${i}`;
      const frames = await cropsFrames({
        inputs: o.inputs,
        episode: m.episodeId,
        dataset: o.dataset,
        out: join(work.dir, dir),
        fps: o.fps ?? 30,
        unverified: o.unverified ?? false,
        signal: o.signal,
        thumbs: true,
        onProgress: (d, total) => o.onProgress?.("frames", done * total + d, total * members.length),
      });
      done++;
      const rec = frames.record;
      const task = taskOf(ds, rec.task.split, rec.task.index)!;
      const image = "frames/image.png";
      copyFileSync(join(ds.dir, task.file), join(work.dir, dir, image));
      const props = cropsVideoProps(rec, frames.timeline, ds.gt.get(rec.task.image_id) ?? [], { dir, thumbs: frames.thumbFiles, image }, o.size);
      siblings.push({ props, sibling: m.sibling, rollout: m.rollout, reward: m.reward, advantage: advantages[i], rank: ranks[i] });
    }
    siblings.sort((a, b) => a.rank - b.rank);
    const props = CropsGroupPropsSchema.parse({
      group: {
        run: members[0].run,
        step: ref.step,
        split: ref.split,
        index: ref.index,
        groupId: members[0].groupId,
        scaleRewards: mode,
        mean: groupMean,
        std,
        zeroStd: isCloseToZero(std),
      },
      siblings: siblings.map(({ rank: _, ...s }) => s),
      cardFrames: Math.round(CARD_S * (o.fps ?? 30)),
      output: o.size ?? { width: 1280, height: 720 },
    } satisfies CropsGroupProps);
    return { spec: cropsGroupSpec(props), props, publicDir: work.dir, framesMs: performance.now() - t0, deferred: [], dispose: work.dispose };
  } catch (e) {
    work.dispose();
    throw e;
  }
}

export function renderCropsGroupMp4(o: RenderCropsGroupOptions): Promise<RenderCropsResult> {
  return filmPrepared(
    o,
    () => prepareCropsGroup(o),
    (p, r, target) => {
      const g = p.props.group;
      const unverified = p.props.siblings.filter((s) => !s.props.timeline.episode.verified).map((s) => s.props.timeline.episode.episodeId);
      return {
        out: target,
        kind: "group",
        episodes: p.props.siblings.map((s) => s.props.timeline.episode.episodeId),
        unverified,
        lines: [
          `group ${g.step}/${g.split}/${g.index} · mean ${g.mean.toFixed(4)} · std ${g.std === null ? "-" : g.std.toFixed(4)}${g.zeroStd ? " (zero spread)" : ""} · scale_rewards ${g.scaleRewards}`,
          ...p.props.siblings.map(
            (s, i) =>
              `#${i + 1} sibling ${s.sibling} ${s.props.timeline.episode.episodeId} (${s.rollout}) score ${s.reward.toFixed(4)} advantage ${s.advantage >= 0 ? "+" : ""}${s.advantage.toFixed(4)}`,
          ),
        ],
        size: p.props.output,
        fps: p.props.siblings[0].props.timeline.fps,
        frames: r.frames,
        renderMs: r.ms,
        framesMs: p.framesMs,
        painted: r.painted,
      };
    },
  );
}
