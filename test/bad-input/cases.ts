/**
 * The bad-input corpus: every way a recording, a task index or a panorama
 * folder can be wrong that we have seen or can imagine, each with the exit
 * code and the message a user sees. Each case starts from a good copy of the
 * Trieste run in a temp dir and breaks one thing; unless it says otherwise
 * the good episode stays in the file, so the test also proves that the rest
 * of the run is still checked and reported.
 */
import { appendFileSync, chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { TRIESTE } from "../helpers.ts";

export interface CaseDir {
  dir: string;
  episodes: string;
  tasks: string;
  panos: string;
}

export interface BadCase {
  name: string;
  /** Breaks one thing in a fresh copy of the Trieste run. */
  setup(c: CaseDir): void | Promise<void>;
  /** Overrides the argument list (default: verify episodes --tasks tasks --panos panos). */
  args?(c: CaseDir): string[];
  exit: number;
  /** Substrings of stderr (the message a user sees). */
  message: (string | RegExp)[];
  /** What the good episode in the same file still reports on stdout (null: no summary expected). */
  stillChecked?: string | null;
}

export const goodEpisode = () => JSON.parse(readFileSync(join(TRIESTE, "episodes.jsonl"), "utf8").split("\n")[0]);
export const goodTask = () => JSON.parse(readFileSync(join(TRIESTE, "tasks.jsonl"), "utf8").split("\n")[0]);
const lines = (...xs: unknown[]) => xs.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("\n") + "\n";
const withEpisode = (c: CaseDir, ...extra: unknown[]) => writeFileSync(c.episodes, lines(goodEpisode(), ...extra));
const mutate = (f: (e: any) => void) => (c: CaseDir) => {
  const e = goodEpisode();
  e.episode_id = "badbadbad001";
  f(e);
  withEpisode(c, e);
};
const mutateTask = (f: (t: any) => void) => (c: CaseDir) => {
  const t = goodTask();
  f(t);
  writeFileSync(c.tasks, lines(t));
};
/** Writes a raw numeric token (as Python's json would) into turn 1's camera_after.fov_deg. */
const rawNumber = (token: string) => (c: CaseDir) => {
  const e = goodEpisode();
  e.episode_id = "badbadbad001";
  e.turns[1].camera_after.fov_deg = 12345.678;
  withEpisode(c, JSON.stringify(e).replace("12345.678", token));
};
const ALL_GOOD = "1 episodes · 8 view turns checked · 8 match";
const FRAME12 = () => goodTask().frames[12].image_id as string;

export const CASES: BadCase[] = [
  // --- the episodes file as bytes
  {
    name: "truncated last line",
    setup: (c) => appendFileSync(c.episodes, '{"schema_version": 2, "episode_id": "abc", "tur'),
    exit: 2,
    message: ["episodes.jsonl:2: not valid JSON", "the last line looks truncated"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "invalid UTF-8",
    setup: (c) => appendFileSync(c.episodes, Buffer.concat([Buffer.from('{"reply": "caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')])),
    exit: 2,
    message: ["episodes.jsonl:2: not valid UTF-8"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "a 50 MB line (a huge but valid reply) is streamed and checked",
    setup: (c) => {
      const e = goodEpisode();
      e.episode_id = "huge00000001";
      e.turns[1].model.reply = "x".repeat(50 * 1024 * 1024);
      withEpisode(c, e);
    },
    exit: 0,
    message: [],
    stillChecked: "2 episodes · 16 view turns checked · 16 match",
  },
  {
    name: "a line that is JSON but not an object (array)",
    setup: (c) => withEpisode(c, "[1, 2, 3]"),
    exit: 2,
    message: ["episodes.jsonl:2: expected a JSON object (one episode), got array of 3"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "a line that is JSON but not an object (string)",
    setup: (c) => withEpisode(c, '"hello"'),
    exit: 2,
    message: ['episodes.jsonl:2: expected a JSON object (one episode), got string "hello"'],
    stillChecked: ALL_GOOD,
  },
  {
    name: "a line that is JSON null",
    setup: (c) => withEpisode(c, "null"),
    exit: 2,
    message: ["episodes.jsonl:2: expected a JSON object (one episode), got null"],
    stillChecked: ALL_GOOD,
  },
  // --- camera fields
  {
    name: "heading_deg is a string",
    setup: mutate((e) => (e.turns[2].camera_after.heading_deg = "east")),
    exit: 2,
    message: ['episodes.jsonl:2: turns[2].camera_after.heading_deg: expected number, got string "east"'],
    stillChecked: ALL_GOOD,
  },
  {
    name: "pitch_deg is null",
    setup: mutate((e) => (e.turns[2].camera_after.pitch_deg = null)),
    exit: 2,
    message: ["episodes.jsonl:2: turns[2].camera_after.pitch_deg: expected number, got null"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "fov_deg is a boolean",
    setup: mutate((e) => (e.turns[1].camera_after.fov_deg = true)),
    exit: 2,
    message: ["episodes.jsonl:2: turns[1].camera_after.fov_deg: expected number, got boolean true"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "frame_index is a string",
    setup: mutate((e) => (e.turns[0].camera_after.frame_index = "12")),
    exit: 2,
    message: ['episodes.jsonl:2: turns[0].camera_after.frame_index: expected number, got string "12"'],
    stillChecked: ALL_GOOD,
  },
  {
    name: "camera_after missing on a hashed view",
    setup: mutate((e) => delete e.turns[4].camera_after),
    exit: 2,
    message: ["episodes.jsonl:2: turns[4].camera_after: a view turn with a hash needs camera_after"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "pitch out of range",
    setup: mutate((e) => (e.turns[2].camera_after.pitch_deg = 95)),
    exit: 2,
    message: ["episodes.jsonl:2: turns[2].camera_after.pitch_deg: expected <= 90, got number 95"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "fov of zero",
    setup: mutate((e) => (e.turns[1].camera_after.fov_deg = 0)),
    exit: 2,
    message: ["episodes.jsonl:2: turns[1].camera_after.fov_deg: expected > 0, got number 0"],
    stillChecked: ALL_GOOD,
  },
  // --- numbers JSON cannot hold
  {
    name: "NaN (as Python writes it)",
    setup: rawNumber("NaN"),
    exit: 2,
    message: ["episodes.jsonl:2: not valid JSON: it contains NaN or Infinity"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "Infinity (as Python writes it)",
    setup: rawNumber("-Infinity"),
    exit: 2,
    message: ["episodes.jsonl:2: not valid JSON: it contains NaN or Infinity"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "a number too large for float64 (1e400)",
    setup: rawNumber("1e400"),
    exit: 2,
    message: ["episodes.jsonl:2: turns[1].camera_after.fov_deg: expected number, got Infinity"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "a huge heading (1e300 degrees)",
    setup: mutate((e) => (e.turns[2].camera_after.heading_deg = 1e300)),
    exit: 1,
    message: [],
    stillChecked: "2 episodes · 16 view turns checked · 15 match · 1 mismatch",
  },
  // --- frame index
  {
    name: "negative frame index",
    setup: mutate((e) => (e.turns[2].camera_after.frame_index = -1)),
    exit: 2,
    message: ["episodes.jsonl:2: turns[2].camera_after.frame_index: expected >= 0, got number -1"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "fractional frame index",
    setup: mutate((e) => (e.turns[2].camera_after.frame_index = 12.5)),
    exit: 2,
    message: ["episodes.jsonl:2: turns[2].camera_after.frame_index: expected an integer, got number 12.5"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "frame index past the task's frames",
    setup: mutate((e) => (e.turns[2].camera_after.frame_index = 400)),
    exit: 2,
    message: ["episode badbadbad001: turns[2] (turn 2): camera_after.frame_index 400 is out of range (task 40 has"],
    stillChecked: "2 episodes · 15 view turns checked · 15 match",
  },
  // --- record shape and version
  {
    name: "schema_version 1",
    setup: mutate((e) => (e.schema_version = 1)),
    exit: 2,
    message: ["episodes.jsonl:2: schema_version: expected 2, got number 1 (georeplay reads schema 2 episode records)"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "schema_version 3",
    setup: mutate((e) => (e.schema_version = 3)),
    exit: 2,
    message: ["episodes.jsonl:2: schema_version: expected 2, got number 3"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "missing turns",
    setup: mutate((e) => delete e.turns),
    exit: 2,
    message: ["episodes.jsonl:2: turns: expected array, got nothing (field missing)"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "a malformed image hash",
    setup: mutate((e) => (e.turns[2].image_sha256 = "abc123")),
    exit: 2,
    message: ['episodes.jsonl:2: turns[2].image_sha256: expected 64 hex digits (sha256), got "abc123"'],
    stillChecked: ALL_GOOD,
  },
  {
    name: "a pin that is not [lat, lon]",
    setup: mutate((e) => (e.turns[3].pins = [[45.6]])),
    exit: 2,
    message: ["episodes.jsonl:2: turns[3].pins[0]"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "errored episode rows are reported and skipped",
    setup: (c) =>
      withEpisode(c, {
        schema_version: 2,
        episode_id: "err000000001",
        model_name: "m",
        task: { split: "eval", index: 40 },
        config: {},
        error: "EnvError: panorama fetch failed\nmore",
        traceback: "Traceback (most recent call last): ...",
      }),
    exit: 0,
    message: ["skipped: ", "episode err000000001 errored in the environment and has no turns: EnvError: panorama fetch failed"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "duplicate episode ids are flagged, both checked",
    setup: (c) => withEpisode(c, goodEpisode()),
    exit: 0,
    message: ["warning: ", "episodes.jsonl:2: episode_id 90a9d3eba5ce also appears at"],
    stillChecked: "2 episodes · 16 view turns checked · 16 match",
  },
  // --- task index
  {
    name: "unknown split",
    setup: mutate((e) => (e.task.split = "holdout")),
    args: (c) => ["verify", c.episodes, "--tasks", c.dir, "--panos", c.panos],
    exit: 2,
    message: ['unknown split "holdout": no task index for it in'],
    stillChecked: null,
  },
  {
    name: "task index not found",
    setup: mutate((e) => (e.task.index = 4040)),
    exit: 2,
    message: ["episode badbadbad001: task eval/4040 not found in"],
    stillChecked: "2 episodes · 8 view turns checked · 8 match",
  },
  {
    name: "task index file with a duplicate row",
    setup: (c) => writeFileSync(c.tasks, lines(goodTask(), goodTask())),
    exit: 2,
    message: ["eval.jsonl:2: task_index 40 duplicates line 1; the first row is used"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "task index file with a broken row",
    setup: (c) => {
      const t = goodTask();
      t.task_index = 41;
      t.frames[0].lat = "north";
      writeFileSync(c.tasks, lines(goodTask(), t, "{oops"));
    },
    exit: 2,
    message: ['eval.jsonl:2: frames[0].lat: expected number, got string "north"', "eval.jsonl:3: not valid JSON"],
    stillChecked: ALL_GOOD,
  },
  {
    name: "--tasks does not exist",
    setup: () => {},
    args: (c) => ["verify", c.episodes, "--tasks", join(c.dir, "nope.jsonl"), "--panos", c.panos],
    exit: 2,
    message: [/--tasks .*nope\.jsonl: no such file/],
    stillChecked: null,
  },
  // --- panoramas
  {
    name: "missing panorama",
    setup: (c) => unlinkSync(join(c.panos, `${goodTask().frames[23].image_id}.jpg`)),
    exit: 2,
    message: [/panorama .*\.jpg: no such file/],
    stillChecked: "1 episodes · 7 view turns checked · 7 match",
  },
  {
    name: "zero-byte panorama",
    setup: (c) => writeFileSync(join(c.panos, `${FRAME12()}.jpg`), ""),
    exit: 2,
    message: [/panorama .*\.jpg: empty file \(0 bytes\)/],
    stillChecked: null,
  },
  {
    name: "truncated panorama",
    setup: (c) => {
      const p = join(c.panos, `${FRAME12()}.jpg`);
      truncateSync(p, Math.floor(statSync(p).size / 3));
    },
    exit: 2,
    message: [/panorama .*\.jpg: truncated or corrupt JPEG/],
    stillChecked: null,
  },
  {
    name: "a panorama that is not an image",
    setup: (c) => writeFileSync(join(c.panos, `${FRAME12()}.jpg`), "<html>404 not found</html>"),
    exit: 2,
    message: [/panorama .*\.jpg: cannot decode/],
    stillChecked: null,
  },
  {
    name: "a PNG named .jpg",
    setup: async (c) => {
      const png = await sharp({ create: { width: 64, height: 32, channels: 3, background: "#888" } })
        .png()
        .toBuffer();
      writeFileSync(join(c.panos, `${FRAME12()}.jpg`), png);
    },
    exit: 2,
    message: [/panorama .*\.jpg: is png, expected a JPEG/],
    stillChecked: null,
  },
  {
    name: "a panorama that is not 2:1",
    setup: async (c) => {
      const jpg = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#888" } })
        .jpeg()
        .toBuffer();
      writeFileSync(join(c.panos, `${FRAME12()}.jpg`), jpg);
    },
    exit: 2,
    message: [/panorama .*\.jpg: is 300x200, expected an equirectangular panorama twice as wide as high/],
    stillChecked: null,
  },
  {
    name: "image id with a slash",
    setup: mutateTask((t) => (t.frames[12].image_id = "sub/dir")),
    exit: 2,
    message: ['image id "sub/dir" is not a plain id'],
    stillChecked: null,
  },
  {
    name: "image id with ..",
    setup: mutateTask((t) => (t.frames[12].image_id = "../../etc/passwd")),
    exit: 2,
    message: ['image id "../../etc/passwd" is not a plain id'],
    stillChecked: null,
  },
  {
    name: "image id with NUL",
    setup: mutateTask((t) => (t.frames[12].image_id = "abc\u0000.jpg")),
    exit: 2,
    message: ['image id "abc\\u0000.jpg" is not a plain id'],
    stillChecked: null,
  },
  {
    name: "image id that is an absolute path",
    setup: mutateTask((t) => (t.frames[12].image_id = "/etc/passwd")),
    exit: 2,
    message: ['image id "/etc/passwd" is not a plain id'],
    stillChecked: null,
  },
  {
    name: "--panos is a symlink loop",
    setup: (c) => {
      rmSync(c.panos, { recursive: true });
      symlinkSync(c.panos, c.panos);
    },
    exit: 2,
    message: [/--panos .*panos: too many levels of symbolic links \(a symlink loop\)/],
    stillChecked: null,
  },
  {
    name: "--panos is a file",
    setup: () => {},
    args: (c) => ["verify", c.episodes, "--tasks", c.tasks, "--panos", c.tasks],
    exit: 2,
    message: [/--panos .*eval\.jsonl: not a directory/],
    stillChecked: null,
  },
  // --- files
  {
    name: "an episodes path that is a directory (unreadable as a file)",
    setup: (c) => mkdirSync(join(c.dir, "episodes.d")),
    args: (c) => ["verify", join(c.dir, "episodes.d"), "--tasks", c.tasks, "--panos", c.panos],
    exit: 2,
    message: [
      /episodes\.d: is a directory, but neither an example-rollout folder \(no trace\.jsonl\), a training run \(no rollouts\*\.jsonl\) nor a sweep \(no \*\*\/episodes\.jsonl outside _quarantined\/\)/,
    ],
    stillChecked: null,
  },
  {
    name: "an unreadable episodes file",
    setup: (c) => chmodSync(c.episodes, 0o000),
    args: (c) =>
      process.getuid?.() === 0
        ? ["verify", join(c.dir, "missing.jsonl"), "--tasks", c.tasks, "--panos", c.panos]
        : ["verify", c.episodes, "--tasks", c.tasks, "--panos", c.panos],
    exit: 2,
    // As root every file is readable, so the case degrades to a missing file; both name the path and the reason.
    message: [process.getuid?.() === 0 ? /missing\.jsonl: no such file/ : /episodes\.jsonl: (cannot read: )?permission denied/],
    stillChecked: null,
  },
  {
    name: "an empty run",
    setup: (c) => writeFileSync(c.episodes, ""),
    exit: 2,
    message: [/episodes\.jsonl: no episode records \(the file is empty or only blank lines\)/],
    stillChecked: "0 episodes · 0 view turns checked",
  },
  { name: "a run of blank lines", setup: (c) => writeFileSync(c.episodes, "\n\n  \n"), exit: 2, message: [/no episode records/], stillChecked: null },
  {
    name: "a bad option value",
    setup: () => {},
    args: (c) => ["verify", c.episodes, "--tasks", c.tasks, "--panos", c.panos, "--jobs", "zero"],
    exit: 2,
    message: ["option '--jobs <n>' argument 'zero' is invalid. expected a whole number >= 1"],
    stillChecked: null,
  },
];
