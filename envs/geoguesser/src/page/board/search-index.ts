/**
 * Builds the folder form's search index (search-index.ts) as episodes are
 * added: each text's words go to their postings at once and the text is let
 * go. Positions are most of the index (a byte or two per word of every text:
 * ~200 MB on a 12,800-episode board), so they are spilled to group files in
 * the build's temp folder whenever more than SPILL_BYTES are held; the end
 * reads one group at a time and packs its words' postings into shard files.
 * Same texts in the same order, same bytes.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { INDEX_KINDS, pushVarint, type IndexTablePayload } from "../../../../../src/page/search-index.ts";

/** Bytes of positions held before they go to the group files. */
const SPILL_BYTES = 16 << 20;
/** Spill groups (word id mod GROUPS): the end reads one at a time. */
const GROUPS = 64;
/** A shard file holds words' postings up to this many bytes (a word larger than that is a shard of its own). */
const SHARD_BYTES = 512 << 10;
/** Positions of fewer bytes make a word rare: packed apart from the others. */
const RARE_BYTES = 4 << 10;

/** A growable byte list. */
class Bytes {
  buf = new Uint8Array(16);
  len = 0;
  push(b: number): void {
    if (this.len === this.buf.length) {
      const next = new Uint8Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.len++] = b;
  }
  get bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/** Packs postings into shard files of up to `max` bytes (or one word's), in the order given. */
class ShardPacker {
  private parts: Uint8Array[] = [];
  private size = 0;
  count = 0;
  constructor(
    private readonly max: number,
    private readonly emit: (n: number, bytes: Buffer) => void,
  ) {}
  /** Appends one word's postings; returns where they are. */
  add(pieces: Uint8Array[]): { shard: number; off: number; len: number } {
    const len = pieces.reduce((n, p) => n + p.length, 0);
    if (this.size > 0 && this.size + len > this.max) this.flush();
    const place = { shard: this.count, off: this.size, len };
    this.parts.push(...pieces);
    this.size += len;
    return place;
  }
  flush(): void {
    if (this.size === 0) return;
    this.emit(this.count++, Buffer.concat(this.parts));
    this.parts = [];
    this.size = 0;
  }
}

export class SearchIndexWriter {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  private pos: Bytes[] = [];
  private readonly lastPos: number[] = [];
  private readonly docs: Bytes[] = [];
  private readonly lastDoc: number[] = [];
  /** Per doc: its task and place in the task's chunk. */
  private readonly places: number[] = [];
  private readonly starts = new Bytes();
  private next = 0;
  private prevStart = 0;
  private held = 0;
  private spilled = false;

  /** `dir`: where positions spill (created when needed); `spillBytes`: how many are held before they do; `shardBytes`: a shard's size. */
  constructor(
    private readonly dir: string,
    private readonly spillBytes = SPILL_BYTES,
    private readonly shardBytes = SHARD_BYTES,
  ) {}

  /** Adds the next doc's search text (lower-cased, search-text.ts): task `task`, place `at` in its chunk. */
  add(task: number, at: number, text: string): void {
    const d = this.places.length / 2;
    this.places.push(task, at);
    pushVarint(this.starts, this.next - this.prevStart);
    this.prevStart = this.next;
    let g = this.next;
    for (const w of text.split(" ")) {
      let id = this.ids.get(w);
      if (id === undefined) {
        id = this.words.length;
        // A copy: split's parts may be slices of the text, which would keep every text that brought a new word alive.
        const own = JSON.parse(JSON.stringify(w)) as string;
        this.ids.set(own, id);
        this.words.push(own);
        this.pos.push(new Bytes());
        this.lastPos.push(0);
        this.docs.push(new Bytes());
        this.lastDoc.push(-1);
      }
      const p = this.pos[id];
      const before = p.len;
      pushVarint(p, g - this.lastPos[id]);
      this.held += p.len - before;
      this.lastPos[id] = g;
      if (this.lastDoc[id] !== d) {
        pushVarint(this.docs[id], this.lastDoc[id] < 0 ? d : d - this.lastDoc[id]);
        this.lastDoc[id] = d;
      }
      g++;
    }
    // One unused position after each doc: no phrase spans two.
    this.next = g + 1;
    if (this.held > this.spillBytes) this.spill();
  }

