/** Reading and writing a batch folder's manifest.json (atomically, after every video). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BatchManifestSchema, MANIFEST_VERSION, type BatchManifest, type ManifestFailure, type ManifestVideo } from "../../replay/batch/manifest-schema.ts";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { writeFileAtomic } from "../../replay/io/atomic.ts";
import { formatIssues } from "../../replay/io/issues.ts";

export const MANIFEST_NAME = "manifest.json";

export function emptyManifest(): BatchManifest {
  return { version: MANIFEST_VERSION, videos: [], failures: [] };
}

/** The folder's manifest; an empty one when there is none. A manifest that does not parse is an input error naming the field. */
export function readBatchManifest(dir: string): BatchManifest {
  const path = join(dir, MANIFEST_NAME);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return emptyManifest();
    throw new GeoreplayError(`${path}: cannot read (${errorMessage(e)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new GeoreplayError(`${path}: not JSON (${errorMessage(e)}); move it away to start the folder over`);
  }
  const parsed = BatchManifestSchema.safeParse(value);
  if (!parsed.success) {
    const problems = formatIssues(parsed.error, value);
    throw new GeoreplayError(
      `${path}: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}; move it away to start the folder over`,
      "input",
      problems.map((message) => ({ file: path, line: null, field: message.split(":")[0] ?? null, message })),
    );
  }
  return parsed.data;
}

export function writeBatchManifest(dir: string, m: BatchManifest): void {
  const sorted: BatchManifest = {
    version: MANIFEST_VERSION,
    videos: [...m.videos].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
    failures: [...m.failures].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
  };
  writeFileAtomic(join(dir, MANIFEST_NAME), JSON.stringify(sorted, null, 1) + "\n");
}

export function recordVideo(m: BatchManifest, v: ManifestVideo): void {
  m.videos = [...m.videos.filter((x) => x.file !== v.file), v];
  m.failures = m.failures.filter((x) => x.file !== v.file);
}

export function recordFailure(m: BatchManifest, f: ManifestFailure): void {
  m.failures = [...m.failures.filter((x) => x.file !== f.file), f];
}
