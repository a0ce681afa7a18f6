/**
 * One rollout line of the generated training run, in the environment's
 * training-trace format (docs: "GRPO training traces"): wire-form actions,
 * 16-hex digests, outcome.reward on the training curve.
 *
 * The run's dynamics, as a policy sharpening over 1,000 steps:
 * - skill rises: guesses land nearer (bench/board's guessFor: fewer on another
 *   continent, shorter misses), rollouts get shorter and fewer never guess;
 * - a rising share of groups collapse: all siblings play one trajectory and
 *   score the same reward (zero spread), from ~6% of groups at step 0 to ~50%
 *   at the end, so frac_reward_zero_std climbs as in a real run; another
 *   share are mostly collapsed (about 3 in 4 siblings alike: a small std, a
 *   large advantage multiplier);
 * - early on a few groups never guess at all (every reward 0: zero spread too).
 * Siblings always share their reset view (the determinism contract).
 */
import { createHash } from "node:crypto";
import { guessFor, haversine, taskCountry, taskLatLon } from "../board/make.ts";
import { FRAMES_PER_TASK, HEADINGS, SPLIT, START_CAMERA, WIDE_FOV, ZOOM_FOV, seeded, unit, viewKey, type Camera, type TrainingShape } from "./shape.ts";

export const RUN_NAME = "geo-grpo-bench";
const MODEL = "Qwen/Qwen3.5-4B";
const ENV = "http://127.0.0.1:8000";
const MAX_TURNS = 12;
/** Metres between a task's two frames (their coordinates are 1e-4 degrees apart). */
const FRAME_GAP_M = 13.6;
const COST = { look: 0.01, pan: 0.01, zoom: 0.01, pin: 0.02, move: 0.05 } as const;

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const r2 = (x: number) => Math.round(x * 100) / 100;
const mapDigest = (label: string) => createHash("sha256").update(label).digest("hex").slice(0, 16);

/** The run's progress at a step, 0 at the first and 1 at the last. */
export const progressAt = (shape: TrainingShape, step: number): number => (shape.steps > 1 ? step / (shape.steps - 1) : 0);

export type GroupKind = "no-guess" | "collapsed" | "mostly" | "spread";

/** How a group's siblings relate: the rising share of collapsed groups is what drives frac_reward_zero_std up. */
export function groupKind(u: number, step: number, task: number): GroupKind {
  const x = unit(`group:${step}:${task}`);
  const noGuess = 0.06 * (1 - u);
  const collapsed = 0.03 + 0.5 / (1 + Math.exp(-(u - 0.55) * 10));
  const mostly = 0.1 + 0.25 * u;
  if (x < noGuess) return "no-guess";
  if (x < noGuess + collapsed) return "collapsed";
  if (x < noGuess + collapsed + mostly) return "mostly";
  return "spread";
}

/** The label a sibling's trajectory is drawn from: shared by the siblings a collapsed group plays alike. */
function trajectoryLabel(kind: GroupKind, step: number, task: number, gen: number): string {
  const shared = `${step}:${task}:shared`;
  if (kind === "collapsed") return shared;
  if (kind === "mostly" && unit(`copy:${step}:${task}:${gen}`) < 0.75) return shared;
  return `${step}:${task}:${gen}`;
}

interface Context {
  task: number;
  u: number;
  mayGuess: boolean;
  hashes: Record<string, string>;
}

/** One rollout's JSON line: run, step, model, env, task, outcome and turns. */
export function rolloutLine(shape: TrainingShape, hashes: Record<string, string>, step: number, task: number, gen: number): string {
  const u = progressAt(shape, step);
  const kind = groupKind(u, step, task);
  const t = trajectory(trajectoryLabel(kind, step, task, gen), { task, u, mayGuess: kind !== "no-guess", hashes });
  return JSON.stringify({ run: RUN_NAME, step, model: MODEL, env: ENV, task: { split: SPLIT, index: task }, outcome: t.outcome, turns: t.turns });
}

