/**
 * Label words: the model names objects in its own words; the gym reduces a label to a class
 * (phrase, then word pairs from the last, then single words from the last). Contract "Labels".
 */

const SYNONYMS: Record<string, string[]> = {
  person: ["person", "man", "woman", "human", "people", "astronaut", "photographer", "cameraman", "pedestrian", "boy", "girl", "child", "kid"],
  helmet: ["helmet", "space helmet"],
  flag: ["flag", "banner", "american flag", "us flag"],
  "space shuttle": ["space shuttle", "shuttle", "orbiter", "spacecraft", "shuttle model"],
  patch: ["patch", "badge", "emblem", "insignia", "mission patch"],
  cup: ["cup", "mug", "coffee cup", "espresso cup", "teacup"],
  saucer: ["saucer", "plate", "dish"],
  spoon: ["spoon", "teaspoon"],
  coin: ["coin", "token"],
  cat: ["cat", "kitten", "kitty", "tabby"],
  eye: ["eye"],
  nose: ["nose"],
  rocket: ["rocket", "falcon", "launch vehicle", "booster", "missile"],
  tower: ["tower", "lightning tower", "mast", "pylon", "lattice tower", "launch tower"],
  galaxy: ["galaxy", "spiral galaxy", "elliptical galaxy", "nebula"],
  star: ["star"],
  camera: ["camera", "video camera", "camcorder"],
  tripod: ["tripod", "stand"],
  building: ["building", "skyscraper", "tower block", "high rise"],
  car: ["car", "automobile", "auto", "sedan", "vehicle", "taxi", "hatchback"],
  sign: ["sign", "road sign", "traffic sign", "stop sign", "street sign", "signpost", "warning sign", "yield sign"],
  ball: ["ball", "beach ball", "football", "soccer ball", "sphere"],
  tree: ["tree", "bush", "pine", "oak"],
  house: ["house", "home", "cottage", "hut", "cabin", "shed"],
  kite: ["kite"],
};
const STOP_WORDS = new Set(["a", "an", "the", "of", "some", "this", "that", "my"]);

/** Plain-word singular: galaxies -> galaxy, boxes -> box, coins -> coin. */
export function singular(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (["xes", "ches", "shes", "sses"].some((s) => w.endsWith(s))) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !["ss", "us", "is"].some((s) => w.endsWith(s))) return w.slice(0, -1);
  return w;
}

/** ASCII-lowercase; everything outside [a-z0-9] separates; stop words dropped; singular. */
export function words(s: string): string[] {
  const lowered = s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return lowered
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && !STOP_WORDS.has(w))
    .map(singular);
}

const FORMS: Map<string, string> = (() => {
  const forms = new Map<string, string>();
  for (const [cls, fs] of Object.entries(SYNONYMS)) for (const f of [...fs, cls]) forms.set(words(f).join(" "), cls);
  return forms;
})();

/** The class of a free-text label, or null. */
export function canonical(label: unknown): string | null {
  if (typeof label !== "string") return null;
  const ws = words(label);
  if (!ws.length) return null;
  const phrase = FORMS.get(ws.join(" "));
  if (phrase) return phrase;
  for (let i = ws.length - 1; i > 0; i--) {
    const pair = FORMS.get(`${ws[i - 1]} ${ws[i]}`);
    if (pair) return pair;
  }
  for (let i = ws.length - 1; i >= 0; i--) {
    const one = FORMS.get(ws[i]);
    if (one) return one;
  }
  return null;
}

export function labelOk(pred: string, gt: string): boolean {
  const c = canonical(pred);
  return c !== null && c === canonical(gt);
}
