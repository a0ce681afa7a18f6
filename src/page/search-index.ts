/**
 * The folder form's search index: every word of every episode's search text
 * (search-text.ts), with where it stands. A board's words are ~1 GB of text;
 * a query that reads them all takes seconds however they are coded, so the
 * page writer builds an inverted index (board/search-index.ts) and a query
 * loads only the postings of the words it needs.
 *
 * A text's words are its space-separated parts (a word may hold a newline:
 * search-text.ts joins lines with one). Every word of the board has an id (its
 * place in `words`), the docs it is in (doc numbers, ascending) and its
 * positions: one number line over all the docs, each doc's words in turn and
 * one unused position after each, so no phrase runs from one doc into the
 * next. A query `q` is exactly `text.includes(q)`: split on spaces, its first
 * part ends a word, its inner parts are whole words in a row, its last starts
 * the word after; one part is a word that holds it (the docs suffice).
 *
 * Postings are unsigned LEB128 varints of the gaps between ascending numbers
 * (the first from 0), packed into shard files the page loads as scripts.
 * Pure: the writer encodes, the browser decodes and answers.
 */

/** Appends n as an unsigned LEB128 varint. */
export function pushVarint(out: { push(b: number): void }, n: number): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/** The ascending numbers a run of gap varints codes (bytes[from, to)). */
export function decodeGaps(bytes: Uint8Array, from: number, to: number): Uint32Array {
  let count = 0;
  for (let i = from; i < to; i++) if (bytes[i] < 0x80) count++;
  const out = new Uint32Array(count);
  let v = 0;
  let k = 0;
  let cur = 0;
  let shift = 1;
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    cur += (b & 0x7f) * shift;
    if (b < 0x80) {
      v += cur;
      out[k++] = v;
      cur = 0;
      shift = 1;
    } else shift *= 0x80;
  }
  return out;
}

/** The plain numbers a run of varints codes (no gaps). */
export function decodeVarints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let cur = 0;
  let shift = 1;
  for (const b of bytes) {
    cur += (b & 0x7f) * shift;
    if (b < 0x80) {
      out.push(cur);
      cur = 0;
      shift = 1;
    } else shift *= 0x80;
  }
  return out;
}

/** Where a word's postings are: shard file, offset and length in bytes. */
export interface Place {
  shard: number;
  off: number;
  len: number;
}

/**
 * The index's table (data/sw-0.js): its words (joined by spaces: no word holds one), per word
 * the place of its positions then of its docs (six varints), per doc its chunk and place there
 * (two varints), and each doc's first position (gaps; then the end of the number line).
 */
export interface IndexTablePayload {
  words: string;
  places: string;
  docs: string;
  starts: string;
}

/** The index's table, decoded. */
export interface IndexTable {
  words: string[];
  pos: Place[];
  doc: Place[];
  /** Doc n -> its chunk and place in it. */
  chunk: Uint32Array;
  at: Uint32Array;
  /** Doc n's words are positions [starts[n], starts[n + 1] - 1). */
  starts: Uint32Array;
}

export function base64Bytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function readTable(p: IndexTablePayload): IndexTable {
  const words = p.words.split(" ");
  const places = decodeVarints(base64Bytes(p.places));
  const pos: Place[] = [];
  const doc: Place[] = [];
  for (let i = 0; i < words.length; i++) {
    const k = i * 6;
    pos.push({ shard: places[k], off: places[k + 1], len: places[k + 2] });
    doc.push({ shard: places[k + 3], off: places[k + 4], len: places[k + 5] });
  }
  const d = decodeVarints(base64Bytes(p.docs));
  const n = d.length / 2;
  const chunk = new Uint32Array(n);
  const at = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    chunk[i] = d[2 * i];
    at[i] = d[2 * i + 1];
  }
  const s = base64Bytes(p.starts);
  return { words, pos, doc, chunk, at, starts: decodeGaps(s, 0, s.length) };
}

/** The kinds of the index's data files: its table, its position shards, its doc shards. */
export const INDEX_KINDS = { table: "sw", pos: "sp", doc: "sd" } as const;

/** Sorted ascending, no repeats (a union of posting lists). */
function union(lists: Uint32Array[]): Uint32Array {
  if (lists.length === 1) return lists[0];
  const all = new Uint32Array(lists.reduce((n, l) => n + l.length, 0));
  let k = 0;
  for (const l of lists) {
    all.set(l, k);
    k += l.length;
  }
  // Positions of distinct words never coincide: a sort is the union.
  return all.sort();
}