function trajectory(label: string, ctx: Context): { turns: Record<string, unknown>[]; outcome: Record<string, unknown> } {
  const rand = seeded(label);
  const skill = Math.max(0, Math.min(0.95, 0.1 + 0.75 * ctx.u + (unit(`difficulty:${ctx.task}`) - 0.5) * 0.3));
  const guesses = ctx.mayGuess && rand() >= 0.02 + 0.12 * (1 - ctx.u);
  // Actions before the guess: up to 11 early, up to 6 late; a rollout that never guesses spends the budget.
  const actions = guesses ? 1 + Math.floor(rand() * (11 - 5 * ctx.u)) : MAX_TURNS;
  const truth = taskLatLon(ctx.task);
  const view = (c: Camera) => ctx.hashes[viewKey(ctx.task, c)];
  let cam = START_CAMERA;
  let cost = 0;
  let left = MAX_TURNS;
  const pins: [number, number][] = [];
  const turns: Record<string, unknown>[] = [turn(0, { op: "reset" }, cam, cam, view(cam), "view", "Episode started.", pins, left, 0, cost)];
  for (let i = 1; i <= actions; i++) {
    const before = cam;
    const x = rand();
    const op = x < 0.35 ? "look" : x < 0.5 ? "pan" : x < 0.7 ? "zoom" : x < 0.85 ? "move" : "pin";
    cost = r2(cost + COST[op]);
    left--;
    const steps = `${left} actions left.`;
    if (op === "pin") {
      const [lat, lon] = guessFor(`${label}:pin:${i}`, truth, skill);
      pins.push([r4(lat), r4(lon)]);
      const action = { op, lat: r4(lat), lon: r4(lon), span_deg: 2.0 };
      turns.push(
        turn(
          i,
          action,
          before,
          cam,
          mapDigest(`map:${label}:${i}`),
          "map",
          `Pin ${pins.length} placed at ${r4(lat)}, ${r4(lon)}. ${steps}`,
          pins,
          left,
          0,
          cost,
        ),
      );
      continue;
    }
    let action: Record<string, unknown>;
    let feedback: string;
    let moved = 0;
    if (op === "look") {
      const heading = HEADINGS[Math.floor(rand() * HEADINGS.length)];
      cam = { ...cam, heading_deg: heading, pitch_deg: 0, fov_deg: WIDE_FOV };
      action = { op, heading_deg: heading, pitch_deg: 0, fov_deg: WIDE_FOV };
      feedback = `Facing ${heading} deg, ${WIDE_FOV} deg field of view. ${steps}`;
    } else if (op === "pan") {
      const delta = rand() < 0.5 ? -45 : 45;
      cam = { ...cam, heading_deg: (cam.heading_deg + delta + 360) % 360 };
      action = { op, delta_deg: delta };
      feedback = `Facing ${cam.heading_deg} deg, ${cam.fov_deg} deg field of view. ${steps}`;
    } else if (op === "zoom") {
      const fov = cam.fov_deg === ZOOM_FOV ? WIDE_FOV : ZOOM_FOV;
      cam = { ...cam, fov_deg: fov };
      action = { op, fov_deg: fov };
      feedback = `Field of view now ${fov} deg. ${steps}`;
    } else {
      // Two frames: forward from the first, backward from the last; the other way the road ends.
      const forward = rand() < 0.7;
      const to = cam.frame_index + (forward ? 1 : -1);
      action = { op, direction: forward ? "forward" : "backward", meters: 20.0 };
      if (to >= 0 && to < FRAMES_PER_TASK) {
        cam = { ...cam, frame_index: to };
        moved = FRAME_GAP_M;
        feedback = `Moved ${forward ? "forward" : "backward"} ${FRAME_GAP_M} m. ${steps}`;
      } else feedback = `Cannot go ${forward ? "forward" : "backward"} - the captured road ends here. ${steps}`;
    }
    turns.push(turn(i, action, before, cam, view(cam), "view", feedback, pins, left, moved, cost));
  }
  if (!guesses) {
    const outcome = { reward: 0.0, distance_km: null, action_cost: cost, turns_used: actions, guessed: false, max_turns: MAX_TURNS };
    return { turns, outcome };
  }
  const guess = guessFor(`${label}:guess`, truth, skill).map(r4) as [number, number];
  const km = haversine(truth, guess);
  const score = Math.exp(-km / 1492.7);
  const reward = r4(Math.min(1, 0.5 * score + 0.5 * Math.exp(-km / 5000)) * (1 - Math.min(Math.max(cost, 0), 0.2)));
  const feedback =
    `${Math.round(km)} km away. True location ${truth[0].toFixed(4)}, ${truth[1].toFixed(4)} (${taskCountry(ctx.task)}). ` +
    `Score ${score.toFixed(3)} minus ${cost.toFixed(2)} action cost = ${Math.max(0, score - cost).toFixed(3)}.`;
  turns.push(turn(actions + 1, { op: "guess", lat: guess[0], lon: guess[1] }, cam, cam, mapDigest(`reveal:${label}`), "map", feedback, pins, left, 0, cost));
  const outcome = { reward, distance_km: Math.round(km * 1000) / 1000, action_cost: cost, turns_used: actions + 1, guessed: true, max_turns: MAX_TURNS };
  return { turns, outcome };
}

function turn(
  n: number,
  action: Record<string, unknown>,
  before: Camera,
  after: Camera,
  digest: string,
  kind: "view" | "map",
  feedback: string,
  pins: [number, number][],
  left: number,
  moved: number,
  cost: number,
): Record<string, unknown> {
  return {
    turn: n,
    action,
    camera_before: before,
    camera_after: after,
    image_sha256: digest,
    image_kind: kind,
    feedback,
    pins: [...pins],
    steps_remaining: left,
    moved_meters: moved,
    action_cost: cost,
  };
}
