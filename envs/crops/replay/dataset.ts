/**
 * A crops dataset folder: the task index (tasks.jsonl), the ground truth (gt.jsonl) and the
 * images (decoded once to raw RGB with sharp, kept in a cache bounded by bytes). Every problem
 * is a one-line input error naming file, line and field.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { fileError, GeoreplayError } from "../../../replay/io/errors.ts";
import { ioReason, readJsonl } from "../../../replay/io/jsonl.ts";
import { CropsTaskSchema, GtRowSchema, parseOrThrow, type CropsTask } from "./schema.ts";
import type { GtObject } from "./score.ts";
import type { RgbImage } from "./render.ts";

export interface Dataset {
  dir: string;
  tasks: Map<string, CropsTask & { line: number }>;
  gt: Map<string, GtObject[]>;
  tasksFile: string;
  gtFile: string;
}

const taskKey = (split: string, index: number) => `${split}\u0000${index}`;

async function readRows<T>(file: string, each: (value: unknown, line: number) => T): Promise<T[]> {
  if (!existsSync(file)) throw fileError(file, "no such file (a crops dataset folder holds tasks.jsonl, gt.jsonl and images/)");
  const out: T[] = [];
  for await (const item of readJsonl(file)) {
    if (item.kind === "error") throw new GeoreplayError(`${file}:${item.line}: ${item.message}`);
    out.push(each(item.value, item.line));
  }
  return out;
}

export async function openDataset(dir: string): Promise<Dataset> {
  const tasksFile = join(dir, "tasks.jsonl");
  const gtFile = join(dir, "gt.jsonl");
  const tasks = new Map<string, CropsTask & { line: number }>();
  for (const row of await readRows(tasksFile, (v, line) => ({ ...parseOrThrow(CropsTaskSchema, v, tasksFile, line), line }))) {
    tasks.set(taskKey(row.split, row.task_index), row);
  }
  const gt = new Map<string, GtObject[]>();
  for (const row of await readRows(gtFile, (v, line) => parseOrThrow(GtRowSchema, v, gtFile, line))) {
    gt.set(
      row.image_id,
      row.objects.map((o) => ({ id: o.id, label: o.label, box: o.box })),
    );
  }
  return { dir, tasks, gt, tasksFile, gtFile };
}

export function taskOf(ds: Dataset, split: string, index: number): (CropsTask & { line: number }) | undefined {
  return ds.tasks.get(taskKey(split, index));
}

/** Decodes an image file to 8-bit RGB (alpha dropped, no colour management: the PNGs carry none). */
export async function decodeRgb(path: string): Promise<RgbImage> {
  if (!existsSync(path)) throw fileError(path, "no such file");
  try {
    const { data, info } = await sharp(path).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (e) {
    throw fileError(path, `cannot decode as an image: ${ioReason(e).split("\n")[0]}`);
  }
}

/** Decoded images by path, least recently used dropped past `maxBytes`; a path decodes once while it stays. */
export class ImageCache {
  private readonly entries = new Map<string, Promise<RgbImage>>();
  private bytes = 0;
  private readonly sizes = new Map<string, number>();
  constructor(private readonly maxBytes = 128 * 1024 * 1024) {}

  get(path: string): Promise<RgbImage> {
    const hit = this.entries.get(path);
    if (hit) {
      this.entries.delete(path);
      this.entries.set(path, hit);
      return hit;
    }
    const p = decodeRgb(path).then((img) => {
      this.sizes.set(path, img.data.byteLength);
      this.bytes += img.data.byteLength;
      this.evict(path);
      return img;
    });
    p.catch(() => this.entries.delete(path));
    this.entries.set(path, p);
    return p;
  }

  private evict(keep: string): void {
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      if (key === keep || !this.sizes.has(key)) continue;
      this.bytes -= this.sizes.get(key)!;
      this.sizes.delete(key);
      this.entries.delete(key);
    }
  }
}
