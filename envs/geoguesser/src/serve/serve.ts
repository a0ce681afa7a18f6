/**
 * `georeplay serve`: builds the folder form of the page from a snapshot of
 * the inputs' complete lines into a private temp folder, serves it
 * (http-server.ts) and follows the inputs (file-tail.ts): new complete lines
 * are verified and sent to every open page as events (live-episodes.ts; a
 * board's: live-board.ts for its report, live-board-episodes.ts for its list;
 * event-log.ts); their videos are planned when a page first asks for one
 * (live-players.ts). fs.watch wakes the poll early; the interval poll is what
 * it relies on (watch events are lost on some filesystems). Everything
 * lives in the temp folder, removed when the server stops.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { resolveInputs, type InputFormat, type Source } from "../../../../replay/formats/inputs.ts";
import { createPool, type JobPool } from "../../replay/verify/pool.ts";
import { defaultJobs, SMALL_RUN_BYTES } from "../../../../replay/verify/jobs.ts";
import { openPanoDir } from "../../replay/panos/store.ts";
import { buildPage } from "../page/build.ts";
import { firstLines } from "../../../../src/serve/first-lines.ts";
import { FileTail, snapshotLines, type TailStart } from "../../../../src/serve/file-tail.ts";
import { LiveEpisodes, type LiveEpisodesOptions, type LiveInput } from "./live-episodes.ts";
import { LivePlayers } from "./live-players.ts";
import type { CompleteLine } from "../../../../replay/io/line-reader.ts";
import type { BuildPageResult } from "../page/page-options.ts";
import { LiveTraining } from "./live-training.ts";
import { TrainingGroups } from "../page/training.ts";
import { EventLog } from "../../../../src/serve/event-log.ts";
import { BoardMirror } from "./live-board.ts";
import { isBoardInput } from "../page/board/input.ts";
import { openBuiltPage } from "./built-page.ts";
import type { EpisodesEvent, TrainingEvent } from "../page/live-events.ts";
import type { BoardEvent, BoardReportUpdate } from "../page/board/live-event.ts";
import type { BoardEpisodeRow } from "../page/board/data.ts";
import { LiveBoardEpisodes } from "./live-board-episodes.ts";
import { startPageServer, type PageServer } from "../../../../src/serve/http-server.ts";
import { startPollLoop, type PollLoop } from "../../../../src/serve/poll-loop.ts";
import { warnIfReachable, type ServeCommon, type Serving } from "../../../../src/serve/serve-common.ts";

export interface ServeOptions extends ServeCommon {
  tasks?: string;
  panos?: string;
  format?: InputFormat;
  /** Threads rendering views (default: every core; a live run's appends come in bursts). */
  jobs?: number;
}

export type { Serving } from "../../../../src/serve/serve-common.ts";

interface Followed {
  tail: FileTail;
  input: LiveInput;
}

/** Lines verified per event at most (a few seconds of a training step's appends). */
const LINES_PER_EVENT = 128;
/**
 * The header's facts and summary are recomputed over the whole run (medians per model: ~130 ms at
 * 76,800 episodes, on the thread that limits throughput): at most once a second and a tenth of the time.
 */
const COUNTS_EVERY_MS = 1000;
const COUNTS_SHARE = 10;

/** Copies each followed input's complete lines under `snap` (same names, so the page names them the same); returns the inputs to build from. */
function snapshot(inputs: string[], sources: Source[], snap: string): { build: string[]; starts: Map<string, TailStart> } {
  const starts = new Map<string, TailStart>();
  const build = inputs.map((input, i) => {
    const own = sources.filter((s) => s.file === input);
    // Folders (sweeps, example rollouts) are built from where they are; their files are followed from their size now.
    if (own.length !== 1 || own[0].format === "example") return input;
    const dir = join(snap, String(i));
    mkdirSync(dir, { recursive: true });
    const copy = join(dir, basename(input));
    starts.set(input, snapshotLines(input, copy));
    return copy;
  });
  return { build, starts };
}

/** The built page's header facts and summary numbers, for the live episodes to add to. */
function headerOf(built: BuildPageResult): LiveEpisodesOptions["header"] {
  const stats = built.summaryOf?.stats ?? [];
  const { views, images, checked, match, resolved, mismatch } = built;
  const recorded = stats.reduce((n, s) => n + (s.recorded ?? 0), 0);
  return {
    info: { formats: { ...built.formats }, views, images, checked, match, resolved, mismatch, recorded },
    stats,
    errored: built.summaryOf?.errored ?? [],
  };
}

