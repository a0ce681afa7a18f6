/**
 * Reads an episodes file the way geoeval's `load` does: Python text mode
 * (lines end at \n, \r\n or a lone \r), blank lines skipped, a line that is
 * not JSON skipped and counted (a torn last line while a pass is writing).
 * Where Python would crash (bad UTF-8) or read a value JSON.parse cannot
 * (NaN, Infinity), this says so with the file and line instead. Streams:
 * only one line is held at a time.
 */
import { createReadStream } from "node:fs";
import { isUtf8 } from "node:buffer";
import { GeoreplayError, fileError } from "../io/errors.ts";
import { ioReason } from "../io/jsonl.ts";

export type LineItem = { kind: "value"; line: number; value: unknown } | { kind: "torn"; line: number };

// Python's utf-8 codec keeps a BOM as U+FEFF (json.loads then rejects the line); Buffer#toString does too.

export async function* readEpisodeLines(file: string, signal?: AbortSignal): AsyncGenerator<LineItem> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  const finish = function* (): Generator<LineItem> {
    lineNo += 1;
    const buf = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    yield* parseLine(buf, file, lineNo);
  };
  let stream;
  try {
    stream = createReadStream(file, { highWaterMark: 1 << 20, signal });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl === -1) break;
        pending.push(chunk.subarray(start, nl));
        pendingBytes += nl - start;
        yield* finish();
        start = nl + 1;
      }
      if (start < chunk.length) {
        // Copy: the stream may reuse its chunk buffers.
        pending.push(Buffer.from(chunk.subarray(start)));
        pendingBytes += chunk.length - start;
      }
    }
  } catch (e) {
    if (e instanceof GeoreplayError) throw e;
    if ((e as Error)?.name === "AbortError") throw e;
    throw fileError(file, `cannot read: ${ioReason(e)}`);
  }
  if (pendingBytes > 0) yield* finish();
}

function* parseLine(buf: Buffer, file: string, line: number): Generator<LineItem> {
  // isUtf8 + toString (both simdutf) is about a third faster than a fatal TextDecoder; neither strips a BOM.
  if (!isUtf8(buf)) throw new GeoreplayError(`${file}:${line}: not valid UTF-8 (geoeval stops with UnicodeDecodeError on such a file)`);
  const text = buf.toString("utf8");
  // A lone \r also ends a line in Python's text mode (JSON strings cannot hold a raw \r, so this is rare).
  const pieces = text.includes("\r") ? text.replace(/\r$/, "").split("\r") : [text];
  for (const piece of pieces) {
    if (piece.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(piece);
    } catch {
      if (parsesWithPythonConstants(piece)) {
        throw new GeoreplayError(
          `${file}:${line}: contains NaN or Infinity, which JSON does not allow; georeplay does not score such rows (write them with allow_nan=False, or null)`,
        );
      }
      yield { kind: "torn", line };
      continue;
    }
    yield { kind: "value", line, value };
  }
}

/** Would Python's json.loads read this (NaN / Infinity / -Infinity outside strings)? */
function parsesWithPythonConstants(text: string): boolean {
  if (!/NaN|Infinity/.test(text)) return false;
  let out = "";
  let inString = false;
  let found = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const m = /^(-?Infinity|NaN)/.exec(text.slice(i, i + 9));
    if (m) {
      out += "null";
      i += m[0].length - 1;
      found = true;
      continue;
    }
    out += c;
  }
  if (!found) return false;
  try {
    JSON.parse(out);
    return true;
  } catch {
    return false;
  }
}
