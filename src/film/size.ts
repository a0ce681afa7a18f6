/** Output size parsing: "1280x720", both sides even (H.264 with yuv420p subsamples chroma 2x2). */
import { GeoreplayError } from "../../replay/io/errors.ts";

export interface Size {
  width: number;
  height: number;
}

export function parseSize(text: string): Size {
  const m = /^\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*$/.exec(text);
  if (!m) throw new GeoreplayError(`expected WIDTHxHEIGHT such as 1280x720, got ${JSON.stringify(text)}`);
  const width = Number(m[1]);
  const height = Number(m[2]);
  for (const [name, v] of [
    ["width", width],
    ["height", height],
  ] as const) {
    if (v < 16 || v > 7680) throw new GeoreplayError(`${name} must be between 16 and 7680 pixels, got ${v}`);
    if (v % 2 !== 0) throw new GeoreplayError(`${name} must be even for H.264 (yuv420p), got ${v}; try ${v + 1}`);
  }
  return { width, height };
}
