// `npm run build`, after tsc: bundles the page client (src/page/client/*.ts) with esbuild into
// dist/src/page/client.bundle.json, so the installed package needs no esbuild at run time.
import { writeClientBundle } from "../dist/src/page/view/client.js";

const file = writeClientBundle();
process.stderr.write(`bundled the page client into ${file}\n`);
