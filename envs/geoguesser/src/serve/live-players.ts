/**
 * The videos of the episodes `serve` adds live, planned on demand: planning
 * one costs more main-thread time than showing it, and a writer may append
 * a hundred a second, so an arriving episode only gets a number in this
 * table (its row's `video`). When a reader presses its play button the page
 * asks for data/player-<n>.js; the server looks n up here, verifies the
 * episode's line again (the kept scratch copy of its batch: the same views,
 * rendered by the same code), plans it with the page's own PlayerEmbed and
 * writes the file whole: the episode, the fonts its text needs, its map
 * cells and panoramas, and its views' file paths. The file name is the
 * server's number, never anything read from a trace.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { verifyRun, type VerifiedEpisode } from "../../replay/verify/verify.ts";
import type { JobPool } from "../../replay/verify/pool.ts";
import { PlayerEmbed } from "../page/player/embed.ts";
import { LIVE_PLAYER_KIND, type LivePlayerData } from "../page/player/format.ts";
import { dataScript, viewFileName } from "../../../../src/page/output/folder.ts";
import { scriptJson } from "../../../../src/page/escape.ts";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";

/** Where a live episode's record is: its batch's scratch copy (line numbers the input's) and its line. */
export interface LiveVideoRef {
  /** The input it was read from (live-episodes.ts LiveInput). */
  input: { file: string; format: Exclude<InputFormat, "sweep"> };
  copy: string;
  line: number;
  id: string;
}

export interface LivePlayersOptions {
  /** The served page folder. */
  root: string;
  /** A private scratch folder (never served). */
  scratch: string;
  /** The command line's inputs, for the `georeplay render` command the player shows. */
  inputs: readonly string[];
  tasks?: string;
  panos?: string;
  pool: JobPool | undefined;
  signal?: AbortSignal;
}

/** A player data file's path in the page folder: data/player-<n>.js. */
const FILE = new RegExp(`^data/${LIVE_PLAYER_KIND}-(0|[1-9]\\d{0,8})\\.js$`);

export class LivePlayers {
  private readonly refs: LiveVideoRef[] = [];
  private readonly making = new Map<number, Promise<void>>();

  constructor(private readonly o: LivePlayersOptions) {}

  /** Numbers a live episode that may play; its video is planned when a page asks for it. */
  add(ref: LiveVideoRef): number {
    return this.refs.push(ref) - 1;
  }

  /**
   * The server's hook for a file it does not hold: for data/player-<n>.js of a numbered episode, a
   * promise settled once the file is written (planned now, once, whoever asks); null for any other path.
   */
  file(rel: string): Promise<void> | null {
    const m = FILE.exec(rel);
    const n = m ? Number(m[1]) : -1;
    const ref = this.refs[n];
    if (!ref) return null;
    let p = this.making.get(n);
    if (!p) {
      p = this.write(n, ref).finally(() => this.making.delete(n));
      this.making.set(n, p);
    }
    return p;
  }

  private async write(n: number, ref: LiveVideoRef): Promise<void> {
    let data: LivePlayerData;
    try {
      data = await this.plan(n, ref);
    } catch (e) {
      if (this.o.signal?.aborted) throw e;
      data = { error: (e as Error).message };
    }
    atomicWrite(this.o.root, `data/${LIVE_PLAYER_KIND}-${n}.js`, dataScript(LIVE_PLAYER_KIND, n, scriptJson(data)));
  }

  /** The episode verified again from its line, planned as `page` plans it; its tables its own. */
  private async plan(n: number, ref: LiveVideoRef): Promise<LivePlayerData> {
    const v = await this.verified(n, ref);
    const panos: string[] = [];
    const views: string[] = [];
    const embed = new PlayerEmbed(
      { write: async (entry) => void panos.push(entry) },
      { episodes: [...this.o.inputs], tasks: this.o.tasks, panos: this.o.panos },
    );
    const played = await embed.add(v, async (_digest, jpeg) => {
      // The view file the row's detail shows (written when the episode arrived): the same bytes, the same name.
      const rel = viewFileName(jpeg);
      if (!existsSync(join(this.o.root, rel))) atomicWrite(this.o.root, rel, jpeg);
      const at = views.indexOf(rel);
      return at >= 0 ? at : views.push(rel) - 1;
    });
    if (!played) return { error: "this episode's video cannot be planned (a view or a panorama is missing, or its turns do not make a video)" };
    // The table's entries are written as a JSON array's items (`"data:…"`, then `,"data:…"`).
    return { meta: embed.meta(), panos: JSON.parse(`[${panos.join("")}]`) as string[], views };
  }

  /** verifyRun over a copy of the episode's one line (its line number kept), as `verify` checks it. */
  private async verified(n: number, ref: LiveVideoRef): Promise<VerifiedEpisode> {
    let text: string;
    try {
      text = readFileSync(ref.copy, "latin1");
    } catch {
      throw new Error(`episode ${ref.id}: the server's copy of its line is gone`);
    }
    const line = text.split("\n")[ref.line - 1];
    if (!line) throw new Error(`episode ${ref.id}: its line is not in the server's copy`);
    const dir = join(this.o.scratch, String(n));
    mkdirSync(dir, { recursive: true });
    const one = join(dir, basename(ref.copy));
    writeFileSync(one, Buffer.concat([Buffer.alloc(ref.line - 1, 0x0a), Buffer.from(line, "latin1"), Buffer.from("\n")]));
    let found = null as VerifiedEpisode | null;
    try {
      const report = await verifyRun({
        episodes: [one],
        tasks: this.o.tasks,
        panos: this.o.panos,
        format: ref.input.format,
        jobs: 1,
        pool: this.o.pool,
        keepImages: true,
        signal: this.o.signal,
        onEpisode: (v) => void (v.episode.episode_id === ref.id && (found = v)),
      });
      const why = report.errors[0]?.message.split(one).join(ref.input.file) ?? "its record is gone";
      if (!found) throw new Error(`episode ${ref.id} could not be verified again: ${why}`);
      return found;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** A file appears whole or not at all. */
function atomicWrite(root: string, rel: string, data: string | Buffer): void {
  const path = join(root, rel);
  writeFileSync(`${path}.part`, data);
  renameSync(`${path}.part`, path);
}
