/**
 * A GRPO group to one MP4 (the Group composition): the group is found as
 * `georeplay groups` computes it (replay/groups/: membership, TRL's
 * advantages under --scale-rewards), then every sibling is found, verified
 * (a drifted view aborts before anything is encoded, unless --unverified,
 * which stamps that tile) and filmed into the video's private folder, and all
 * are encoded together by the chosen engine and renamed into place. Nothing
 * partial is left at the output path; every temporary folder is removed.
 */
import { basename } from "node:path";
import { findEpisode, prepareEpisode, writeFrames, type FramesOptions, type FramesResult, type FoundEpisode } from "../../replay/frames/frames.ts";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { readGroups, rolloutFiles } from "../../../../replay/groups/read.ts";
import { findGroup, parseGroupRef } from "../../../../replay/groups/find.ts";
import { inRankOrder } from "../../../../replay/groups/groups.ts";
import type { GroupEntry } from "../../../../replay/groups/groups-schema.ts";
import type { ScaleRewards } from "../../../../replay/groups/stats.ts";
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import { TaskIndex } from "../../replay/tasks/task-index.ts";
import { GroupPropsSchema, MAX_GROUP_SIZE, type GroupProps } from "../../video/group/props.ts";
import { deferredImages, framesOptionsFor, type RenderEpisodeOptions } from "./render-episode.ts";
import { filmPrepared, workFolder, type EarlySpec, type PreparedVideo } from "../../../../src/film/film-prepared.ts";
import type { Size } from "../../../../src/film/size.ts";

export interface RenderGroupOptions extends Omit<RenderEpisodeOptions, "episode"> {
  /** The group, as `<step>/<split>/<index>`. */
  group: string;
  /** What advantages are divided by (TRL's scale_rewards); default "group". */
  scaleRewards?: ScaleRewards;
}

export interface GroupSiblingResult {
  gen: FramesResult;
  /** `file:line` as given. */
  rollout: string;
  reward: number;
  advantage: number;
}

export interface RenderGroupResult {
  out: string;
  props: GroupProps;
  group: GroupEntry;
  siblings: GroupSiblingResult[];
  size: Size;
  frames: number;
  fps: number;
  renderMs: number;
  framesMs: number;
  painted: number;
}

export interface PreparedGroup extends PreparedVideo {
  spec: { composition: "Group"; props: GroupProps };
  group: GroupEntry;
  siblings: GroupSiblingResult[];
}

/** `file:line` split at its last colon (a file name may hold colons). */
function splitRollout(rollout: string): { file: string; line: number } {
  const at = rollout.lastIndexOf(":");
  return { file: rollout.slice(0, at), line: Number(rollout.slice(at + 1)) };
}

/**
 * Training rollouts record no truth (eval episodes do): the score card's map takes it from the
 * task, at its start frame, where the environment measures the distance from. Null without a
 * task index or row (the card then shows the guesses alone).
 */
async function taskTruth(tasks: TaskIndex | null, split: string, index: number): Promise<[number, number] | null> {
  if (!tasks) return null;
  const row = await tasks.lookup(split, index).then(
    (x) => x.row,
    () => null,
  );
  const start = row?.frames[row.start_frame ?? 0];
  return start ? [start.lat, start.lon] : null;
}

/** The timeline with the task's truth where its outcome has none. */
function withTruth(t: Timeline, truth: [number, number] | null): Timeline {
  return truth && t.outcome && !t.outcome.truth ? { ...t, outcome: { ...t.outcome, truth } } : t;
}

/** The group's entry, as `georeplay groups` computes it from the same inputs. */
export async function resolveGroup(opts: Pick<RenderGroupOptions, "episodes" | "group" | "scaleRewards" | "signal">): Promise<GroupEntry> {
  const ref = parseGroupRef(opts.group);
  const collected = await readGroups(opts.episodes, { signal: opts.signal });
  // Siblings by rank: tile #1 is the highest advantage, as `groups --detail` and the page number them.
  const g = inRankOrder(findGroup(collected.report(opts.scaleRewards ?? "group"), ref));
  if (g.size > MAX_GROUP_SIZE) throw new GeoreplayError(`--group ${opts.group}: ${g.size} siblings; a grid shows at most ${MAX_GROUP_SIZE}`);
  return g;
}

