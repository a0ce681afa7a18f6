/**
 * The environment seam. georeplay's core reads recordings, verifies views by sha256 on a worker
 * pool, shards, eases cameras, groups GRPO siblings, paints scenes and writes pages without knowing
 * what a recording records; each environment (envs/<name>/: its engine in replay/, its command
 * bodies in src/) supplies what only it knows: its records, how a turn's view is rendered to bytes,
 * its camera, its numbers. The registry (envs/index.ts) picks one by the records' `env`.
 *
 * The commands' shared parts (flags, --help, progress, exit codes) stay in src/commands/; an
 * environment gets the parsed options and the inputs, and prints its report.
 */
import type { Command } from "commander";
import type { FramesCliOptions, PageCliOptions, ReportCliOptions, VerifyCliOptions } from "../src/commands/options/command-options.ts";
import type { RenderCliOptions } from "../src/commands/options/render.ts";
import type { ServeRunOptions, Serving } from "../src/serve/serve-common.ts";

export interface Environment {
  /** The records' `env` ("geoguesser" for records without one: the field postdates it). */
  readonly name: string;
  /** How messages name it. */
  readonly title: string;
  /** `georeplay verify`: every view re-rendered and its sha256 compared; exit 0, 1 (drift) or 2 (input). */
  verify(inputs: string[], o: VerifyCliOptions): Promise<void>;
  /** `georeplay frames`: one episode's verified camera path as frame files and timeline.json. */
  frames(inputs: string[], o: FramesCliOptions): Promise<void>;
  /** `georeplay report`: the board of arms, ranked, with paired deltas against --baseline. */
  report(inputs: string[], o: ReportCliOptions): Promise<void>;
  /** `georeplay render`: an episode or a GRPO group on film (the core films what it prepares, src/film/film-prepared.ts). Absent: render refuses its runs. */
  render?(inputs: string[], o: RenderCliOptions, command: Command): Promise<void>;
  /** `georeplay page`: a run or a board as one offline file or a folder. Absent: page refuses its runs. */
  page?(inputs: string[], o: PageCliOptions): Promise<void>;
  /**
   * `georeplay serve`: the environment's live page, served until closed. An environment whose page
   * fits the core's follower hands it its live page (src/serve/live-page.ts) through
   * src/serve/env-serve.ts, which follows the files, keeps the event log and serves. Absent: serve
   * refuses its runs.
   */
  serve?(o: ServeRunOptions): Promise<Serving>;
}
