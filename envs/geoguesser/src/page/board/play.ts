/**
 * The board page's player (and the folder form of a run page's), on the
 * Node side: per episode the compact PlayRecord its chunk (or detail batch)
 * carries (the browser plans the video from it: see
 * player/board-episode.ts), and once per page what every episode's maps
 * read (atlas cells, gazetteer places), the fonts its text needs and the
 * page's inputs for the `georeplay render` command. Nothing per frame is
 * embedded: 12,800 planned episodes would not fit the board's size goal.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { VerifiedEpisode } from "../../../replay/verify/verify.ts";
import { planEpisode, PlanError } from "../../../replay/plan/segments.ts";
import { anyPanoPath } from "../../../replay/panos/files.ts";
// The environments' compositions, registered before any scene is built.
import "../../../../compositions.ts";
import { sceneAt } from "../../../../../video/compositions.ts";
import type { GeoVideoSpec } from "../../../video/composition.ts";
import { measuringLayouter } from "../../../../../video/text/layouter.ts";
import { RolloutPropsSchema } from "../../../video/rollout/props.ts";
import { MapReads } from "../../../../../src/film/shared/map-reads.ts";
import { cellsFor, type Atlas } from "../../../../../video/map/atlas.ts";
import { minPopulation, placeCellsFor, type Place } from "../../../../../video/map/places.ts";
import { readPlaces } from "../../../../../src/film/shared/map-data.ts";
import type { PageEpisode, PlayRecord, PlayTurn } from "../model.ts";
import { scriptJson } from "../../../../../src/page/escape.ts";
import { boardVideo } from "../player/board-episode.ts";
import { fontsFor } from "../../../../../src/page/fonts.ts";
import { BOARD_PANOS_ID, PLAYER_FPS, PLAYER_META_ID, PLAYER_OUTPUT, type PlayerMeta } from "../player/format.ts";
import type { RenderInputs } from "../player/render-command.ts";
import type { PanoTable } from "../pano-table.ts";

/** The outcome fields the timeline reads (envs/geoguesser/replay/frames/build-timeline.ts outcomeOf). */
const OUTCOME_KEYS = ["guess", "truth", "distance_km", "reward", "verdict", "action_cost", "turns_used", "forced_guess"] as const;

/** The atlases of framings wider than a region (video/map/atlas.ts atlasFor: over 8 degrees half-width). */
const WIDE_ATLASES: Atlas[] = ["50m", "110m"];
/** The population floor of those framings (video/map/places.ts minPopulation). */
const WIDE_FLOOR = minPopulation(9);

/** Layout-free measuring for the maps pass: map framings do not depend on text widths. */
const roughMeasure = (text: string, font: { size: number }) => text.length * font.size * 0.55;

export class BoardPlayer {
  private readonly reads = new MapReads();
  private readonly chars = new Set<number>();
  count = 0;

  constructor(private readonly inputs: RenderInputs) {
    // Digits, punctuation and the HUD's words are always drawn.
    for (let cp = 0x20; cp < 0x7f; cp++) this.chars.add(cp);
  }

  /**
   * The episode's PlayRecord, or null when it cannot play (a slideshow, a plan error, a view
   * with neither an exact image nor a panorama, a frame whose panorama is not in the page).
   * `page` is the episode as its chunk stores it (views pointing at panoramas).
   */
  async record(v: VerifiedEpisode, page: PageEpisode, panos: PanoTable, panosDir: string | undefined): Promise<PlayRecord | null> {
    const ep = v.episode;
    if (v.format === "example" || v.task === null || !panosDir) return null;
    if (v.views.some((o) => o.status === "error" || !o.rendered)) return null;
    let plan;
    try {
      plan = planEpisode(ep, { fps: PLAYER_FPS });
    } catch (e) {
      if (e instanceof PlanError) return null;
      throw e;
    }
    const outcomes = new Map(v.views.map((o) => [o.turn, o]));
    const keyTurns = new Set(plan.jobs.flatMap((j) => (j.kind === "keyframe" ? [j.turn] : [])));
    const digests = new Map<string, number>();
    const turns: PlayTurn[] = ep.turns.map((t) => {
      const p: PlayTurn = {};
      if (t.image_sha256) {
        const d = t.image_sha256.toLowerCase();
        if (!digests.has(d)) digests.set(d, digests.size);
        p.d = digests.get(d)!;
      }
      if (keyTurns.has(t.turn)) {
        const o = outcomes.get(t.turn);
        // `frames` names a keyframe by its bytes' sha256, whatever digest the record carries (training records: a short one).
        p.s = o && o.status !== "mismatch" ? (o.jpeg ? createHash("sha256").update(o.jpeg).digest("hex") : o.rendered) : null;
      }
      if (typeof t.total_moved_meters === "number") p.m = t.total_moved_meters;
      if (t.pins) p.p = t.pins.map(([a, b]) => [a, b]);
      if (t.action) p.a = t.action as Record<string, unknown>;
      if (t.done !== undefined && t.done !== null) p.done = t.done;
      return p;
    });
    const frames: Record<string, [number, number]> = {};
    for (const job of plan.jobs) {
      if (job.kind !== "render" || String(job.frameIndex) in frames) continue;
      const frame = v.task.frames[job.frameIndex];
      const path = frame ? anyPanoPath(panosDir, frame.image_id) : null;
      if (!frame || path === null) return null;
      try {
        frames[String(job.frameIndex)] = [await panos.add(path), frame.compass_angle ?? 0];
      } catch {
        return null; // the page says already which panorama it could not embed
      }
    }
    const o = ep.outcome as Record<string, unknown> | null | undefined;
    const outcome = o ? Object.fromEntries(OUTCOME_KEYS.filter((k) => k in o).map((k) => [k, o[k]])) : null;
    const play: PlayRecord = { turns, outcome, frames, ...(!ep.task.task_id && v.task.task_id ? { taskId: v.task.task_id } : {}) };
    let video;
    try {
      video = boardVideo(page, play);
    } catch {
      return null;
    }
    this.visitMaps({ composition: "Rollout", props: RolloutPropsSchema.parse({ ...video.timeline, output: PLAYER_OUTPUT }) });
    for (const t of page.turns) for (const s of [t.reply, t.call, t.feedback, ...t.errors]) if (s) for (const ch of s) this.chars.add(ch.codePointAt(0)!);
    for (const s of [page.model, page.country, page.verdict, page.id]) if (s) for (const ch of s) this.chars.add(ch.codePointAt(0)!);
    this.count++;
    return play;
  }

