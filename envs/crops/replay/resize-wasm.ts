/**
 * The two passes of resize.ts's bicubic resize as WebAssembly SIMD (4 int32 lanes), assembled
 * here from the instruction list below: no toolchain and no binary file; the module's bytes are
 * this source's output. Same integer arithmetic as the scalar passes (int32 sums that wrap as in
 * C, `>> 22`, clamp to 0..255 by two saturating narrows), so the same bytes: the scalar code in
 * resize.ts stays the readable rule and the test oracle.
 *
 * hpass: each output pixel's RGB in one vector (a 4-byte load, the fourth lane ignored), one
 * multiply-add per tap instead of three. vpass: 16 bytes of a row per vector group, one
 * multiply-add per tap and 4 bytes instead of per byte. Both take taps four at a time (fixed
 * offsets, one loop step) while four remain. Both read and write up to 15 bytes past a row (the
 * caller leaves slack; later rows overwrite what spills into them).
 */

// ---- a minimal WebAssembly binary writer: only what the two functions use

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};

const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, "utf8")];

const I32 = 0x7f;
const V128 = 0x7b;
const simd = (op: number) => [0xfd, ...uleb(op)];
const memarg = (align: number, offset = 0) => [...uleb(align), ...uleb(offset)];

// Instructions (the spec's opcodes).
const get = (i: number) => [0x20, ...uleb(i)];
const set = (i: number) => [0x21, ...uleb(i)];
const i32 = (n: number) => [0x41, ...sleb(n)];
const add = [0x6a];
const sub = [0x6b];
const mul = [0x6c];
const shl = [0x74];
const geS = [0x4e];
const load = [0x28, ...memarg(2)];
const loadAt = (offset: number) => [0x28, ...memarg(2, offset)];
const br = (d: number) => [0x0c, ...uleb(d)];
const brIf = (d: number) => [0x0d, ...uleb(d)];
const end = [0x0b];
const v128Load = [...simd(0x00), ...memarg(0)];
const v128Store = [...simd(0x0b), ...memarg(0)];
const load32ZeroAt = (offset: number) => [...simd(0x5c), ...memarg(0, offset)];
const store32Lane0 = [...simd(0x5a), ...memarg(0), 0];
const splat = simd(0x11);
const extLowU8 = simd(0x89); // i16x8.extend_low_i8x16_u
const extHighU8 = simd(0x8a);
const extLowU16 = simd(0xa9); // i32x4.extend_low_i16x8_u
const extHighU16 = simd(0xaa);
const vAdd = simd(0xae); // i32x4.add
const vMul = simd(0xb5); // i32x4.mul
const vShrS = simd(0xac); // i32x4.shr_s
const narrowS32 = simd(0x85); // i16x8.narrow_i32x4_s (saturating)
const narrowU16 = simd(0x66); // i8x16.narrow_i16x8_u (saturating: clamps to 0..255)

/** `for (var = 0; var < limit; var += step) body`: limit and step as instruction lists. */
const forLoop = (v: number, limit: number[], step: number[], body: number[]): number[] => [...i32(0), ...set(v), ...whileLoop(v, limit, step, body)];
/** `for (; var < limit; var += step) body`. */
const whileLoop = (v: number, limit: number[], step: number[], body: number[]): number[] => [
  ...[0x02, 0x40, 0x03, 0x40], // block, loop
  ...get(v),
  ...limit,
  ...geS,
  ...brIf(1),
  ...body,
  ...get(v),
  ...step,
  ...add,
  ...set(v),
  ...br(0),
  ...end,
  ...end,
];
const inc = (v: number, by: number[]) => [...get(v), ...by, ...add, ...set(v)];

