/**
 * The board page's exact views: where detail decides (a zoom at fov <= 45,
 * where the model reads a sign), a reprojection of the 1024x512 panorama is a
 * blur, so the page embeds the very JPEG bytes the verifier re-rendered and
 * matched against the recorded sha256, once per digest, as data URLs
 * streamed to a part file. Every other view stays a browser reprojection.
 *
 * A 640 px JPEG is 50-90 KB as base64: a board with thousands of zooms would
 * grow several times over. So the table has a budget (DEFAULT_EXACT_MB, 16 MB,
 * 40% of the generated 12,800-episode board page): zooms are embedded in the
 * order the board is read until it is spent, the rest stay reprojections
 * (each episode says which of its views are which). Deterministic: the same
 * inputs embed the same zooms.
 */
import type { ImageSink } from "../images.ts";
import { DEFAULT_EXACT_MB } from "../page-options.ts";

/** Views at this field of view or narrower are embedded exactly (the environment renders them from the full-resolution panorama). */
export const EXACT_MAX_FOV = 45;

export class ExactViewTable {
  private index = new Map<string, number>();
  bytes = 0;
  /** Zooms left as reprojections because the budget was spent. */
  skipped = 0;
  constructor(
    private readonly sink: ImageSink,
    private readonly budgetBytes = DEFAULT_EXACT_MB * 1e6,
  ) {}

  get count(): number {
    return this.index.size;
  }

  /** The table index of these verified bytes (sha256 hex digest), written the first time the digest is seen; null once the budget is spent. */
  async add(digest: string, jpeg: Buffer): Promise<number | null> {
    const key = digest.toLowerCase();
    const hit = this.index.get(key);
    if (hit !== undefined) return hit;
    const n = this.index.size;
    const entry = `${n ? "," : ""}"data:image/jpeg;base64,${jpeg.toString("base64")}"`;
    if (this.bytes + entry.length > this.budgetBytes) {
      this.skipped++;
      return null;
    }
    this.index.set(key, n);
    this.bytes += entry.length;
    await this.sink.write(entry);
    return n;
  }
}
