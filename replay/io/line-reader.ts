/**
 * An incremental line reader for a file that is still being written: bytes
 * come in as they are read, complete lines (up to a newline) come out with
 * their 1-based line numbers, and a half-written last line is held until its
 * newline arrives. Pure: the caller decides when and what to read.
 */

export interface CompleteLine {
  /** 1-based line number in the file (blank lines counted, as readJsonl counts them). */
  line: number;
  /** The line's bytes without its newline. */
  bytes: Buffer;
}

export class LineReader {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private lineNo = 0;

  /** Lines read so far (complete ones). */
  get lines(): number {
    return this.lineNo;
  }

  /** Bytes of a line whose newline has not come yet. */
  get pendingBytes(): number {
    return this.heldBytes;
  }

  /** Feeds the next bytes of the file; returns the lines they complete. */
  push(chunk: Buffer): CompleteLine[] {
    const out: CompleteLine[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const part = chunk.subarray(start, nl);
      const bytes = this.held.length ? Buffer.concat([...this.held, part], this.heldBytes + part.length) : Buffer.from(part);
      this.held = [];
      this.heldBytes = 0;
      this.lineNo++;
      out.push({ line: this.lineNo, bytes });
      start = nl + 1;
    }
    if (start < chunk.length) {
      // Copied: the caller may reuse its read buffer.
      this.held.push(Buffer.from(chunk.subarray(start)));
      this.heldBytes += chunk.length - start;
    }
    return out;
  }

  /** Starts over at a line boundary: after `lines` lines (0: the file's first byte, as after truncation or replacement). */
  reset(lines = 0): void {
    this.held = [];
    this.heldBytes = 0;
    this.lineNo = lines;
  }
}
