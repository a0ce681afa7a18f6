/**
 * Streaming JSONL reader. Runs reach hundreds of MB, so lines are split on raw
 * bytes (never the whole file in memory) and each line is decoded strictly:
 * invalid UTF-8 is reported, not silently replaced.
 */
import { createReadStream, statSync, type Stats } from "node:fs";
import { errorMessage, fileError } from "./errors.ts";

export type JsonlItem =
  { kind: "value"; line: number; value: unknown; bytes: number } | { kind: "error"; line: number; message: string; bytes: number; endedEarly?: boolean };

export interface JsonlOptions {
  /** Longest line accepted, in bytes; longer lines are reported and skipped. */
  maxLineBytes?: number;
}

const DEFAULT_MAX_LINE = 256 * 1024 * 1024;
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Yields one item per non-blank line: the parsed JSON value, or an error that
 * names the line. Parsing errors never stop the stream; I/O errors do (as GeoreplayError).
 */
export async function* readJsonl(file: string, opts: JsonlOptions = {}): AsyncGenerator<JsonlItem> {
  // One item of lookahead, so a parse error on the file's last line can say it looks truncated.
  let held: JsonlItem | null = null;
  for await (const item of readLines(file, opts)) {
    if (held) yield held;
    held = item;
  }
  if (held) {
    if (held.kind === "error" && held.endedEarly) {
      held = { ...held, message: `${held.message} (the last line looks truncated: was the file still being written?)` };
    }
    yield held;
  }
}

async function* readLines(file: string, opts: JsonlOptions): AsyncGenerator<JsonlItem> {
  const maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let lineNo = 0;
  let lastBytes = 0;

  const finishLine = (): JsonlItem | null => {
    lineNo += 1;
    const buf = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
    lastBytes = overlong ? maxLine : pendingBytes + 1;
    pending = [];
    pendingBytes = 0;
    if (overlong) {
      overlong = false;
      return { kind: "error", line: lineNo, message: `line is longer than ${maxLine} bytes; skipped`, bytes: lastBytes };
    }
    return parseLine(buf, lineNo);
  };

  let stream;
  try {
    stream = createReadStream(file);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl === -1) break;
        if (!overlong) {
          pending.push(chunk.subarray(start, nl));
          pendingBytes += nl - start;
        }
        const item = finishLine();
        if (item) yield item;
        start = nl + 1;
      }
      if (start < chunk.length && !overlong) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > maxLine) {
          overlong = true;
          pending = [];
          pendingBytes = 0;
        }
      }
    }
  } catch (e) {
    throw fileError(file, `cannot read: ${ioReason(e)}`);
  }
  if (pendingBytes > 0 || overlong) {
    const item = finishLine();
    if (item) yield item;
  }
}

function parseLine(buf: Buffer, line: number): JsonlItem | null {
  let text: string;
  try {
    text = decoder.decode(buf);
  } catch {
    return { kind: "error", line, message: "not valid UTF-8", bytes: buf.length + 1 };
  }
  if (text.trim() === "") return null;
  try {
    return { kind: "value", line, value: JSON.parse(text), bytes: buf.length + 1 };
  } catch (e) {
    const raw = errorMessage(e).replace(/^JSON\.parse: /, "");
    const nonJsonNumber = /(^|[^"\w])(NaN|-?Infinity)([^"\w]|$)/.test(text);
    const why = nonJsonNumber ? "it contains NaN or Infinity, which JSON does not allow (Python writes them unless allow_nan=False)" : raw;
    // The parser ran out of text: on the file's last line that means a writer was cut off.
    const pos = /at position (\d+)/.exec(raw);
    const endedEarly = !nonJsonNumber && (/end of JSON input|Unterminated/.test(raw) || (pos !== null && Number(pos[1]) >= text.trimEnd().length - 1));
    return { kind: "error", line, message: `not valid JSON: ${why}`, bytes: buf.length + 1, endedEarly };
  }
}

/** A readable reason for a filesystem error, without Node's stack. */
export function ioReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory, expected a file";
    case "ENOTDIR":
      return "a parent path is not a directory";
    case "ELOOP":
      return "too many levels of symbolic links (a symlink loop)";
    default:
      return err?.code ? `${err.code}: ${errorMessage(e)}` : errorMessage(e);
  }
}

/** An input path's stat, or the input error naming it and why (missing, unreadable). */
export function statInput(p: string): Stats {
  try {
    return statSync(p);
  } catch (e) {
    throw fileError(p, ioReason(e));
  }
}