/** The numbers x of `a` (ascending) with x + shift in `b` (ascending). */
function meet(a: Uint32Array, b: Uint32Array, shift: number): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i++) {
    const want = a[i] + shift;
    while (j < b.length && b[j] < want) j++;
    if (j < b.length && b[j] === want) out[n++] = a[i];
  }
  return out.subarray(0, n);
}

/** The doc holding position p (starts ascending). */
function docOf(starts: Uint32Array, p: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Answers queries from the index's table and the shards a query needs, loaded by `load` (kind,
 * n) and kept, so a query like the last one loads nothing. Returns the docs whose text includes q.
 */
export class IndexSearcher {
  private readonly shards = new Map<string, Promise<Uint8Array>>();
  private ids: Map<string, number> | null = null;

  constructor(
    readonly table: IndexTable,
    private readonly load: (kind: string, n: number) => Promise<Uint8Array>,
  ) {}

  private shard(kind: string, n: number): Promise<Uint8Array> {
    const key = `${kind}-${n}`;
    let p = this.shards.get(key);
    if (!p) {
      p = this.load(kind, n);
      this.shards.set(key, p);
      p.catch(() => this.shards.delete(key));
    }
    return p;
  }

  private async postings(kind: string, place: Place): Promise<Uint32Array> {
    const bytes = await this.shard(kind, place.shard);
    return decodeGaps(bytes, place.off, place.off + place.len);
  }

  private wordsWhere(keep: (w: string) => boolean): number[] {
    const out: number[] = [];
    this.table.words.forEach((w, i) => {
      if (keep(w)) out.push(i);
    });
    return out;
  }

  /** The docs (ascending) whose text includes q (lower-cased, as the texts are). */
  async docs(q: string): Promise<number[]> {
    const t = this.table;
    const parts = q.split(" ");
    const n = parts.length - 1;
    const ndocs = t.chunk.length;
    if (n === 0) {
      const ws = this.wordsWhere((w) => w.includes(q));
      const lists = await Promise.all(ws.map((w) => this.postings(INDEX_KINDS.doc, t.doc[w])));
      const hit = new Uint8Array(ndocs);
      for (const l of lists) for (const d of l) hit[d] = 1;
      const out: number[] = [];
      hit.forEach((h, d) => {
        if (h) out.push(d);
      });
      return out;
    }
    // Each part's words, or null for any word (an empty first or last part: the query starts or ends with a space).
    this.ids ??= new Map(t.words.map((w, i) => [w, i]));
    const sets: (number[] | null)[] = parts.map((p, k) => {
      if (k > 0 && k < n) {
        const id = this.ids!.get(p);
        return id === undefined ? [] : [id];
      }
      if (p === "") return null;
      return this.wordsWhere(k === 0 ? (w) => w.endsWith(p) : (w) => w.startsWith(p));
    });
    if (sets.some((s) => s !== null && s.length === 0)) return [];
    const needed = sets.map((s, k) => ({ s, k })).filter((x): x is { s: number[]; k: number } => x.s !== null);
    const lists = await Promise.all(
      needed.map(async ({ s, k }) => ({ k, l: union(await Promise.all(s.map((w) => this.postings(INDEX_KINDS.pos, t.pos[w])))) })),
    );
    // Smallest first: each meet only shrinks the candidates. A candidate is the phrase's first position.
    lists.sort((a, b) => a.l.length - b.l.length || a.k - b.k);
    const out: number[] = [];
    const inDoc = (i: number): number | null => {
      const d = docOf(t.starts, i);
      return i >= t.starts[d] && i + n < t.starts[d + 1] - 1 ? d : null;
    };
    if (lists.length === 0) {
      // Only spaces: a doc with n + 1 words.
      for (let d = 0; d < ndocs; d++) if (t.starts[d + 1] - 1 - t.starts[d] >= n + 1) out.push(d);
      return out;
    }
    // Candidate first positions from the smallest list, then kept where every other list has its word.
    const first = lists[0];
    let cand: Uint32Array;
    {
      const c: number[] = [];
      for (const p of first.l) if (p >= first.k) c.push(p - first.k);
      cand = Uint32Array.from(c);
    }
    for (const { k, l } of lists.slice(1)) cand = meet(cand, l, k);
    // Ascending positions give ascending docs: a doc is added once.
    for (const i of cand) {
      const d = inDoc(i);
      if (d !== null && out[out.length - 1] !== d) out.push(d);
    }
    return out;
  }
}
