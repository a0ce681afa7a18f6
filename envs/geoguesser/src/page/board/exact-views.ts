/**
 * The board page's exact views: the very JPEG bytes the verifier re-rendered
 * and matched against the recorded sha256 (match or resolved), once per
 * digest. Where there is none (a mismatch, a view that could not be
 * rendered) the browser reprojects the panorama.
 *
 * The folder form keeps every one, each its own file (views/<sha256>.jpg);
 * the table holds their paths. The one-file form has a budget (--max-mb):
 * views go in by priority, zooms (fov <= 45, where the model reads a sign
 * and a reprojection of the 1024x512 panorama is a blur) first, then the
 * rest, each class in the order the board is read until the first that does
 * not fit (a prefix: deterministic, and what a smaller budget takes is what
 * a larger one takes first). Candidates are spooled to a temp folder while
 * they could still fit; at the end the table is written with a data URL
 * for each chosen view and null for each left out (its turn reprojects).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ImageSink } from "../../../../../src/page/images.ts";
import type { PageFolder } from "../../../../../src/page/output/folder.ts";

/** Views at this field of view or narrower are zooms: the first to go into a one-file page. */
export const EXACT_MAX_FOV = 45;

/** A table entry's length: the data URL as a JSON string, and its comma. */
const entryBytes = (jpegBytes: number) => 4 * Math.ceil(jpegBytes / 3) + 26;

interface Candidate {
  zoom: boolean;
  bytes: number;
  /** Spooled (it could still fit): its file in the spool folder. */
  spooled: boolean;
}

export class ExactViewTable {
  private index = new Map<string, number>();
  private candidates: Candidate[] = [];
  /** Bytes of the prefix of each class that fits the whole budget (what may be spooled). */
  private spooledBytes = { zoom: 0, other: 0 };
  private full = { zoom: false, other: false };
  /** The folder form: each view's path. */
  private names: string[] = [];
  /** After finish(): views in the page and left out. */
  embedded = 0;
  leftOut = 0;
  bytes = 0;

  /** `folder` for the folder form (every view a file); else `spool` (a temp folder) and the most bytes the views may get (what is spooled). */
  constructor(private readonly out: { folder: PageFolder } | { spool: string; budgetBytes: number }) {
    if ("spool" in out) mkdirSync(out.spool, { recursive: true });
  }

  get count(): number {
    return this.candidates.length;
  }

  /** The table index of these verified bytes (sha256 hex digest), the same for the same digest; `jpeg` null: not kept (left out). */
  add(digest: string, jpeg: Buffer | null, zoom: boolean): number {
    const key = digest.toLowerCase();
    const hit = this.index.get(key);
    if (hit !== undefined) return hit;
    const n = this.candidates.length;
    this.index.set(key, n);
    const c: Candidate = { zoom, bytes: jpeg ? entryBytes(jpeg.length) : Infinity, spooled: false };
    if ("folder" in this.out) {
      if (!jpeg) throw new Error(`view ${digest}: the folder form keeps every verified view, but its bytes were not kept`);
      c.spooled = true;
      this.names.push(this.out.folder.addView(jpeg));
    } else {
      const cls = zoom ? "zoom" : "other";
      if (jpeg && !this.full[cls] && this.spooledBytes[cls] + c.bytes <= this.out.budgetBytes) {
        this.spooledBytes[cls] += c.bytes;
        writeFileSync(join(this.out.spool, String(n)), jpeg);
        c.spooled = true;
      } else this.full[cls] = true;
    }
    this.candidates.push(c);
    return n;
  }

  /** Writes the table (a JSON array's items): a path or data URL per view, null for a view left out; `budgetBytes` (one-file form) is what the views get. */
  async finish(sink: ImageSink, budgetBytes = 0): Promise<void> {
    const chosen = this.choose(budgetBytes);
    for (let n = 0; n < this.candidates.length; n++) {
      let entry = "null";
      if ("folder" in this.out) entry = `"${this.names[n]}"`;
      else if (chosen[n]) entry = `"data:image/jpeg;base64,${readFileSync(join(this.out.spool, String(n))).toString("base64")}"`;
      if (entry !== "null") this.embedded++;
      else this.leftOut++;
      const text = (n ? "," : "") + entry;
      this.bytes += text.length;
      await sink.write(text);
    }
  }

  /** Which candidates go in: every one in the folder form; else zooms' prefix, then the others' prefix in what is left. */
  private choose(budgetBytes: number): boolean[] {
    if ("folder" in this.out) return this.candidates.map(() => true);
    // Every candidate costs at least its "null," in the table.
    let left = Math.min(budgetBytes, this.out.budgetBytes) - 5 * this.candidates.length;
    const chosen = this.candidates.map(() => false);
    for (const zoom of [true, false]) {
      for (let n = 0; n < this.candidates.length; n++) {
        const c = this.candidates[n];
        if (c.zoom !== zoom) continue;
        if (!c.spooled || c.bytes > left) break;
        chosen[n] = true;
        left -= c.bytes;
      }
    }
    return chosen;
  }

  remove(): void {
    if ("spool" in this.out) rmSync(this.out.spool, { recursive: true, force: true });
  }
}