export async function serve(o: ServeOptions): Promise<Serving> {
  const tmp = mkdtempSync(join(tmpdir(), "georeplay-serve-"));
  let pool: JobPool | undefined;
  let server: PageServer | undefined;
  let loop: PollLoop | undefined;
  let closed = false;
  let closing: Promise<void> | null = null;
  // One closing, whoever asks (the abort and the interrupt cleanup both do): each caller waits until the folder is gone.
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      closed = true;
      loop?.stop();
      try {
        await server?.close();
        await pool?.close().catch(() => undefined);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    })());
  try {
    const root = join(tmp, "page");
    await firstLines(o.inputs, o.pollMs, o.signal, o.say);
    const sources = await resolveInputs(o.inputs, o.format);
    // A board is built from a mirror of its sweep (live-board.ts), which then follows the sweep's files.
    const mirror = isBoardInput(sources) ? new BoardMirror(o.inputs, join(tmp, "snap")) : null;
    const { build, starts } = mirror
      ? { build: mirror.inputs, starts: new Map(sources.map((s) => [s.file, mirror.start(s.file)!])) }
      : snapshot(o.inputs, sources, join(tmp, "snap"));
    // The page's training rollouts, named by the inputs (not their copies), go on growing with the live ones.
    const original = new Map(build.map((b, i) => [b, o.inputs[i]]));
    const training = new TrainingGroups((f) => original.get(f) ?? f);
    const built = await buildPage({
      episodes: build,
      tasks: o.tasks,
      panos: o.panos,
      format: o.format,
      baseline: o.baseline,
      title: o.title,
      out: `${root}/`,
      // The episodes there when serve starts play in the page, as `page` gives them (the player's tables:
      // panoramas, fonts, map cells); one added live plays from its own data file, planned on demand (live-players.ts).
      // A board's live episodes are listed and opened, without a player record (live-board-episodes.ts).
      // What a writer leaves in a file is not an error: the page says what could not be read, and goes on.
      partial: true,
      // The page's tables stay in index.html (the server reads them there and extends them live); no search index.
      served: true,
      jobs: o.jobs,
      training,
      signal: o.signal,
    });
    for (const p of [...built.errors, ...built.warnings]) o.say(`warning: ${p.message}`);
    const page = openBuiltPage(root);
    const events = new EventLog(join(tmp, "events"));
    // Made once the pool exists (below); a page cannot ask for a live episode's video before one is listed.
    let players: LivePlayers | undefined;
    server = await startPageServer({ root, events, host: o.host, port: o.port, make: (rel) => players?.file(rel) ?? null });
    warnIfReachable(o.host, o.say);

    const needsReplay = sources.some((s) => s.format !== "example");
    const jobs = o.jobs ?? defaultJobs(SMALL_RUN_BYTES);
    if (needsReplay && o.panos) pool = createPool({ jobs, panos: openPanoDir(o.panos) });
    // A live episode's video needs panoramas (and, but for example rollouts, which never play, the pool).
    if (o.panos && !page.board)
      players = new LivePlayers({ root, scratch: join(tmp, "scratch-play"), inputs: o.inputs, tasks: o.tasks, panos: o.panos, pool, signal: o.signal });
    const liveTraining = new LiveTraining(training);
    const live = new LiveEpisodes({
      root,
      scratch: join(tmp, "scratch"),
      inputs: o.inputs,
      tasks: o.tasks,
      panos: o.panos,
      pool,
      jobs,
      ids: page.ids,
      images: page.images,
      batches: page.batches,
      cells: page.cells,
      header: headerOf(built),
      players,
      onTraining: (r) => liveTraining.add(r),
      signal: o.signal,
    });
    const followed: Followed[] = sources.map((s) => {
      const tail = new FileTail(s.file);
      const start = starts.get(s.file);
      if (start) tail.startAt(start);
      else tail.startAt(snapshotLines(s.file, join(tmp, "scratch-start")));
      return { tail, input: { file: s.file, format: s.format === "example" ? "example" : s.format } };
    });
    rmSync(join(tmp, "scratch-start"), { force: true });

    const board = page.board && mirror ? mirror : null;
    // A board's new episodes are listed and opened as its built ones (live-board-episodes.ts).
    const boardEpisodes =
      board && page.board
        ? new LiveBoardEpisodes({
            root,
            inputs: o.inputs,
            panos: o.panos,
            ids: page.ids,
            images: page.images,
            panoCount: page.board.panos,
            chunks: page.board.chunks,
          })
        : null;
    /** A board's new shard files (a sweep's writer starts one per pass or shard): followed from their first line. */
    const newShards = async () => {
      if (!board) return;
      const now = await resolveInputs(o.inputs, o.format).catch(() => []);
      for (const s of now) {
        if (followed.some((f) => f.input.file === s.file)) continue;
        board.start(s.file, false);
        followed.push({ tail: new FileTail(s.file), input: { file: s.file, format: "eval" } });
      }
    };

    const reportSaid = new Set<string>();
    // The header's counts are over the whole run: owed after new episodes, due at most once a second and a tenth of the time.
    let countsOwed = false;
    let countsDue = 0;
    const takeCounts = () => {
      const c = live.counts();
      countsOwed = false;
      countsDue = Date.now() + Math.max(COUNTS_EVERY_MS, COUNTS_SHARE * live.countsMs);
      return c;
    };
    /** One pass over the followed files; resolves whether any grew. */
    const pass = async (): Promise<boolean> => {
      let grew = false;
      await newShards();
      let boardGrew = false;
      const pending = { rows: [] as BoardEpisodeRow[], problems: [] as string[] };
      /** The board's new episodes so far, and the report when it is computed (null: rows only, the report follows). */
      const boardEvent = (report: BoardReportUpdate | null) => {
        for (const p of pending.problems) o.say(`warning: ${p}`);
        const event: BoardEvent = { ...pending, ...boardEpisodes!.takeTables(), report, at: new Date().toISOString() };
        events.append("board", JSON.stringify(event));
        pending.rows = [];
        pending.problems = [];
      };
      for (const f of followed) {
        const r = f.tail.poll();
        if (r.grew) grew = true;
        if (r.restarted) o.say(`${relative(process.cwd(), f.input.file) || f.input.file}: truncated or replaced; reading it again from the start`);
        if (board && boardEpisodes) {
          // A board's lines are verified as `verify` does and their episodes written as its chunks;
          // its numbers are the report's over the mirror. A backlog's rows go out in steps, the report after.
          board.append(f.input.file, r.lines, r.restarted);
          boardGrew ||= r.lines.length > 0 || r.restarted;
          // As a run's: the next batch is verified (worker threads) while this one is written (the main thread).
          const verify = (i: number) => {
            if (i >= r.lines.length) return null;
            const p = live.verified(f.input, r.lines.slice(i, i + LINES_PER_EVENT));
            void p.catch(() => undefined);
            return p;
          };
          let next = verify(0);
          for (let i = 0; next && !closed; i += LINES_PER_EVENT) {
            const verified = await next;
            next = verify(i + LINES_PER_EVENT);
            if (pending.rows.length >= LINES_PER_EVENT) boardEvent(null);
            const shown = await boardEpisodes.show(verified);
            pending.rows.push(...shown.rows);
            pending.problems.push(...verified.problems, ...shown.problems);
          }
          continue;
        }
        // A backlog goes out in steps: the pages see episodes as they are verified, not all at the end.
        // Two stages: the next batch is verified (worker threads) while this one is shown (the main thread).
        const batches: CompleteLine[][] = [];
        for (let i = 0; i < r.lines.length; i += LINES_PER_EVENT) batches.push(r.lines.slice(i, i + LINES_PER_EVENT));
        let next = batches.length ? live.verified(f.input, batches[0]) : null;
        // A stop in the middle leaves the next verification to its abort: nobody awaits it.
        void next?.catch(() => undefined);
        for (let k = 0; k < batches.length && !closed; k++) {
          const verified = await next!;
          next = k + 1 < batches.length ? live.verified(f.input, batches[k + 1]) : null;
          void next?.catch(() => undefined);
          const b = await live.show(verified);
          countsOwed ||= b.rows.length > 0;
          if (countsOwed && Date.now() >= countsDue) Object.assign(b, takeCounts());
          for (const p of b.problems) o.say(`warning: ${p}`);
          if (b.rows.length || b.problems.length) events.append("episodes", JSON.stringify({ ...b, at: new Date().toISOString() } satisfies EpisodesEvent));
          // After its rows: a page merging the groups already lists their rollouts.
          const t = liveTraining.take();
          if (t) events.append("training", JSON.stringify(t satisfies TrainingEvent));
        }
      }
      // Counts held back while the episodes came: they follow as soon as they are due, new episodes or not.
      if (countsOwed && Date.now() >= countsDue && !closed) {
        const at = new Date().toISOString();
        events.append("episodes", JSON.stringify({ rows: [], imagesFrom: 0, images: [], problems: [], ...takeCounts(), at } satisfies EpisodesEvent));
      }
      if (board && (boardGrew || pending.problems.length) && !closed) {
        let report: BoardReportUpdate | null = null;
        try {
          report = await board.report(o.baseline, o.signal);
        } catch (e) {
          // The report cannot be read now (the page keeps the last numbers): said once per message.
          const text = board.named((e as Error).message);
          if (!reportSaid.has(text) && !o.signal.aborted) o.say(`warning: the board's report: ${text}`);
          reportSaid.add(text);
        }
        if (report || pending.rows.length || pending.problems.length) boardEvent(report);
      }
      return grew;
    };
    loop = startPollLoop({
      files: followed.map((f) => f.input.file),
      pollMs: o.pollMs,
      idleS: o.idleS,
      events,
      pass,
      onError: (e) => {
        if (!o.signal.aborted) o.say(`warning: reading the inputs: ${e.message}`);
      },
    });
    return { url: server.url, server, tmp, close };
  } catch (e) {
    await close();
    throw e;
  }
}
