/**
 * Follows one JSONL file as a writer appends to it: each poll reads from the
 * last byte offset and returns the lines completed since. A file that is
 * shorter than what was read (truncated) or is another file now (replaced:
 * its inode changed, as after log rotation) is read again from its start.
 */
import { closeSync, copyFileSync, fstatSync, openSync, readSync, statSync, truncateSync } from "node:fs";
import { LineReader, type CompleteLine } from "../../replay/io/line-reader.ts";

/** Read at most this much per poll, so one huge append does not stall the others. */
const MAX_READ = 16 * 1024 * 1024;

export interface TailRead {
  lines: CompleteLine[];
  /** The file was truncated or replaced: these lines start again at line 1. */
  restarted: boolean;
  /** The file grew since the last poll. */
  grew: boolean;
}

export class FileTail {
  private offset = 0;
  private ino: number | null = null;
  private readonly reader = new LineReader();

  constructor(readonly file: string) {}

  /** Starts following at `offset` (bytes already shown, ending at a newline) as line `lines` + 1. */
  startAt({ offset, lines, ino }: TailStart): void {
    this.offset = offset;
    this.ino = ino;
    this.reader.reset(lines);
  }

  /** Reads what was appended since the last poll; a file that is gone for now reads as nothing. */
  poll(): TailRead {
    let st;
    try {
      st = statSync(this.file);
    } catch {
      return { lines: [], restarted: false, grew: false };
    }
    let restarted = false;
    if ((this.ino !== null && st.ino !== this.ino) || st.size < this.offset) {
      this.offset = 0;
      this.reader.reset();
      restarted = true;
    }
    this.ino = st.ino;
    if (st.size === this.offset) return { lines: [], restarted, grew: false };
    const fd = openSync(this.file, "r");
    try {
      // The inode of what was opened: a replacement between stat and open is caught next poll.
      this.ino = fstatSync(fd).ino;
      const want = Math.min(st.size - this.offset, MAX_READ);
      const buf = Buffer.allocUnsafe(want);
      const n = readSync(fd, buf, 0, want, this.offset);
      this.offset += n;
      return { lines: this.reader.push(buf.subarray(0, n)), restarted, grew: n > 0 };
    } finally {
      closeSync(fd);
    }
  }
}

/** Where following a file starts: the bytes of its complete lines, how many lines, and which file (inode) it was. */
export interface TailStart {
  offset: number;
  lines: number;
  ino: number;
}

/**
 * Copies `file` to `copy` cut after its last newline (a half-written last line is the writer's, not
 * the page's yet) and says where following the original starts.
 */
export function snapshotLines(file: string, copy: string): TailStart {
  const ino = statSync(file).ino;
  copyFileSync(file, copy);
  const fd = openSync(copy, "r");
  let lines = 0;
  let offset = 0;
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let pos = 0; ;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      for (let i = buf.indexOf(0x0a); i !== -1 && i < n; i = buf.indexOf(0x0a, i + 1)) {
        lines++;
        offset = pos + i + 1;
      }
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  truncateSync(copy, offset);
  return { offset, lines, ino };
}
