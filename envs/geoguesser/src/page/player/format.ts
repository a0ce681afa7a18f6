/**
 * The player's embedded data, shared by the page writer (embed.ts) and the
 * browser side (types only there). Element ids are the contract with the page.
 */
import type { VideoProps } from "../../../../../video/env-compositions.ts";
import type { RenderInputs } from "./render-command.ts";
import type { PlayerFont } from "../../../../../src/page/fonts.ts";

/** The video's own clock and size: the player paints what `render` encodes. */
export const PLAYER_FPS = 30;
export const PLAYER_OUTPUT = { width: 1280, height: 720 } as const;
/**
 * Size of an in-between frame made in the browser. The embedded panorama is
 * 1024 px around, so a 90° view holds 256 of its pixels across (85 at 30°):
 * 320 px keeps all of them, and is a quarter of the work of the 640 px
 * frame files (SwiftShader, the JS fallback). The painter scales it into
 * the viewport as it scales every frame file.
 */
export const REPROJECTION_SIZE = 320;

export const PLAYER_META_ID = "gr-player";
/** A board page's one table of atlas cells (src/page/board/map-cells.ts): its maps' and its player's. */
export const MAP_CELLS_ID = "gr-map-cells";
export const PLAYER_PANOS_ID = "gr-player-panos";
/** The panorama table of a page whose browser plans its videos (src/page/pano-table.ts): a board's, a folder run page's. */
export const BOARD_PANOS_ID = "gr-panos";

/**
 * A frame file: `[image]` a verified view in the page's image table; `[image, pano, heading,
 * pitch, fov]` the same with the camera it was seen from, on a panorama an in-between frame of
 * the episode is reprojected from (exact.ts: those frames take their pixels from it where it
 * covers them); or `[pano, heading, pitch, fov]` a reprojection.
 */
export type FileSource = [number] | [number, number, number, number] | ExactView;

/** A verified view and its camera: `[image, pano, heading, pitch, fov]`. */
export type ExactView = [number, number, number, number, number];

/** Whether a frame file is a verified view (with or without its camera). */
export const isView = (f: FileSource): f is [number] | ExactView => f.length !== 4;

export interface PlayerEpisode<P = VideoProps> {
  /** The composition's props (GeoGuesser's Rollout: timeline, output size and text plan). */
  props: P;
  /** Indexed by frame file number (the plan's files are `000000.jpg`, `000001.jpg`, ... in order). */
  files: FileSource[];
  /** The `georeplay render` command for an MP4 of this episode. */
  render: string;
}

/** A font face the player registers (declared with the page's fonts, src/page/fonts.ts). */
export type { PlayerFont };

export interface PlayerMeta {
  version: 1;
  /**
   * "run" (default): episodes embedded planned (PlayerEpisode), panoramas in the player's table;
   * "board": episodes planned in the browser from their task chunk's PlayRecord, panoramas in the board's table.
   */
  kind?: "run" | "board";
  fonts: PlayerFont[];
  /**
   * The atlas cells the episodes' maps read (video/map's cells, key -> cell or null), gzip JSON as base64.
   * Board pages leave it out: their player reads the page's one table (MAP_CELLS_ID), shared with the page's maps.
   */
  cells?: string;
  /** Board pages: the gazetteer cells the maps read (key -> places some framing names), gzip JSON as base64. */
  places?: string;
  /** episode id -> gzip JSON (base64) of a PlayerEpisode (run pages; a board's are in its chunks). */
  episodes: Record<string, string>;
  /** Board pages: the page's inputs, for the `georeplay render` command the player shows. */
  inputs?: RenderInputs;
}

/** The data file kind of a live episode's player data (data/player-<n>.js). */
export const LIVE_PLAYER_KIND = "player";

/**
 * A live episode's player data: `georeplay serve` plans an episode appended while it runs only when
 * a reader presses its play button, and writes data/player-<n>.js with the episode and the tables it
 * reads (its fonts, map cells and panoramas, its views' file paths), or why it cannot play.
 */
export type LivePlayerData = { error: string } | { meta: PlayerMeta; panos: string[]; views: string[] };

/** A unicode-range as numbers: browsers hand it back rewritten ("U+0000-00FF" as "U+0-FF"). */
export function rangeKey(range: string): string {
  return range
    .split(",")
    .map((part) =>
      part
        .trim()
        .replace(/^U\+/i, "")
        .split("-")
        .map((h) => parseInt(h, 16))
        .join("-"),
    )
    .join(",");
}