const PRECISION_BITS = 22;
const HALF = 1 << (PRECISION_BITS - 1);
/** (acc >> 22) clamped to 0..255, in lane order: narrow to i16 then to u8, both saturating. */
const clip = (a: number[], b: number[], c: number[], d: number[]) => [
  ...a,
  ...i32(PRECISION_BITS),
  ...vShrS,
  ...b,
  ...i32(PRECISION_BITS),
  ...vShrS,
  ...narrowS32,
  ...c,
  ...i32(PRECISION_BITS),
  ...vShrS,
  ...d,
  ...i32(PRECISION_BITS),
  ...vShrS,
  ...narrowS32,
  ...narrowU16,
];

/** hpass(src, srcRow, first, rows, W, minP, cntP, kP, ksize, tmp): rows of the source, horizontally. */
function hpass(): number[] {
  const [src, srcRow, first, rows, W, minP, cntP, kP, ksize, tmp] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const [r, base, o, xx, p, kp, n, t] = [10, 11, 12, 13, 14, 15, 16, 17];
  const [acc, half] = [18, 19];
  const locals = [
    [8, I32],
    [2, V128],
  ];
  // Four taps a step while four remain, then one at a time.
  const tap = (i: number) => [
    ...get(acc),
    ...get(p),
    ...load32ZeroAt(3 * i),
    ...extLowU8,
    ...extLowU16,
    ...get(kp),
    ...loadAt(4 * i),
    ...splat,
    ...vMul,
    ...vAdd,
    ...set(acc),
  ];
  const taps = [...tap(0), ...tap(1), ...tap(2), ...tap(3), ...inc(p, i32(12)), ...inc(kp, i32(16))];
  const lastTaps = [...tap(0), ...inc(p, i32(3)), ...inc(kp, i32(4))];
  const pixel = [
    ...get(base),
    ...get(minP),
    ...get(xx),
    ...i32(2),
    ...shl,
    ...add,
    ...load,
    ...i32(3),
    ...mul,
    ...add,
    ...set(p),
    ...get(kP),
    ...get(xx),
    ...get(ksize),
    ...mul,
    ...add,
    ...set(kp),
    ...get(cntP),
    ...get(xx),
    ...i32(2),
    ...shl,
    ...add,
    ...load,
    ...set(n),
    ...get(half),
    ...set(acc),
    ...forLoop(t, [...get(n), ...i32(3), ...sub], i32(4), taps),
    ...whileLoop(t, get(n), i32(1), lastTaps),
    ...get(o),
    ...clip(get(acc), get(acc), get(acc), get(acc)),
    ...store32Lane0,
    ...inc(o, i32(3)),
  ];
  const row = [
    ...get(src),
    ...get(first),
    ...get(r),
    ...add,
    ...get(srcRow),
    ...mul,
    ...add,
    ...set(base),
    ...get(tmp),
    ...get(r),
    ...get(W),
    ...mul,
    ...i32(3),
    ...mul,
    ...add,
    ...set(o),
    ...forLoop(xx, get(W), i32(1), pixel),
  ];
  const body = [...i32(HALF), ...splat, ...set(half), ...get(ksize), ...i32(2), ...shl, ...set(ksize), ...forLoop(r, get(rows), i32(1), row)];
  return [...vec(locals.map(([c, ty]) => [...uleb(c), ty])), ...body, ...end];
}