/** A group video's spec from its siblings' timelines and the group's numbers. */
function groupSpec(g: GroupEntry, scaleRewards: ScaleRewards, timelines: Timeline[], size: Size | undefined): PreparedGroup["spec"] {
  const props: GroupProps = GroupPropsSchema.parse({
    version: 1,
    group: {
      run: g.run,
      step: g.step,
      split: g.task.split,
      index: g.task.index,
      groupId: g.group_id,
      scaleRewards,
      mean: g.mean,
      std: g.std,
      zeroStd: g.zero_std,
    },
    siblings: timelines.map((timeline, i) => {
      const { file, line } = splitRollout(g.rollouts[i]);
      return { timeline, reward: g.rewards[i], advantage: g.advantages[i], rollout: `${basename(file)}:${line}` };
    }),
    output: size ?? { width: 1280, height: 720 },
  });
  return { composition: "Group", props };
}

/**
 * Finds the group and each sibling, verifies every sibling once, then films them (in sibling
 * order) into one private folder. `early` hears the provisional spec once all are planned.
 */
export async function prepareGroup(opts: Omit<RenderGroupOptions, "out">, early?: EarlySpec): Promise<PreparedGroup> {
  const files = rolloutFiles(opts.episodes);
  const g = await resolveGroup({ ...opts, episodes: files });
  const scale = opts.scaleRewards ?? "group";
  // Each sibling from its own file, by the id the frames generator gives it (<file name>-L<line>).
  const found: FoundEpisode[] = [];
  for (let i = 0; i < g.size; i++) found.push(await findEpisode([splitRollout(g.rollouts[i]).file], g.episode_ids[i], opts.format));
  const tasks = opts.tasks ? TaskIndex.open(opts.tasks) : null;
  const truths = await Promise.all(found.map((f) => taskTruth(tasks, f.episode.task.split, f.episode.task.index)));
  const work = workFolder(opts.signal);
  try {
    const t0 = performance.now();
    const n = g.size;
    const provisional: (Timeline | null)[] = found.map(() => null);
    const onPlanned = (i: number) => (t: Timeline) => {
      provisional[i] = t;
      if (early && provisional.every((p) => p !== null))
        early(
          groupSpec(
            g,
            scale,
            provisional.map((p, k) => withTruth(p!, truths[k])),
            opts.size,
          ),
        );
    };
    // Frame progress: sibling i's files are share i of the stage.
    const framesOpts = (i: number): FramesOptions =>
      framesOptionsFor(
        { ...opts, episode: g.episode_ids[i] },
        g.episode_ids[i],
        work.dir,
        `s${i + 1}`,
        (done, total) => opts.onProgress?.("frames", i * total + done, n * total),
        onPlanned(i),
      );
    const siblingError = (i: number, e: unknown) =>
      e instanceof GeoreplayError ? new GeoreplayError(`sibling #${i + 1} (${g.rollouts[i]}): ${e.message}`, e.kind, e.problems) : e;
    // Every sibling planned and verified before any is filmed: a drift anywhere stops here.
    const prepared = [];
    for (let i = 0; i < n; i++)
      prepared.push(
        await prepareEpisode(framesOpts(i), found[i]).catch((e) => {
          throw siblingError(i, e);
        }),
      );
    const siblings: GroupSiblingResult[] = [];
    for (let i = 0; i < n; i++) {
      let gen: FramesResult;
      try {
        gen = await writeFrames(prepared[i], framesOpts(i));
      } catch (e) {
        throw siblingError(i, e);
      }
      siblings.push({ gen, rollout: g.rollouts[i], reward: g.rewards[i], advantage: g.advantages[i] });
    }
    return {
      spec: groupSpec(
        g,
        scale,
        siblings.map((s, i) => withTruth(s.gen.timeline, truths[i])),
        opts.size,
      ),
      group: g,
      siblings,
      publicDir: work.dir,
      framesMs: performance.now() - t0,
      deferred: siblings.flatMap((s) => deferredImages(s.gen)),
      dispose: work.dispose,
    };
  } catch (e) {
    work.dispose();
    throw e;
  }
}

export function renderGroupMp4(opts: RenderGroupOptions): Promise<RenderGroupResult> {
  return filmPrepared(
    opts,
    (early) => prepareGroup(opts, early),
    (prepared, r, target) => {
      const props = prepared.spec.props;
      return {
        out: target,
        props,
        group: prepared.group,
        siblings: prepared.siblings,
        size: props.output!,
        frames: r.frames,
        fps: props.siblings[0].timeline.fps,
        renderMs: r.ms,
        framesMs: prepared.framesMs,
        painted: r.painted,
      };
    },
  );
}
