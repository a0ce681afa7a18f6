/**
 * What a page embeds so its player can paint an episode's video in the
 * browser, with no render step: per episode the timeline (planned by the same
 * code as `georeplay frames`: planEpisode + buildTimeline), its text plan
 * (laid out in Node with the video's fonts, as `render` does), and where each
 * frame file comes from (a keyframe: the page's own verified view; any other
 * frame: a reprojection of the embedded panorama at the frame's camera).
 * Plus, once per page, the panoramas (downscaled WebP, each once), the
 * Inter / JetBrains Mono files the text needs, and the map topologies.
 *
 * Everything sits in `<script type="application/json">` elements the player
 * reads only on the first play; episode entries are gzip JSON (base64), so
 * a page nobody plays pays only their bytes.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { VerifiedEpisode } from "../../../replay/verify/verify.ts";
import { planEpisode, PlanError } from "../../../replay/plan/segments.ts";
import { buildTimeline } from "../../../replay/frames/build-timeline.ts";
import { framesDirFor, slugFor } from "../../../replay/frames/output.ts";
import { renderCommand, type RenderInputs } from "./render-command.ts";
import { anyPanoPath } from "../../../replay/panos/files.ts";
import { RolloutPropsSchema } from "../../../video/rollout/props.ts";
import { planTextAndMaps } from "../../../../../src/film/shared/text-plan.ts";
import { readMapCell } from "../../../../../src/film/shared/map-data.ts";
import { fontsFor } from "../../../../../src/page/fonts.ts";
import { scriptJson } from "../../../../../src/page/escape.ts";
import { PanoTable } from "../pano-table.ts";
import type { ImageSink } from "../../../../../src/page/images.ts";
import { PLAYER_FPS, PLAYER_META_ID, PLAYER_OUTPUT, PLAYER_PANOS_ID, type FileSource, type PlayerEpisode, type PlayerMeta } from "./format.ts";

export { renderCommand, shellWord, type RenderInputs } from "./render-command.ts";

/** The page's own index of a verified view (the run page's image table, keyed by digest). */
export type ViewIndexer = (digest: string, jpeg: Buffer) => Promise<number>;

const gz = (value: unknown): string => gzipSync(Buffer.from(JSON.stringify(value))).toString("base64");

export class PlayerEmbed {
  private readonly panos: PanoTable;
  private readonly episodes: [string, string][] = [];
  private readonly seen = new Set<string>();
  private readonly chars = new Set<number>();
  /** The faces ("Inter|600|normal") the laid-out text uses: only those are embedded. */
  private readonly faces = new Set<string>();
  /** The atlas cells the embedded episodes' maps read, each once for the page. */
  private readonly cells = new Set<string>();

  constructor(
    panoSink: ImageSink,
    private readonly inputs: RenderInputs,
  ) {
    this.panos = new PanoTable(panoSink);
  }

  get count(): number {
    return this.episodes.length;
  }