/** vpass(tmp, rowLen, first, H, minP, cntP, kP, ksize, out): the intermediate rows, vertically. */
function vpass(): number[] {
  const [tmp, rowLen, first, H, minP, cntP, kP, ksize, out] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const [yy, n, kb, r0, o, j, p, kp, t] = [9, 10, 11, 12, 13, 14, 15, 16, 17];
  const [a0, a1, a2, a3, v, kv, lo, hi, half] = [18, 19, 20, 21, 22, 23, 24, 25, 26];
  const locals = [
    [9, I32],
    [9, V128],
  ];
  const madd = (a: number, ext: number[], from: number) => [...get(a), ...get(from), ...ext, ...get(kv), ...vMul, ...vAdd, ...set(a)];
  // Four taps a step while four remain, then one at a time, as in hpass: tap i reads the row i rows below p.
  const tap = (i: number) => [
    ...get(kp),
    ...loadAt(4 * i),
    ...splat,
    ...set(kv),
    ...get(p),
    ...v128Load,
    ...set(v),
    ...get(v),
    ...extLowU8,
    ...set(lo),
    ...get(v),
    ...extHighU8,
    ...set(hi),
    ...madd(a0, extLowU16, lo),
    ...madd(a1, extHighU16, lo),
    ...madd(a2, extLowU16, hi),
    ...madd(a3, extHighU16, hi),
    ...inc(p, get(rowLen)),
  ];
  const taps = [...tap(0), ...tap(1), ...tap(2), ...tap(3), ...inc(kp, i32(16))];
  const lastTaps = [...tap(0), ...inc(kp, i32(4))];
  const chunk = [
    ...get(half),
    ...set(a0),
    ...get(half),
    ...set(a1),
    ...get(half),
    ...set(a2),
    ...get(half),
    ...set(a3),
    ...get(r0),
    ...get(j),
    ...add,
    ...set(p),
    ...get(kb),
    ...set(kp),
    ...forLoop(t, [...get(n), ...i32(3), ...sub], i32(4), taps),
    ...whileLoop(t, get(n), i32(1), lastTaps),
    ...get(o),
    ...get(j),
    ...add,
    ...clip(get(a0), get(a1), get(a2), get(a3)),
    ...v128Store,
  ];
  const row = [
    ...get(cntP),
    ...get(yy),
    ...i32(2),
    ...shl,
    ...add,
    ...load,
    ...set(n),
    ...get(kP),
    ...get(yy),
    ...get(ksize),
    ...mul,
    ...add,
    ...set(kb),
    ...get(tmp),
    ...get(minP),
    ...get(yy),
    ...i32(2),
    ...shl,
    ...add,
    ...load,
    ...get(first),
    ...sub,
    ...get(rowLen),
    ...mul,
    ...add,
    ...set(r0),
    ...get(out),
    ...get(yy),
    ...get(rowLen),
    ...mul,
    ...add,
    ...set(o),
    ...forLoop(j, get(rowLen), i32(16), chunk),
  ];
  const body = [...i32(HALF), ...splat, ...set(half), ...get(ksize), ...i32(2), ...shl, ...set(ksize), ...forLoop(yy, get(H), i32(1), row)];
  return [...vec(locals.map(([c, ty]) => [...uleb(c), ty])), ...body, ...end];
}

/** The module's bytes: one growable memory and the two passes, exported as memory, hpass, vpass. */
export function resizeModuleBytes(): Uint8Array<ArrayBuffer> {
  const fn = (params: number) => [0x60, ...vec(Array.from({ length: params }, () => [I32])), 0];
  const body = (b: number[]) => [...uleb(b.length), ...b];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([fn(10), fn(9)])),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([
        [...name("memory"), 2, 0],
        [...name("hpass"), 0, 0],
        [...name("vpass"), 0, 1],
      ]),
    ),
    ...section(10, vec([body(hpass()), body(vpass())])),
  ]);
}

export interface ResizeKernels {
  memory: WebAssembly.Memory;
  hpass: (src: number, srcRow: number, first: number, rows: number, W: number, minP: number, cntP: number, kP: number, ksize: number, tmp: number) => void;
  vpass: (tmp: number, rowLen: number, first: number, H: number, minP: number, cntP: number, kP: number, ksize: number, out: number) => void;
}

let kernels: ResizeKernels | null = null;

/** The compiled kernels, once per thread (a synchronous compile of a ~1 KB module). */
export function resizeKernels(): ResizeKernels {
  kernels ??= new WebAssembly.Instance(new WebAssembly.Module(resizeModuleBytes())).exports as unknown as ResizeKernels;
  return kernels;
}
