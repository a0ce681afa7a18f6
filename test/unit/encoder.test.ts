/** The encoder's bytes against JPEGs written by the environment's own pipeline (PIL, q85, optimize). */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import sharp from "sharp";
import { encodeJpeg, withJfif } from "../../replay/render/encode.ts";
import { imageDigest } from "../../replay/render/hash.ts";
import { FIXTURES } from "../helpers.ts";

describe("JPEG encoder", () => {
  it("writes the same bytes as the reference pipeline for the same pixels", async () => {
    const { data, info } = await sharp(join(FIXTURES, "reference", "pattern.png"))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const ours = await encodeJpeg(data, info.width, info.height);
    const ref = readFileSync(join(FIXTURES, "reference", "pattern.ref.jpg"));
    expect(ours.length).toBe(ref.length);
    expect(Buffer.compare(ours, ref)).toBe(0);
  });

  it("starts with SOI and the environment's JFIF APP0 segment, and nothing else before the tables", async () => {
    const jpg = await encodeJpeg(new Uint8Array(16 * 16 * 3).fill(128), 16, 16);
    expect(jpg.subarray(0, 21).toString("hex")).toBe("ffd8ffe000104a46494600010100000100010000ff");
    expect(withJfif(jpg)).toBe(jpg); // idempotent
  });

  it("computes both digest schemes (eval sha256, training 16 hex of sha256 over base64)", () => {
    const bytes = Buffer.from("georeplay");
    expect(imageDigest(bytes, "sha256")).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(imageDigest(bytes, "sha256-b64-16")).toBe(createHash("sha256").update(bytes.toString("base64")).digest("hex").slice(0, 16));
  });
});
