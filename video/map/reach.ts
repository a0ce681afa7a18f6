/**
 * How far a place reaches from its point, in km: a disc at 4,000 people per km² (a metropolis'
 * built-up density; Buenos Aires' 13 million reach 32 km, a town of 50,000 2 km). The gazetteer
 * (places.ts) has points, not extents: this is what lets a pin in a city's outskirts name the
 * city rather than the suburb whose point it happens to cover (labels.ts).
 */
export function placeReachKm(population: number): number {
  return Math.sqrt(Math.max(0, population) / 4000 / Math.PI);
}
