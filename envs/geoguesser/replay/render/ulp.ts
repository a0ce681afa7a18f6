/** Stepping a float64 by whole ulps (IEEE-754 neighbours), for the boundary search. */
const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);

/** The float64 `steps` representable values away from x (negative steps go down). */
export function ulpStep(x: number, steps: number): number {
  if (steps === 0 || !Number.isFinite(x)) return x;
  if (x === 0) {
    // Step through the subnormals on either side of zero.
    f64[0] = 0;
    i64[0] = BigInt(Math.abs(steps));
    return steps > 0 ? f64[0] : -f64[0];
  }
  f64[0] = x;
  // For positive x, larger bit pattern = larger value; for negative x, the reverse.
  const dir = x > 0 ? BigInt(steps) : BigInt(-steps);
  i64[0] = i64[0] + dir;
  return f64[0];
}
