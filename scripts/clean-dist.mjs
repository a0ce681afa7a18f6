// Removes compiled output from earlier builds (but keeps the cut map, slow to make), so a module
// that moved or was deleted cannot linger in dist/ and let a test pass here that fails on a clean
// checkout.
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
let entries = [];
try {
  entries = readdirSync(dist);
} catch {
  process.exit(0);
}
for (const name of entries) if (name !== "map") rmSync(join(dist, name), { recursive: true, force: true });
