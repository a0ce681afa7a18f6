/**
 * How a recording names an image. Eval traces store sha256 of the JPEG bytes;
 * GRPO training traces store the first 16 hex digits of sha256 over the
 * base64 text of those bytes.
 */
import { createHash } from "node:crypto";

export type HashScheme = "sha256" | "sha256-b64-16";

export function imageDigest(bytes: Uint8Array, scheme: HashScheme): string {
  if (scheme === "sha256") return createHash("sha256").update(bytes).digest("hex");
  const b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  return createHash("sha256").update(b64, "latin1").digest("hex").slice(0, 16);
}

export function sameDigest(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
