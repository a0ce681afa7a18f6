/**
 * Python's float statistics, bit for bit: `math.fsum` (exactly rounded sum,
 * CPython's msum with its half-even fix-up), `statistics.fmean`, `median`,
 * and `stdev`/`pstdev` as Python 3.11+ computes them (exact rational sum of
 * squares, then a correctly rounded square root). geoeval's numbers come
 * from these; naive summation would differ in the last bits and, after
 * rounding to 4 places, sometimes in print. Pure, browser-safe.
 */

/** A running `math.fsum`: add values one by one; `value()` is fsum of everything added. */
export class FSum {
  private partials: number[] = [];
  private special = 0;
  private infSum = 0;
  private hasSpecial = false;
  count = 0;

  add(v: number): void {
    this.count += 1;
    let x = v;
    const p = this.partials;
    let i = 0;
    for (let j = 0; j < p.length; j++) {
      let y = p[j];
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) p[i++] = lo;
      x = hi;
    }
    p.length = i;
    if (x !== 0) {
      if (!Number.isFinite(x)) {
        // CPython: a non-finite input goes to the special sum; a finite overflow is an OverflowError.
        if (!Number.isFinite(v)) {
          this.special += v;
          this.infSum += v;
          this.hasSpecial = true;
        } else {
          this.special += x;
          this.hasSpecial = true;
        }
        p.length = 0;
      } else p.push(x);
    }
  }

  value(): number {
    if (this.hasSpecial) return this.special;
    const p = this.partials;
    let n = p.length;
    let hi = 0;
    if (n > 0) {
      hi = p[--n];
      let lo = 0;
      while (n > 0) {
        const x = hi;
        const y = p[--n];
        hi = x + y;
        const yr = hi - x;
        lo = y - yr;
        if (lo !== 0) break;
      }
      // Half-even rounding across several partials (CPython math_fsum).
      if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
        const y = lo * 2;
        const x = hi + y;
        const yr = x - hi;
        if (y === yr) hi = x;
      }
    }
    return hi;
  }
}

export function fsum(values: Iterable<number>): number {
  const s = new FSum();
  for (const v of values) s.add(v);
  return s.value();
}

/** `statistics.fmean`: fsum / n; NaN for no data (the caller prints `nan` where Python would). */
export function fmean(values: Iterable<number>): number {
  const s = new FSum();
  for (const v of values) s.add(v);
  return s.count === 0 ? Number.NaN : s.value() / s.count;
}

/** `statistics.median`: the middle value, or the mean of the two middle values (a+b)/2. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const d = Float64Array.from(values).sort();
  const n = d.length;
  if (n % 2 === 1) return d[(n - 1) / 2];
  return (d[n / 2 - 1] + d[n / 2]) / 2;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** A finite double as mantissa · 2^exponent, mantissa a (signed) BigInt. */
export function exactRatio(x: number): { mant: bigint; exp: number } {
  F64[0] = x;
  const lo = U32[0];
  const hi = U32[1];
  const sign = hi >>> 31 ? -1n : 1n;
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (bexp === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = bexp - 1075;
  }
  return { mant: sign * mant, exp };
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** Integer square root (floor) of a non-negative BigInt, by Newton's method. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((bitLength(n) + 1) >> 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

const SQRT_BIT_WIDTH = 2 * 53 + 3;

/** CPython `statistics._float_sqrt_of_frac`: sqrt(n/m) correctly rounded to a double. */
export function floatSqrtOfFrac(n: bigint, m: bigint): number {
  const q = Math.floor((bitLength(n) - bitLength(m) - SQRT_BIT_WIDTH) / 2);
  const rto = (a: bigint, b: bigint): bigint => {
    const r = isqrt(a / b);
    return r * r * b !== a ? r | 1n : r;
  };
  if (q >= 0) return Number(rto(n, m << BigInt(2 * q)) << BigInt(q));
  // numerator / 2^-q: Number() rounds the odd-rounded root once, correctly; the power of two is exact.
  const num = rto(n << BigInt(-2 * q), m);
  return bigToNumberScaled(num, -q);
}

/** num / 2^k rounded once to the nearest double (k >= 0). */
function bigToNumberScaled(num: bigint, k: number): number {
  const v = Number(num);
  // Exact scaling while the result stays normal (always the case for standard deviations of scores).
  let out = v;
  let left = k;
  while (left > 0) {
    const s = Math.min(left, 1000);
    out /= 2 ** s;
    left -= s;
  }
  return out;
}

/** Python 3.11+ `statistics.stdev` (sample, n-1) or `pstdev` (population, n). */
function exactSd(values: readonly number[], population: boolean): number {
  const n = values.length;
  if (n < (population ? 1 : 2)) return Number.NaN;
  if (values.some((v) => !Number.isFinite(v))) return Number.NaN;
  const parts = values.map(exactRatio);
  const emin = Math.min(...parts.map((p) => p.exp));
  let sx = 0n;
  let sxx = 0n;
  for (const p of parts) {
    const X = p.mant << BigInt(p.exp - emin);
    sx += X;
    sxx += X * X;
  }
  const N = BigInt(n);
  // ss / (n-1) = 2^(2·emin) · (n·ΣX² − (ΣX)²) / (n·(n−1)): exact.
  let num = N * sxx - sx * sx;
  let den = N * (population ? N : N - 1n);
  if (emin >= 0) num <<= BigInt(2 * emin);
  else den <<= BigInt(-2 * emin);
  return floatSqrtOfFrac(num, den);
}

export const stdev = (values: readonly number[]): number => exactSd(values, false);
export const pstdev = (values: readonly number[]): number => exactSd(values, true);