  private groupFile(g: number): string {
    return join(this.dir, `index-${g}.bin`);
  }

  /** Appends every held position list to its group file as (id, length, bytes) and lets them go. */
  private spill(): void {
    mkdirSync(this.dir, { recursive: true });
    const groups: Buffer[][] = Array.from({ length: GROUPS }, () => []);
    this.pos.forEach((p, id) => {
      if (p.len === 0) return;
      const head: number[] = [];
      pushVarint(head, id);
      pushVarint(head, p.len);
      groups[id % GROUPS].push(Buffer.from(head), Buffer.from(p.bytes));
      this.pos[id] = new Bytes();
    });
    groups.forEach((parts, g) => {
      if (parts.length) appendFileSync(this.groupFile(g), Buffer.concat(parts));
    });
    this.held = 0;
    this.spilled = true;
  }

  /** Word id -> its spilled position pieces, for one group. */
  private readGroup(g: number): Map<number, Uint8Array[]> {
    const out = new Map<number, Uint8Array[]>();
    if (!this.spilled || !existsSync(this.groupFile(g))) return out;
    const b = readFileSync(this.groupFile(g));
    let i = 0;
    const varint = () => {
      let v = 0;
      let shift = 1;
      for (;;) {
        const x = b[i++];
        v += (x & 0x7f) * shift;
        if (x < 0x80) return v;
        shift *= 0x80;
      }
    };
    while (i < b.length) {
      const id = varint();
      const len = varint();
      const piece = b.subarray(i, i + len);
      i += len;
      const list = out.get(id);
      if (list) list.push(piece);
      else out.set(id, [piece]);
    }
    return out;
  }

  get docCount(): number {
    return this.places.length / 2;
  }

  /**
   * Writes the shards and the table through `write(kind, n, json)`; `chunkOf` maps a task to its
   * chunk number. Returns the number of files written.
   */
  finish(chunkOf: (task: number) => number, write: (kind: string, n: number, json: string) => void): number {
    const nw = this.words.length;
    const pos = new Array<{ shard: number; off: number; len: number }>(nw);
    const posShards = new ShardPacker(this.shardBytes, (n, bytes) => write(INDEX_KINDS.pos, n, JSON.stringify(bytes.toString("base64"))));
    // Rare words' positions go together after the others': a query's first or last part may match many rare words
    // (a word, a line break and the next line's first word are one word), and they then come from a shard or two.
    const rare = new Map<number, Uint8Array>();
    for (let g = 0; g < GROUPS; g++) {
      const spilled = this.readGroup(g);
      for (let id = g; id < nw; id += GROUPS) {
        const pieces = spilled.get(id) ?? [];
        pieces.push(this.pos[id].bytes);
        if (pieces.reduce((n, p) => n + p.length, 0) < RARE_BYTES) rare.set(id, Buffer.concat(pieces));
        else pos[id] = posShards.add(pieces);
        this.pos[id] = new Bytes();
      }
    }
    posShards.flush();
    for (let id = 0; id < nw; id++) {
      const bytes = rare.get(id);
      if (bytes) pos[id] = posShards.add([bytes]);
    }
    posShards.flush();
    const docShards = new ShardPacker(this.shardBytes, (n, bytes) => write(INDEX_KINDS.doc, n, JSON.stringify(bytes.toString("base64"))));
    const places: number[] = [];
    for (let id = 0; id < nw; id++) {
      const d = docShards.add([this.docs[id].bytes]);
      const p = pos[id];
      for (const v of [p.shard, p.off, p.len, d.shard, d.off, d.len]) pushVarint(places, v);
    }
    docShards.flush();
    const docs: number[] = [];
    for (let i = 0; i < this.places.length; i += 2) {
      pushVarint(docs, chunkOf(this.places[i]));
      pushVarint(docs, this.places[i + 1]);
    }
    // The end of the number line closes the last doc.
    pushVarint(this.starts, this.next - this.prevStart);
    const table: IndexTablePayload = {
      words: this.words.join(" "),
      places: Buffer.from(places).toString("base64"),
      docs: Buffer.from(docs).toString("base64"),
      starts: Buffer.from(this.starts.bytes).toString("base64"),
    };
    write(INDEX_KINDS.table, 0, JSON.stringify(table));
    return posShards.count + docShards.count + 1;
  }
}
