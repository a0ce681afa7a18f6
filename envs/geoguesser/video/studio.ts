/**
 * What the Remotion Studio shows of GeoGuesser's compositions besides their scenes: the props'
 * schemas, the placeholders, and the preview that swaps in what `npm run demo` wrote to the
 * public dir (a timeline or props.json; for Compare, two timelines of one task). Apart from
 * composition.ts: this loads the validators, which a painter's thread does not.
 */
import type { StaticFile, StudioComposition, VideoProps } from "../../../video/env-compositions.ts";
import { RolloutPropsSchema, type RolloutProps } from "./rollout/props.ts";
import { PLACEHOLDER } from "./rollout/placeholder.ts";
import { ComparePropsSchema, CompareSideSchema, sideLabels, type CompareProps } from "./compare/props.ts";
import { COMPARE_PLACEHOLDER } from "./compare/placeholder.ts";
import { GroupPropsSchema } from "./group/props.ts";
import { GROUP_PLACEHOLDER } from "./group/placeholder.ts";

type Read = (src: string) => Promise<unknown>;
const TimelineSchema = CompareSideSchema.shape.timeline;
type Timeline = CompareProps["a"]["timeline"];
const asProps = (p: object) => p as unknown as VideoProps;

/** Per episode folder under public/rollouts/, its props.json (text laid out in Node) or else its timeline.json. */
function publicTimelineFiles(files: StaticFile[]): StaticFile[] {
  const found = files.filter((f) => /^rollouts\/[^/]+\/(props|timeline)\.json$/.test(f.name));
  const byFolder = new Map<string, StaticFile>();
  for (const f of found.sort((a, b) => a.name.localeCompare(b.name))) {
    const folder = f.name.slice(0, f.name.lastIndexOf("/"));
    if (!byFolder.has(folder) || f.name.endsWith("/props.json")) byFolder.set(folder, f);
  }
  return [...byFolder.values()];
}

async function publicTimeline(files: StaticFile[], read: Read): Promise<RolloutProps | null> {
  const found = publicTimelineFiles(files)[0];
  if (!found) return null;
  try {
    return RolloutPropsSchema.parse(await read(found.src));
  } catch {
    return null; // an unreadable file: keep the placeholder
  }
}

async function publicPair(files: StaticFile[], read: Read): Promise<CompareProps | null> {
  const timelines: Timeline[] = [];
  for (const f of publicTimelineFiles(files)) {
    try {
      timelines.push(TimelineSchema.parse(await read(f.src)));
    } catch {
      /* unreadable: skip it */
    }
  }
  if (timelines.length === 0) return null;
  const key = (t: Timeline) => `${t.episode.split}#${t.episode.index}`;
  const a = timelines.find((t) => timelines.some((u) => u !== t && key(u) === key(t))) ?? timelines[0];
  const b = timelines.find((u) => u !== a && key(u) === key(a)) ?? a;
  const side = (t: Timeline) => ({ arm: t.episode.modelName, pass: null });
  const [la, lb] = sideLabels(side(a), side(b));
  return ComparePropsSchema.parse({ version: 1, a: { timeline: a, ...side(a), label: la }, b: { timeline: b, ...side(b), label: lb } });
}

/** Rollout: given no timeline (the Studio without --props), the first one in the public dir, at the given size and text plan. */
const ROLLOUT_STUDIO: StudioComposition = {
  schema: RolloutPropsSchema,
  placeholder: asProps(PLACEHOLDER),
  async preview(props, files, read) {
    const given = props as unknown as RolloutProps;
    if (given.episode.episodeId !== PLACEHOLDER.episode.episodeId) return props;
    const p = (await publicTimeline(files, read)) ?? given;
    return asProps({ ...p, output: given.output, text: given.text ?? p.text });
  },
};

/** Compare: given no props (the Studio), the first two timelines of one task in the public dir, else the first with itself. */
const COMPARE_STUDIO: StudioComposition = {
  schema: ComparePropsSchema,
  placeholder: asProps(COMPARE_PLACEHOLDER),
  async preview(props, files, read) {
    const given = props as unknown as CompareProps;
    if (given.a.timeline.episode.episodeId !== COMPARE_PLACEHOLDER.a.timeline.episode.episodeId) return props;
    const p = (await publicPair(files, read)) ?? given;
    return asProps({ ...p, output: given.output });
  },
};

const GROUP_STUDIO: StudioComposition = { schema: GroupPropsSchema, placeholder: asProps(GROUP_PLACEHOLDER) };

export const GEOGUESSER_STUDIO: Record<string, StudioComposition> = { Rollout: ROLLOUT_STUDIO, Compare: COMPARE_STUDIO, Group: GROUP_STUDIO };
