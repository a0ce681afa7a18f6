/**
 * Frame generator speed, side by side with the environment's reference
 * renderer (bench/reference/look_reference.py + PIL's JPEG encode, as the
 * environment encodes) producing the same frame files of the same episode,
 * in one run. Frames are 640x640.
 *
 * Ours is timed around generateFrames (verification, keyframes, rendering,
 * encoding, writing, manifest and timeline included; Node start-up excluded);
 * the reference around its render/encode/write loop (panorama decoding
 * included, interpreter start-up excluded). Both write every frame file, and
 * the bench checks the files are byte-for-byte the same.
 *
 *   node dist/bench/frames.js [--jobs N]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { generateFrames, type FramesResult } from "../envs/geoguesser/replay/frames/frames.ts";
import { planEpisode } from "../envs/geoguesser/replay/plan/segments.ts";
import { frameOf } from "../envs/geoguesser/replay/verify/view-jobs.ts";
import { panoPath } from "../envs/geoguesser/replay/panos/files.ts";
import { EpisodeSchema } from "../envs/geoguesser/replay/schema/episode.ts";
import { TaskIndex } from "../envs/geoguesser/replay/tasks/task-index.ts";
import { hasReferencePython, run, PYTHON, REFERENCE, ROOT, fmt } from "./common.ts";

const TRIESTE = join(ROOT, "test", "fixtures", "trieste");
const SIZE = 640;

/** Renders the jobs with the reference, writing each file; prints {seconds, shas} as JSON. */
const PY = `
import hashlib, importlib.util, io, json, os, sys, time
from PIL import Image
spec = importlib.util.spec_from_file_location("lookmod", sys.argv[1]); mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
jobs = json.load(open(sys.argv[2])); out = sys.argv[3]
cache = {}; shas = []
t0 = time.perf_counter()
for j in jobs:
    p = j["pano"]
    if p not in cache:
        im = Image.open(p); im.load(); cache[p] = im
    img = mod.look(cache[p], j["heading"], j["pitch"], j["fov"], (j["size"], j["size"]))
    buf = io.BytesIO(); img.save(buf, format="JPEG", quality=85, optimize=True)
    b = buf.getvalue()
    with open(os.path.join(out, j["file"]), "wb") as f: f.write(b)
    shas.append(hashlib.sha256(b).hexdigest())
print(json.dumps({"seconds": time.perf_counter() - t0, "shas": shas}))
`;

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export async function benchFrames(): Promise<Record<string, number | string>> {
  if (!hasReferencePython()) throw new Error(`${PYTHON} lacks numpy/PIL (Debian python3-numpy python3-pil)`);
  const jobs = Number(argValue("--jobs") ?? availableParallelism());
  const tmp = mkdtempSync(join(tmpdir(), "georeplay-bench-frames-"));
  try {
    const episodes = join(TRIESTE, "episodes.jsonl");
    const tasks = join(TRIESTE, "tasks.jsonl");
    const panos = join(TRIESTE, "panos");
    const timed = async (name: string, j: number): Promise<{ r: FramesResult; s: number }> => {
      const t0 = performance.now();
      const r = await generateFrames({ episodes: [episodes], episode: "#1", tasks, panos, out: join(tmp, name), jobs: j, view: SIZE });
      return { r, s: (performance.now() - t0) / 1000 };
    };
    const first = await timed("warm", jobs); // pays for JIT warm-up and first decodes
    const par = await timed("ours", jobs);
    const one = await timed("one", 1);
    const files = par.r.stats.files;

    // The same frame files, from the reference: every file of the plan at its pose.
    const episode = EpisodeSchema.parse(JSON.parse(readFileSync(episodes, "utf8").split("\n")[0]));
    const { row } = await TaskIndex.open(tasks).lookup(episode.task.split, episode.task.index);
    const plan = planEpisode(episode, { fps: par.r.timeline.fps });
    const pyJobs = plan.jobs.map((j) => {
      const frame = frameOf(row, { frame_index: j.frameIndex, heading_deg: j.pose.heading, pitch_deg: j.pose.pitch, fov_deg: j.pose.fov }, "bench");
      return {
        file: j.file,
        pano: panoPath(panos, frame.image_id, j.pose.fov),
        heading: j.pose.heading + (frame.compass_angle ?? 0),
        pitch: j.pose.pitch,
        fov: j.pose.fov,
        size: SIZE,
      };
    });
    const jobsFile = join(tmp, "jobs.json");
    writeFileSync(jobsFile, JSON.stringify(pyJobs));
    const refOut = join(tmp, "reference");
    rmSync(refOut, { recursive: true, force: true });
    mkdirSync(refOut);
    const ref = run(PYTHON, ["-c", PY, join(REFERENCE, "look_reference.py"), jobsFile, refOut], REFERENCE);
    if (ref.code !== 0) throw new Error(`reference failed: ${ref.stderr}`);
    const refResult = JSON.parse(ref.stdout.trim().split("\n").at(-1)!) as { seconds: number; shas: string[] };
    const ours = pyJobs.map((j) =>
      createHash("sha256")
        .update(readFileSync(join(par.r.outDir, "frames", j.file)))
        .digest("hex"),
    );
    const same = ours.filter((s, i) => s === refResult.shas[i]).length;
    const differ = pyJobs.filter((_, i) => ours[i] !== refResult.shas[i]).map((j) => j.file);

    const oursFps = files / par.s;
    const refFps = pyJobs.length / refResult.seconds;
    console.log(
      `frames · episode ${episode.episode_id} (${episodes}) · ${files} frame files at ${SIZE}x${SIZE} (${par.r.stats.rendered} in-between + ${par.r.stats.keyframes} verified keyframes)`,
    );
    console.log(`  reference look_reference.py + PIL JPEG : ${fmt(refFps, 1)} frames/s  (${fmt(refResult.seconds, 2)} s; process ${fmt(ref.ms / 1000, 2)} s)`);
    console.log(
      `  georeplay frames, ${jobs} workers          : ${fmt(oursFps, 1)} frames/s  (${fmt(par.s, 2)} s incl. verification and timeline; first run ${fmt(files / first.s, 1)} frames/s)`,
    );
    console.log(`  georeplay frames, 1 thread            : ${fmt(files / one.s, 1)} frames/s  (${fmt(one.s, 2)} s)`);
    console.log(
      `  speed-up: ${fmt(oursFps / refFps, 2)}x (${jobs} workers), ${fmt(files / one.s / refFps, 2)}x (1 thread); identical frame files: ${same}/${files}`,
    );
    // Every frame file is the environment's own render of its pose: any difference is a bug, not noise.
    if (differ.length)
      console.log(`  FRAME FILES DIFFER from the reference's: ${differ.slice(0, 8).join(", ")}${differ.length > 8 ? `, ... (${differ.length})` : ""}`);
    return { refFps, fps: oursFps, ratio: oursFps / refFps, identical: `${same}/${files}` };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFrames();