  /**
   * Adds a verified replay (eval or training) the player can paint; anything
   * else (a slideshow, an episode the video cannot plan, a view that could not
   * be rendered, a missing panorama) is left out and plays nowhere.
   */
  async add(v: VerifiedEpisode, viewIndex: ViewIndexer): Promise<boolean> {
    const episode = v.episode;
    const row = v.task;
    const panos = this.inputs.panos;
    if (!panos || !mayPlay(v, panos) || row === null || this.seen.has(episode.episode_id)) return false;
    let plan;
    try {
      plan = planEpisode(episode, { fps: PLAYER_FPS });
    } catch (e) {
      if (e instanceof PlanError) return false;
      throw e;
    }
    const byTurn = new Map(v.views.map((o) => [o.turn, o]));
    const keyframeSha = new Map<string, string | null>();
    const files: FileSource[] = [];
    // Task frame -> its panorama in the page, where an in-between frame reads it.
    const panoOf = new Map<number, number>();
    for (const job of plan.jobs) {
      const outcome = job.kind === "keyframe" ? byTurn.get(job.turn) : undefined;
      if (job.kind === "keyframe" && outcome?.jpeg && outcome.rendered) {
        // As `frames` does: the keyframe file is the verified bytes, named by their sha256 unless drifted.
        keyframeSha.set(job.file, outcome.status === "mismatch" ? null : createHash("sha256").update(outcome.jpeg).digest("hex"));
        files.push([await viewIndex(outcome.rendered, outcome.jpeg)]);
        continue;
      }
      const frame = row.frames[job.frameIndex];
      const path = frame ? anyPanoPath(panos, frame.image_id) : null;
      if (!frame || path === null) return false;
      let pano: number;
      try {
        pano = await this.panos.add(path);
      } catch {
        return false; // the page lists the unreadable panorama already (verification read it)
      }
      panoOf.set(job.frameIndex, pano);
      files.push([pano, job.pose.heading + (frame.compass_angle ?? 0), job.pose.pitch, job.pose.fov]);
    }
    // The verified views on those panoramas, with their camera: in-between frames near them are drawn from them.
    plan.jobs.forEach((job, i) => {
      const f = files[i];
      const pano = panoOf.get(job.frameIndex);
      const frame = row.frames[job.frameIndex];
      if (job.kind === "keyframe" && f.length === 1 && pano !== undefined && frame)
        files[i] = [f[0], pano, job.pose.heading + (frame.compass_angle ?? 0), job.pose.pitch, job.pose.fov];
    });
    const timeline = buildTimeline(plan, episode, row, {
      fps: PLAYER_FPS,
      width: 640,
      height: 640,
      // `frames`'s default output folder, so the timeline is the one `frames` writes, byte for byte.
      framesDir: framesDirFor(join("public", "rollouts", slugFor(episode.episode_id)), "public"),
      verified: !v.views.some((o) => o.status === "mismatch"),
      driftedTurns: v.views.filter((o) => o.status === "mismatch").map((o) => o.turn),
      keyframeSha,
      recordFormat: v.format,
      source: "replay",
    });
    const props = RolloutPropsSchema.parse({ ...timeline, output: PLAYER_OUTPUT });
    const { text, cells } = planTextAndMaps({ composition: "Rollout", props });
    for (const c of cells) this.cells.add(c);
    for (const k of Object.keys(text)) {
      const face = faceOfKey(k);
      if (face) this.faces.add(face);
    }
    for (const [k, value] of Object.entries(text)) {
      const strings = [k, ...(Array.isArray(value) ? value : [value])].filter((x): x is string => typeof x === "string");
      for (const s of strings) for (const ch of s) this.chars.add(ch.codePointAt(0)!);
    }
    const entry: PlayerEpisode = { props: { ...props, text }, files, render: renderCommand(this.inputs, episode.episode_id) };
    this.seen.add(episode.episode_id);
    this.episodes.push([episode.episode_id, gz(entry)]);
    return true;
  }

  /** The ids of the episodes that play (the page's play buttons read only this). */
  idsJson(): string {
    return scriptJson(this.episodes.map(([id]) => id));
  }

  /** The atlas cells the episodes' maps read (for a page's one table of cells: see meta). */
  cellKeys(): string[] {
    return [...this.cells];
  }

  /**
   * The small table: fonts, maps, episodes. `ownCells` false: the maps' cells are left to the
   * page's one table (MAP_CELLS_ID), which must hold cellKeys().
   */
  meta(ownCells = true): PlayerMeta {
    return {
      version: 1,
      fonts: fontsFor(this.chars, this.faces),
      ...(ownCells ? { cells: gz(Object.fromEntries([...this.cells].sort().map((k) => [k, readMapCell(k)]))) } : {}),
      episodes: Object.fromEntries(this.episodes),
    };
  }

  /** The small table as JSON safe inside a script element. */
  metaJson(ownCells = true): string {
    return scriptJson(this.meta(ownCells));
  }
}

/**
 * Whether a verified episode may play, as far as its record says without planning its video: a
 * replay (not a slideshow) with its task row, every view rendered, and panoramas to reproject.
 * `add` still refuses one its plan or a panorama fails.
 */
export function mayPlay(v: VerifiedEpisode, panos: string | undefined): boolean {
  return v.format !== "example" && v.task !== null && Boolean(panos) && !v.views.some((o) => o.status === "error" || !o.jpeg);
}

/**
 * The face a text plan key measured with ("fit|600 12px \"Inter\", …|…" -> "Inter|600|normal"):
 * the CSS font shorthand cssFont writes, style, weight, size, then the family chain.
 */
export function faceOfKey(key: string): string | null {
  const css = key.split("|")[1];
  const m = css ? /^(italic )?(\d+) [\d.]+px "([^"]+)"/.exec(css) : null;
  return m ? `${m[3]}|${m[2]}|${m[1] ? "italic" : "normal"}` : null;
}

/**
 * The page's closing text with the player's tables before `</body>`: the
 * text before the panorama table (which the caller streams from its part
 * file) and the text after it.
 */
export function playerTail(tail: string, player: PlayerEmbed, ownCells = true): [string, string] {
  const at = tail.lastIndexOf("</body>");
  if (at < 0) throw new Error("page tail without </body>");
  const before = `${tail.slice(0, at)}<script type="application/json" id="gr-player-ids">${player.idsJson()}</script>
<script type="application/json" id="${PLAYER_META_ID}">${player.metaJson(ownCells)}</script>
<script type="application/json" id="${PLAYER_PANOS_ID}">[`;
  return [before, `]</script>\n${tail.slice(at)}`];
}
