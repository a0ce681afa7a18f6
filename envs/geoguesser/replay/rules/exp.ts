/**
 * exp(x) correctly rounded to the nearest double, for Python parity.
 * Python's math.exp is the C library's (glibc: within 0.502 ulp, in practice
 * the correctly rounded value); V8's Math.exp is an fdlibm port that is off
 * by one ulp for about 1 argument in 10, which shows in full-precision
 * rewards and means. Computed in double-double (about 104 bits): x = k·ln2 + r,
 * exp(r) by Taylor series, then one rounding. Pure and browser-safe.
 */

// ln 2 = LN2_HI + LN2_LO, LN2_HI the nearest double.
const LN2_HI = 0.6931471805599453;
const LN2_LO = 2.319046813846299558e-17;
const SPLIT = 134217729; // 2^27 + 1 (Dekker)

function twoSum(a: number, b: number): [number, number] {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function quickTwoSum(a: number, b: number): [number, number] {
  const s = a + b;
  return [s, b - (s - a)];
}

function twoProd(a: number, b: number): [number, number] {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function ddAdd(ah: number, al: number, bh: number, bl: number): [number, number] {
  let [s, e] = twoSum(ah, bh);
  const [t, f] = twoSum(al, bl);
  e += t;
  [s, e] = quickTwoSum(s, e);
  e += f;
  return quickTwoSum(s, e);
}

function ddMul(ah: number, al: number, bh: number, bl: number): [number, number] {
  const [p, e] = twoProd(ah, bh);
  return quickTwoSum(p, e + (ah * bl + al * bh));
}

function ddDivInt(ah: number, al: number, n: number): [number, number] {
  const q1 = ah / n;
  const [p, e] = twoProd(q1, n);
  const r = ah - p - e + al;
  return quickTwoSum(q1, r / n);
}

export function pyExp(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x === 0) return 1;
  if (x > 709.782712893384) return Infinity;
  if (x < -745.1332191019412) return 0;
  const k = Math.round(x / LN2_HI);
  // r = x − k·ln2 in double-double (k·LN2_HI is exact as a two-product).
  const [p, pe] = twoProd(k, LN2_HI);
  let [rh, rl] = twoSum(x, -p);
  [rh, rl] = ddAdd(rh, rl, -pe, -k * LN2_LO);
  // exp(r), |r| <= 0.35: Taylor series until the terms no longer matter at 2^-110.
  let sh = 1;
  let sl = 0;
  let th = 1;
  let tl = 0;
  for (let i = 1; i < 40; i++) {
    [th, tl] = ddMul(th, tl, rh, rl);
    [th, tl] = ddDivInt(th, tl, i);
    [sh, sl] = ddAdd(sh, sl, th, tl);
    if (Math.abs(th) < 1e-36) break;
  }
  // One rounding: sh is the double nearest sh + sl; scaling by 2^k is exact for normal results.
  const v = sh + sl;
  if (k > 1000) return v * 2 ** 1000 * 2 ** (k - 1000);
  if (k < -1000) {
    // Subnormal range: round once at the final scale (exact double-double scaling first).
    return (sh * 2 ** -1000 + sl * 2 ** -1000) * 2 ** (k + 1000);
  }
  return v * 2 ** k;
}