  /**
   * A Rollout video draws maps only on map segments with pins (video/rollout/state.ts: showMap)
   * and on the score card, each framing fixed within its segment: the first and last frames of
   * those segments show every one (the same pins once).
   */
  private visitMaps(spec: Extract<GeoVideoSpec, { composition: "Rollout" }>): void {
    const tx = measuringLayouter(roughMeasure);
    const seen = new Set<string>();
    for (const s of spec.props.segments) {
      if (s.kind !== "score" && !(s.kind === "map" && s.pins.length > 0)) continue;
      const key = `${s.kind}|${JSON.stringify(s.pins)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.reads.visit(sceneAt(spec, s.startFrame, tx));
      if (s.durationFrames > 1) this.reads.visit(sceneAt(spec, s.startFrame + s.durationFrames - 1, tx));
    }
  }

  /** The atlas cells the player reads: its episodes' framings and every 50m and 110m cell (see metaJson). */
  cellKeys(): string[] {
    const world = { lon: [-180, 179.999] as [number, number], lat: [-90, 89.999] as [number, number] };
    return [...this.reads.cells(), ...WIDE_ATLASES.flatMap((a) => cellsFor(a, world).map((c) => c.key))];
  }

  /**
   * The page-wide table, as JSON safe inside a script element. Besides what the episodes'
   * maps read: every 50m and 110m atlas cell and every place a framing that wide names, for
   * the framings no single episode shows (the two-up's score card spans both guesses and
   * the truth: any pair of a task's attempts). A city-scale pair framing (10m) may still
   * read a cell none of its episodes did: that map then lacks it.
   */
  metaJson(): string {
    const world = { lon: [-180, 179.999] as [number, number], lat: [-90, 89.999] as [number, number] };
    const places: Record<string, Place[]> = {};
    const read = new Set(this.reads.placeCells());
    for (const { key } of placeCellsFor(world)) {
      const all = readPlaces(key);
      const named = new Set(read.has(key) ? this.reads.trim(key, all) : []);
      const kept = all.filter((p) => p[3] >= WIDE_FLOOR || named.has(p));
      if (!kept.length) continue;
      places[key] = kept;
      for (const p of kept) for (const ch of p[0]) this.chars.add(ch.codePointAt(0)!);
    }
    const gz = (value: unknown) => gzipSync(Buffer.from(JSON.stringify(value)), { level: 9 }).toString("base64");
    const meta: PlayerMeta = {
      version: 1,
      kind: "board",
      // Every face of the video's two families (whichever a board's episodes need: ~0.4 MB once), only the subsets its text reaches.
      fonts: fontsFor(this.chars),
      // The atlas cells are the page's one table (map-cells.ts), shared with the page's maps: cellKeys().
      places: gz(places),
      episodes: {},
      inputs: this.inputs,
    };
    return scriptJson(meta);
  }
}

/** The page's closing text with the player's table before `</body>`. */
export function boardPlayerTail(tail: string, player: BoardPlayer): string {
  const at = tail.lastIndexOf("</body>");
  if (at < 0) throw new Error("page tail without </body>");
  return `${tail.slice(0, at)}<script type="application/json" id="${PLAYER_META_ID}">${player.metaJson()}</script>\n${tail.slice(at)}`;
}

/**
 * A folder run page's closing text around its panorama table (a board's sits in its template): the
 * text before the table, which the caller streams from its part file, and the text after it.
 */
export function boardPanosTail(tail: string): [string, string] {
  const at = tail.lastIndexOf("</body>");
  if (at < 0) throw new Error("page tail without </body>");
  return [`${tail.slice(0, at)}<script type="application/json" id="${BOARD_PANOS_ID}">[`, `]</script>\n${tail.slice(at)}`];
}
