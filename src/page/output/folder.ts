/**
 * The folder form of a page, built in a temp folder beside the target and
 * renamed into place as a whole: index.html, data/ (script files the page
 * loads as the reader goes: file:// allows <script src>, not fetch) and
 * views/ (the exact verified view files, named by the sha256 of their
 * bytes). A folder georeplay wrote before (FOLDER_MARK) is replaced; any
 * other non-empty folder is refused (checkTarget, before any work).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempPathFor } from "../../../replay/io/atomic.ts";
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { FOLDER_MARK, replaceableFolder } from "./target.ts";

/** The page folder's data scripts call this global (defined by the page's own script) with their payload. */
export const DATA_CALLBACK = "georeplayData";

/** A data script's text: `georeplayData("kind", n, payload)`; payload is JSON (escaped for a script by the caller). */
export const dataScript = (kind: string, n: number, json: string): string => `${DATA_CALLBACK}(${JSON.stringify(kind)},${n},${json});\n`;

/** The file name of a view's bytes: its sha256 and the extension its first bytes say. */
export function viewFileName(bytes: Uint8Array): string {
  const ext = bytes[0] === 0x89 && bytes[1] === 0x50 ? "png" : bytes[0] === 0x52 && bytes[1] === 0x49 ? "webp" : "jpg";
  return `views/${createHash("sha256").update(bytes).digest("hex")}.${ext}`;
}

export class PageFolder {
  /** The temp folder the page is built in. */
  readonly tmp: string;
  private views = new Set<string>();
  files = 0;
  bytes = 0;

  constructor(readonly dir: string) {
    this.tmp = tempPathFor(dir);
    mkdirSync(join(this.tmp, "views"), { recursive: true });
    mkdirSync(join(this.tmp, "data"), { recursive: true });
  }

  /** Writes a file of the page (a path relative to the folder). */
  write(rel: string, data: string | Uint8Array): void {
    writeFileSync(join(this.tmp, rel), data);
    this.files++;
    this.bytes += typeof data === "string" ? Buffer.byteLength(data) : data.length;
  }

  /** Writes a view's bytes once; returns its path relative to the page. */
  addView(bytes: Uint8Array): string {
    const rel = viewFileName(bytes);
    if (!this.views.has(rel)) {
      this.views.add(rel);
      this.write(rel, bytes);
    }
    return rel;
  }

  get viewCount(): number {
    return this.views.size;
  }

  /** Counts a file written into tmp by another writer (index.html). */
  counted(bytes: number): void {
    this.files++;
    this.bytes += bytes;
  }

  /** Renames the built folder into place, replacing a page folder georeplay wrote there before. */
  commit(): void {
    this.write(FOLDER_MARK, "a page folder written by georeplay page; georeplay replaces it as a whole on the next build to this path\n");
    if (existsSync(this.dir)) {
      // Checked again: the folder may have changed during the build.
      if (!replaceableFolder(this.dir)) throw new GeoreplayError(`-o ${this.dir}: the folder now holds files georeplay did not write; nothing replaced`);
      const old = tempPathFor(this.dir);
      renameSync(this.dir, old);
      try {
        renameSync(this.tmp, this.dir);
      } catch (e) {
        renameSync(old, this.dir);
        throw e;
      }
      rmSync(old, { recursive: true, force: true });
    } else renameSync(this.tmp, this.dir);
  }

  remove(): void {
    rmSync(this.tmp, { recursive: true, force: true });
  }
}
