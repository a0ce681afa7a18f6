/**
 * A map's scale bar: the longest round length (1, 2 or 5 × a power of ten)
 * that fits a width, in km, or m below 1 km. Read at the frame's centre
 * (Mercator stretches away from it; at these zooms the error is small).
 */
export function scaleBar(kmPerPx: number, maxPx: number): { px: number; label: string } {
  const maxKm = kmPerPx * maxPx;
  const p = 10 ** Math.floor(Math.log10(maxKm));
  const km = [5, 2, 1].map((k) => k * p).find((k) => k <= maxKm) ?? p;
  // Rounded through toPrecision: 0.1 + noise would print as 100.00000000000001 m.
  const label = km < 1 ? `${Number((km * 1000).toPrecision(3))} m` : `${Number(km.toPrecision(3)).toLocaleString("en-US")} km`;
  return { px: km / kmPerPx, label };
}
