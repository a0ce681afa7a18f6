/**
 * The crops verifier's floor: the CPU of one whole JPEG encode by sharp (what `verify` uses),
 * by our exact encoder (jpeg.ts, not yet used: see docs/crops.md "How fast") and by Pillow
 * (what the reference uses) on the same pixels. The views and thumbnails are the sample train run's
 * distinct ones, rendered by our renderer and checked against their recorded sha256 with both
 * our encoder and sharp first; each encoder then encodes them all, sequentially, several times.
 * (jpeg.ts can encode a view with boxes by patching its base's coefficients: cheaper than this.)
 *
 *   node dist/bench/crops-encode.js [--reps N]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeRgb } from "../envs/crops/replay/dataset.ts";
import { encodeView, renderThumb, renderView, sha256Hex, thumbBase } from "../envs/crops/replay/render.ts";
import { fitSize, VIEW_LONG } from "../envs/crops/replay/geometry.ts";
import { JpegEncoder } from "../envs/crops/replay/jpeg.ts";
import { PYTHON, ROOT, fmt, loadavg, run } from "./common.ts";

const REFERENCE = process.env.GEOREPLAY_CROPS_REFERENCE ?? join(ROOT, "..", "shared", "reference", "crops");
const SAMPLE = join(ROOT, "test", "fixtures", "crops", "sample");
const reps = Number(process.argv[process.argv.indexOf("--reps") + 1] || 3);

interface Shot {
  px: Uint8Array;
  w: number;
  h: number;
  sha: string;
}

async function shots(): Promise<{ views: Shot[]; thumbs: Shot[] }> {
  const tasks = new Map<string, { file: string }>();
  for (const l of readFileSync(join(SAMPLE, "tasks.jsonl"), "utf8").trim().split("\n")) {
    const t = JSON.parse(l);
    tasks.set(`${t.split}/${t.task_index}`, t);
  }
  const views: Shot[] = [];
  const thumbs: Shot[] = [];
  const seen = new Set<string>();
  for (const l of readFileSync(join(SAMPLE, "train", "rollouts.jsonl"), "utf8")
    .trim()
    .split("\n")) {
    const r = JSON.parse(l);
    const img = await decodeRgb(join(SAMPLE, tasks.get(`${r.task.split}/${r.task.index}`)!.file));
    const [W, H] = fitSize(img.width, img.height, VIEW_LONG);
    const tb = thumbBase(img);
    for (const t of r.turns) {
      const v = `${r.task.image_id}|${t.view_after}|${JSON.stringify(t.boxes)}`;
      if (!seen.has(v)) views.push({ px: renderView(img, t.view_after, t.boxes, W, H), w: W, h: H, sha: t.image_sha256 });
      const th = `${r.task.image_id}|${t.view_after}`;
      if (!seen.has(th)) thumbs.push({ px: renderThumb(tb, t.view_after, img.width, img.height), w: tb.width, h: tb.height, sha: t.thumb_sha256 });
      seen.add(v).add(th);
    }
  }
  return { views, thumbs };
}

/** CPU ms per encode through our encoder (sequential, one reused encoder), best of `reps`. */
function oursMs(list: Shot[]): number {
  const enc = new JpegEncoder();
  let best = Infinity;
  for (let i = 0; i < reps; i++) {
    const c0 = process.cpuUsage();
    for (const s of list) enc.encode(s.px, s.w, s.h);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000 / list.length);
  }
  return best;
}

/** CPU ms per encode through sharp (four in flight, as verify keeps libuv's threads busy), best of `reps`. */
async function sharpMs(list: Shot[]): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < reps; i++) {
    const c0 = process.cpuUsage();
    const q: Promise<unknown>[] = [];
    for (const s of list) {
      q.push(encodeView(s.px, s.w, s.h));
      if (q.length >= 4) await q.shift();
    }
    await Promise.all(q);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000 / list.length);
  }
  return best;
}

const PY = `
import json, sys, time
sys.path.insert(0, sys.argv[1])
import crops_gym as G
from PIL import Image
meta = json.load(open(sys.argv[2] + "/meta.json"))
out = {}
for kind in ("views", "thumbs"):
    raw = open(sys.argv[2] + "/" + kind + ".raw", "rb").read()
    ims, at = [], 0
    for w, h in meta[kind]:
        ims.append(Image.frombytes("RGB", (w, h), raw[at:at + w * h * 3])); at += w * h * 3
    best = 1e9
    for _ in range(int(sys.argv[3])):
        t = time.process_time()
        for im in ims: G.encode_jpeg(im)
        best = min(best, (time.process_time() - t) / len(ims) * 1000)
    out[kind] = best
print(json.dumps(out))
`;

async function main(): Promise<void> {
  const { views, thumbs } = await shots();
  let wrong = 0;
  const enc = new JpegEncoder();
  for (const s of [...views, ...thumbs]) if (sha256Hex(await encodeView(s.px, s.w, s.h)) !== s.sha) wrong++;
  for (const s of [...views, ...thumbs]) if (sha256Hex(enc.encode(s.px, s.w, s.h)) !== s.sha) wrong++;
  if (wrong) throw new Error(`${wrong} render(s) do not reproduce their recorded sha256`);
  const sharpT = { views: await sharpMs(views), thumbs: await sharpMs(thumbs) };
  const ours = { views: oursMs(views), thumbs: oursMs(thumbs) };
  const dir = mkdtempSync(join(tmpdir(), "crops-encode-"));
  let ref: { views: number; thumbs: number } | null = null;
  try {
    writeFileSync(join(dir, "views.raw"), Buffer.concat(views.map((s) => s.px)));
    writeFileSync(join(dir, "thumbs.raw"), Buffer.concat(thumbs.map((s) => s.px)));
    writeFileSync(join(dir, "meta.json"), JSON.stringify({ views: views.map((s) => [s.w, s.h]), thumbs: thumbs.map((s) => [s.w, s.h]) }));
    const r = run(PYTHON, ["-c", PY, REFERENCE, dir, String(reps)]);
    if (r.code === 0) ref = JSON.parse(r.stdout);
    else console.log(`crops-encode: no Pillow timing (${r.stderr.trim().split("\n").pop()})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `crops JPEG encode, CPU per image (best of ${reps}; load ${loadavg()}): ${views.length} views, ${thumbs.length} thumbnails of the sample's train run`,
  );
  console.log(`  sharp (verify) : view ${fmt(sharpT.views, 3)} ms · thumbnail ${fmt(sharpT.thumbs, 3)} ms`);
  console.log(`  ours (jpeg.ts) : view ${fmt(ours.views, 3)} ms · thumbnail ${fmt(ours.thumbs, 3)} ms`);
  if (ref)
    console.log(
      `  Pillow (ref.)  : view ${fmt(ref.views, 3)} ms · thumbnail ${fmt(ref.thumbs, 3)} ms` +
        ` · sharp/Pillow ${fmt(sharpT.views / ref.views, 2)}x and ${fmt(sharpT.thumbs / ref.thumbs, 2)}x` +
        ` · ours/Pillow ${fmt(ours.views / ref.views, 2)}x and ${fmt(ours.thumbs / ref.thumbs, 2)}x`,
    );
}

await main();
