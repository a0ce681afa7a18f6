/**
 * The layout is a contract: imports run one way, engine below, delivery above, environments beside.
 *   replay/  the core engine: knows no environment; imports nothing from src/, video/ or envs/, no
 *            CLI, HTML, Remotion or process policy
 *   envs/    one folder per environment (envs/<env>/replay/ its engine, under replay/'s rules;
 *            envs/<env>/src/ its command bodies), the interface (envs/environment.ts) and the
 *            registry keyed by the records' env (envs/index.ts); environments never import each other
 *   video/   the frame-pure composition: only browser-safe engine modules
 *   src/     delivery: CLI, page shell, MP4 driver, public API; like video/, knows no environment: it
 *            reaches one only through the seam (the interface, the registry and its registrations)
 * Inside replay/ the folders have an order (ENGINE_LAYERS), and no files anywhere import in a circle.
 * A wrong import fails here, naming the file, the line and the rule.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
type Folder = "replay" | "envs" | "video" | "src";

interface Edge {
  from: string; // repo-relative file
  line: number;
  spec: string;
  /** Repo-relative target for relative imports, else null (a package or node: builtin). */
  target: string | null;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

/** Static imports and re-exports, dynamic import(), and worker URLs (new URL("./x.js", import.meta.url)). */
function edgesOf(file: string): Edge[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const edges: Edge[] = [];
  const patterns = [
    /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/g,
    /(?:^|\n)\s*import\s*["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) {
      const spec = m[1];
      const line = text.slice(0, m.index + m[0].indexOf(spec)).split("\n").length;
      const target = spec.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, ".ts") : null;
      edges.push({ from: file, line, spec, target });
    }
  }
  return edges;
}

const folderOf = (path: string): string => path.split("/")[0];
const packageOf = (spec: string): string => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);

const files: Record<Folder, string[]> = { replay: sourceFiles("replay"), envs: sourceFiles("envs"), video: sourceFiles("video"), src: sourceFiles("src") };
const edges = Object.values(files).flat().flatMap(edgesOf);
const where = (e: Edge) => `${e.from}:${e.line} imports ${e.spec}`;

/** Packages the engine may use: validation and image decoding/encoding. */
const ENGINE_PACKAGES = new Set(["zod", "sharp"]);
/** envs/<env>/replay/: an environment's engine. */
const isEnvEngine = (f: string): boolean => /^envs\/[^/]+\/replay\//.test(f);
/** The environment a file of envs/ belongs to (null for the seam itself: envs/environment.ts, envs/index.ts). */
const envOf = (f: string): string | null => (f.split("/").length > 2 ? f.split("/")[1] : null);
/** The seam: the interface every environment implements, the registry that picks one by the records' env, the compositions environments bring to the painter (and to Remotion Studio), their JSON Schemas, their public APIs, and the makers of the native painter's deferred views. */
const SEAM = new Set([
  "envs/environment.ts",
  "envs/index.ts",
  "envs/compositions.ts",
  "envs/studio.ts",
  "envs/schemas.ts",
  "envs/api.ts",
  "envs/deferred-views.ts",
]);

/**
 * The Remotion entries (the bundle's entry and the package's `georeplay/video/remotion`) list every
 * environment's compositions, so they load the seam's registrations, as the painter's threads do;
 * nothing else of core video/ imports from envs/.
 */
const REMOTION_ENTRIES = new Set(["video/remotion/index.ts", "video/remotion/api.ts"]);
const REGISTRATIONS = new Set(["envs/compositions.ts", "envs/studio.ts"]);

/** Engine modules the composition may import: browser-safe by construction (checked below). */
const BROWSER_SAFE = [
  /^replay\/trace\/[^/]+\.ts$/,
  /^envs\/geoguesser\/replay\/timeline\/(timeline-schema|align)\.ts$/,
  /^envs\/geoguesser\/replay\/rules\/[^/]+\.ts$/,
];

describe("imports run one way: replay/ <- video/ <- src/", () => {
  it("finds the three folders' sources and their imports", () => {
    for (const f of ["replay", "video", "src"] as Folder[]) expect(files[f].length, f).toBeGreaterThan(5);
    expect(edges.length).toBeGreaterThan(100);
  });

  it("replay/ imports only replay/, node builtins, zod and sharp", () => {
    const bad = edges
      .filter((e) => folderOf(e.from) === "replay")
      .filter((e) => (e.target ? folderOf(e.target) !== "replay" : !e.spec.startsWith("node:") && !ENGINE_PACKAGES.has(packageOf(e.spec))))
      .map(where);
    expect(bad).toEqual([]);
  });

  it("replay/ sets no process policy: no exit, signal handlers, environment changes, output streams or global library settings", () => {
    const rules: [RegExp, string][] = [
      [/process\.exit\b/, "process.exit"],
      [/process\.(on|once|off|addListener)\(/, "process event handlers"],
      [/process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/, "environment changes"],
      [/process\.(stdout|stderr)\b/, "writing to the terminal"],
      [/process\.exitCode/, "exit codes"],
      [/^(?!\s*(\/\/|\*)).*sharp\.(cache|concurrency|simd)\(/m, "sharp.cache()/concurrency() (a host application's sharp)"],
    ];
    const bad: string[] = [];
    for (const f of [...files.replay, ...files.envs.filter(isEnvEngine)]) {
      const lines = readFileSync(join(ROOT, f), "utf8").split("\n");
      lines.forEach((text, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(text)) return; // comments may talk about it
        for (const [re, what] of rules) if (re.test(text)) bad.push(`${f}:${i + 1}: ${what}`);
      });
    }
    expect(bad).toEqual([]);
  });

  it("envs/*/replay/ imports only its own environment's engine, the core engine (replay/), node builtins, zod and sharp", () => {
    expect(files.envs.filter(isEnvEngine).length).toBeGreaterThan(3);
    const bad = edges
      .filter((e) => isEnvEngine(e.from))
      .filter((e) => {
        if (!e.target) return !e.spec.startsWith("node:") && !ENGINE_PACKAGES.has(packageOf(e.spec));
        if (isEnvEngine(e.target) && envOf(e.target) === envOf(e.from)) return false;
        return folderOf(e.target) !== "replay";
      })
      .map(where);
    expect(bad).toEqual([]);
  });

  it("the core engine (replay/) knows no environment: it imports nothing from envs/", () => {
    const bad = edges.filter((e) => folderOf(e.from) === "replay" && e.target && folderOf(e.target) === "envs").map(where);
    expect(bad).toEqual([]);
  });

  it("environments do not import each other", () => {
    const bad = edges
      .filter(
        (e) =>
          folderOf(e.from) === "envs" && envOf(e.from) && e.target && folderOf(e.target) === "envs" && envOf(e.target) && envOf(e.target) !== envOf(e.from),
      )
      .map(where);
    expect(bad).toEqual([]);
  });

  it("the seam imports only the core, loads each environment lazily, and registers only their frame-pure compositions", () => {
    const bad = edges
      .filter((e) => SEAM.has(e.from) && e.target && folderOf(e.target) === "envs" && envOf(e.target))
      .filter((e) => !(e.from === "envs/index.ts" && /\bimport\(/.test(readFileSync(join(ROOT, e.from), "utf8").split("\n")[e.line - 1])))
      // The painter's threads register every environment's compositions before they build a scene: frame-pure code only.
      .filter((e) => !((e.from === "envs/compositions.ts" || e.from === "envs/studio.ts") && /^envs\/[^/]+\/video\//.test(e.target!)))
      // `georeplay schema` prints every environment's zod schemas as JSON Schema: schema modules only.
      .filter((e) => !(e.from === "envs/schemas.ts" && /^envs\/[^/]+\/replay\/(schema\/[^/]+|.*-schema)\.ts$/.test(e.target!)))
      // The package's entry point (src/index.ts) gives each environment's public API: its api.ts only (the rest of it loads when a call needs it).
      .filter((e) => !(e.from === "envs/api.ts" && /^envs\/[^/]+\/api\.ts$/.test(e.target!)))
      // The native painter's threads make an environment's deferred views with its maker (src/film/): loaded lazily, when a video has some.
      .filter(
        (e) =>
          !(
            e.from === "envs/deferred-views.ts" &&
            /^envs\/[^/]+\/src\/film\/[^/]+\.ts$/.test(e.target!) &&
            /\bimport\(/.test(readFileSync(join(ROOT, e.from), "utf8").split("\n")[e.line - 1])
          ),
      )
      .map(where);
    expect(bad).toEqual([]);
  });

  it("core imports no environment: src/ and video/ reach one only through the seam", () => {
    const bad = edges
      .filter((e) => (folderOf(e.from) === "src" || folderOf(e.from) === "video") && e.target && folderOf(e.target) === "envs" && !SEAM.has(e.target))
      .map(where);
    expect(bad).toEqual([]);
  });

  it("the core's serve (src/serve/) imports no environment: each environment serves its own runs", () => {
    const bad = edges
      .filter((e) => e.from.startsWith("src/serve/") && e.target)
      .filter((e) => folderOf(e.target!) === "envs" && !SEAM.has(e.target!))
      .map(where);
    expect(bad).toEqual([]);
  });

  it("video/ imports only video/, browser-safe replay modules, and the scene and painter's packages (video/remotion/: also Remotion's)", () => {
    // Scenes, layout, text and the painter: pure, for both engines.
    const scenePackages = new Set(["zod", "d3-geo", "topojson-client", "topojson-specification", "linebreak"]);
    // The Remotion compositions add Remotion, React, and the files they bundle (fonts, the atlas).
    const remotionPackages = new Set(["remotion", "react", "world-atlas"]);
    const isRemotion = (f: string) => f.startsWith("video/remotion/");
    const bad = edges
      .filter((e) => folderOf(e.from) === "video")
      .filter((e) => {
        if (!e.target) {
          const pkg = packageOf(e.spec);
          if (scenePackages.has(pkg)) return false;
          return !(isRemotion(e.from) && (remotionPackages.has(pkg) || pkg.startsWith("@fontsource/")));
        }
        if (folderOf(e.target) === "video") return false;
        if (REMOTION_ENTRIES.has(e.from) && REGISTRATIONS.has(e.target)) return false;
        return !BROWSER_SAFE.some((re) => re.test(e.target!));
      })
      .map(where);
    expect(bad).toEqual([]);
  });

  it("core video/ knows no environment: it imports nothing from envs/ (the Remotion entries import only the seam's registrations)", () => {
    const bad = edges
      .filter((e) => folderOf(e.from) === "video" && e.target && folderOf(e.target) === "envs")
      .filter((e) => !(REMOTION_ENTRIES.has(e.from) && REGISTRATIONS.has(e.target!)))
      .map(where);
    expect(bad).toEqual([]);
  });

  it("envs/*/video/ is frame-pure like video/: core video/ (not its Remotion wrapper), browser-safe replay modules, its own environment's video/ and engine, the scene packages", () => {
    const isEnvVideo = (f: string) => /^envs\/[^/]+\/video\//.test(f);
    expect(files.envs.filter(isEnvVideo).length).toBeGreaterThan(3);
    const scenePackages = new Set(["zod", "d3-geo", "topojson-client", "topojson-specification", "linebreak"]);
    const bad = edges
      .filter((e) => isEnvVideo(e.from))
      .filter((e) => {
        if (!e.target) return !scenePackages.has(packageOf(e.spec));
        if (folderOf(e.target) === "video") return e.target.startsWith("video/remotion/");
        if (folderOf(e.target) === "replay") return !BROWSER_SAFE.some((re) => re.test(e.target!));
        return !(folderOf(e.target) === "envs" && envOf(e.target) === envOf(e.from) && (isEnvVideo(e.target) || isEnvEngine(e.target)));
      })
      .map(where);
    expect(bad).toEqual([]);
  });

  it("the engine modules an environment's video/ uses are browser-safe all the way down (no node builtins, no sharp, no Skia)", () => {
    const used = edges.filter((e) => /^envs\/[^/]+\/video\//.test(e.from) && e.target && isEnvEngine(e.target)).map((e) => e.target!);
    expect(used.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    const bad: string[] = [];
    const walk = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const e of edgesOf(f)) {
        if (e.target) walk(e.target);
        else if (e.spec.startsWith("node:") || ["sharp", "@napi-rs/canvas"].includes(packageOf(e.spec))) bad.push(where(e));
      }
    };
    used.forEach(walk);
    expect(bad).toEqual([]);
  });

  it("only video/remotion/ imports Remotion or React, and nothing outside it imports video/remotion/", () => {
    const remotionish = (spec: string) => ["remotion", "react", "react-dom"].includes(packageOf(spec)) || packageOf(spec).startsWith("@remotion/");
    const bad = edges
      .filter((e) => folderOf(e.from) === "video" && !e.from.startsWith("video/remotion/"))
      .filter((e) => (e.target ? e.target.startsWith("video/remotion/") : remotionish(e.spec)))
      .map(where);
    expect(bad).toEqual([]);
    expect(edges.some((e) => e.from.startsWith("video/remotion/") && !e.target && packageOf(e.spec) === "remotion")).toBe(true);
  });

  it("video/ imports no node: builtins and no @napi-rs/canvas (it runs in the browser too); src/film/native/ may", () => {
    const bad = edges
      .filter((e) => folderOf(e.from) === "video" && !e.target)
      .filter((e) => e.spec.startsWith("node:") || packageOf(e.spec) === "@napi-rs/canvas")
      .map(where);
    expect(bad).toEqual([]);
    // src/film/native/ may (the rule above sees its imports).
    expect(edges.some((e) => e.from.startsWith("src/film/native/") && !e.target && packageOf(e.spec) === "@napi-rs/canvas")).toBe(true);
  });

  it("the replay modules video/ may use are browser-safe all the way down (no node builtins, no sharp)", () => {
    const safe = [...files.replay, ...files.envs].filter((f) => BROWSER_SAFE.some((re) => re.test(f)));
    expect(safe).toContain("envs/geoguesser/replay/timeline/timeline-schema.ts");
    const seen = new Set<string>();
    const bad: string[] = [];
    const walk = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const e of edgesOf(f)) {
        if (e.target) walk(e.target);
        else if (e.spec.startsWith("node:") || packageOf(e.spec) === "sharp") bad.push(where(e));
      }
    };
    safe.forEach(walk);
    expect(bad).toEqual([]);
  });

  it("nothing below src/ imports from src/ (an environment's command bodies, envs/<env>/src/, and the seam may: they are delivery)", () => {
    const delivery = (f: string) => folderOf(f) === "src" || (folderOf(f) === "envs" && !isEnvEngine(f));
    const bad = edges.filter((e) => !delivery(e.from) && e.target && folderOf(e.target) === "src").map(where);
    expect(bad).toEqual([]);
  });

  it("every relative import names a file that exists", () => {
    const missing = edges.filter((e) => e.target && !existsFile(e.target)).map(where);
    expect(missing).toEqual([]);
  });
});

/**
 * The engine's inner order, lowest first: a module imports only from its own layer or the ones
 * before it. The core engine (replay/) and GeoGuesser's (envs/geoguesser/replay/) share one order,
 * folder by folder: io is the vocabulary; trace (how any turn reads: tool calls, the trace pane's entry) is browser-safe; schema, rules and the timeline contract (browser-safe)
 * are GeoGuesser's; panoramas, the renderer and tasks feed the formats; groups, plans and the
 * verifier (with its pool) come next; the board numbers and frame output are the engine's two
 * top-level products, and a batch (which videos, named how, split how) is chosen from both.
 * The crops engine (envs/crops/replay/) is flat: one folder, no inner order to keep.
 */
const ENGINE_LAYERS = [
  "io",
  "trace",
  "schema",
  "rules",
  "timeline",
  "panos",
  "render",
  "tasks",
  "formats",
  "groups",
  "plan",
  "verify",
  "board",
  "frames",
  "batch",
];
/** The folder under replay/ that places an engine file in the order (null: a flat environment engine). */
const engineFolderOf = (f: string): string | null => {
  const parts = f.startsWith("replay/") ? f.split("/").slice(1) : isEnvEngine(f) ? f.split("/").slice(3) : [];
  return parts.length > 1 ? parts[0] : null;
};
const engineFiles = () => [...files.replay, ...files.envs.filter(isEnvEngine)];

/** Import circles allowed: none (the native renderer removed the last two). */
const KNOWN_CIRCLES: { files: string[]; why: string }[] = [];

/** Strongly connected components of more than one file (Tarjan), each sorted: the import circles. */
function importCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) circles.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}

describe("the engine has an inner order, and nothing imports in a circle", () => {
  const layerOf = (f: string) => ENGINE_LAYERS.indexOf(engineFolderOf(f)!);

  it("every engine folder (core's and GeoGuesser's) has a place in the order", () => {
    const folders = engineFiles()
      .filter((f) => !f.startsWith("envs/crops/"))
      .map(engineFolderOf);
    expect(folders.filter((d) => d === null || !ENGINE_LAYERS.includes(d))).toEqual([]);
  });

  it("engine imports run downward: a module imports only its own layer or lower ones", () => {
    const bad = edges
      .filter((e) => e.target && engineFolderOf(e.from) !== null && engineFolderOf(e.target) !== null)
      .filter((e) => layerOf(e.target!) > layerOf(e.from))
      .map((e) => `${where(e)} (${engineFolderOf(e.from)} is below ${engineFolderOf(e.target!)} in ${ENGINE_LAYERS.join(" < ")})`);
    expect(bad).toEqual([]);
  });

  it("no import circles in replay/, envs/, src/ or video/ (type-only imports count: they tie modules together too)", () => {
    const graph = new Map<string, string[]>();
    for (const f of Object.values(files).flat()) graph.set(f, []);
    for (const e of edges) {
      if (!e.target) continue;
      const to = graph.has(e.target) ? e.target : e.target.replace(/\.ts$/, ".tsx");
      if (graph.has(to)) graph.get(e.from)!.push(to);
    }
    const circles = importCircles(graph).map((c) => c.join(" <-> "));
    const known = KNOWN_CIRCLES.map((k) => k.files.join(" <-> "));
    // Report every circle (the known ones too, so their removal shows), fail on any other.
    if (circles.length) console.info(`import circles:\n  ${circles.join("\n  ")}`);
    expect(circles.filter((c) => !known.includes(c))).toEqual([]);
  });
});

/**
 * The delivery and composition folders have an order too, lowest first; folders on one rung are
 * siblings that share only through lower rungs (the two engines never import each other).
 * "." is a folder's loose top-level files (entry points: the CLI, the public APIs).
 *   src/:   what the package is, then ffmpeg (the one way to run it), then filming (what both
 *           engines share, the engines, the engine choice and reports), batches, pages (what every
 *           page shares, the players' styles, the page template, the browser client's shared
 *           pieces; the page writers, models, clients and players are each environment's), the
 *           live server (serve: followed inputs, the event log, HTTP), commands.
 *   video/: geography (map framing, atlas cells, places, labels: pure), text layout, the scene
 *           vocabulary, then the pieces every environment's compositions share (slideshow marks,
 *           the trace pane, overlays, the group grid and two-up unit, the world map), then the
 *           registry, the composition index and painter, and the Remotion wrapper last. The
 *           compositions themselves are the environments' (envs/<env>/video/).
 */
const INNER_ORDERS: Record<"src" | "video", string[][]> = {
  src: [
    ...[["install"], ["ffmpeg"], ["film/shared"], ["film/native", "film/remotion"], ["film"], ["batch"]],
    ...[["page"], ["page/player"], ["page/view"], ["page/client"], ["serve"]],
    ...[["reports"], ["commands"], ["."]],
  ],
  video: [["map"], ["text"], ["scene"], ["slideshow"], ["parts"], ["."], ["remotion"]],
};

/** A file's rung and group in its folder's order: the longest group that holds it ("." for loose files). */
function rungOf(file: string): { rung: number; group: string } | null {
  const [top, ...rest] = file.split("/");
  const order = INNER_ORDERS[top as "src" | "video"];
  if (!order) return null;
  const inner = rest.join("/");
  let best: { rung: number; group: string } | null = null;
  order.forEach((groups, rung) => {
    for (const g of groups) {
      const holds = g === "." ? !inner.includes("/") : g.endsWith(".ts") ? inner === g : inner.startsWith(`${g}/`);
      if (holds && (!best || g.length > best.group.length)) best = { rung, group: g };
    }
  });
  return best;
}

describe("src/ and video/ have an inner order too, and no arrow runs back up", () => {
  it("every file of src/ and video/ has a place in its folder's order", () => {
    const unplaced = [...files.src, ...files.video].filter((f) => !rungOf(f));
    expect(unplaced).toEqual([]);
  });

  it("imports run down the order; siblings on one rung never import each other", () => {
    const bad = edges
      .filter((e) => e.target && folderOf(e.from) === folderOf(e.target) && (folderOf(e.from) === "src" || folderOf(e.from) === "video"))
      .flatMap((e) => {
        const a = rungOf(e.from)!;
        const b = rungOf(e.target!) ?? rungOf(e.target!.replace(/\.ts$/, ".tsx"));
        if (!b) return [];
        if (b.rung > a.rung) return [`${where(e)} (${b.group} is above ${a.group})`];
        if (b.rung === a.rung && b.group !== a.group) return [`${where(e)} (${a.group} and ${b.group} are siblings)`];
        return [];
      });
    expect(bad).toEqual([]);
  });
});

/**
 * The page client (GeoGuesser's, envs/geoguesser/src/page/client/, built on the core's shared
 * pieces in src/page/client/) as a small app: page state (the store, the
 * address, the list's rows, search and filter expressions) in state/, apart from
 * the views in app/<feature>/ that render from it; state/ never imports a view,
 * and a feature imports another only through what app/ composes (run.ts,
 * board.ts) or the detail parts every view shows (app/detail/).
 */
describe.each(["envs/geoguesser/src/page/client/", "src/page/client/"])("the page client %s keeps its state apart from its views", (CLIENT) => {
  it("has both", () => {
    const all = [...files.src, ...files.envs];
    expect(all.some((f) => f.startsWith(`${CLIENT}state/`))).toBe(true);
    expect(all.some((f) => f.startsWith(`${CLIENT}app/`))).toBe(true);
  });

  const feature = (f: string) =>
    f.startsWith(`${CLIENT}app/`) ? (f.slice(`${CLIENT}app/`.length).split("/")[1] ? f.slice(`${CLIENT}app/`.length).split("/")[0] : null) : null;

  it("state/ imports no view (app/)", () => {
    const bad = edges.filter((e) => e.from.startsWith(`${CLIENT}state/`) && e.target?.startsWith(`${CLIENT}app/`)).map(where);
    expect(bad).toEqual([]);
  });

  it("a feature folder under app/ imports another only for the shared detail parts (app/detail/)", () => {
    const bad = edges
      .filter((e) => e.target && feature(e.from) && feature(e.target) && feature(e.from) !== feature(e.target))
      .filter((e) => feature(e.target!) !== "detail")
      .map(where);
    expect(bad).toEqual([]);
  });
});

function existsFile(rel: string): boolean {
  for (const candidate of [rel, rel.replace(/\.ts$/, ".tsx")]) {
    try {
      if (statSync(join(ROOT, candidate)).isFile()) return true;
    } catch {
      /* try the next */
    }
  }
  return false;
}

/**
 * What a thread loads when it starts: the static imports that stay in the compiled code (not
 * `import type`, not a lazy import()), followed through the project, and the packages reached.
 */
function loadedPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s([^;]*?)\sfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']/g)) {
      if (m[2]?.startsWith("type ")) continue; // erased
      const spec = m[3] ?? m[4];
      if (spec.startsWith(".")) visit(relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, ".ts"));
      else if (!spec.startsWith("node:")) packages.add(packageOf(spec));
    }
  };
  visit(entry);
  return packages;
}

describe("the native painter's threads load only what they use", () => {
  it("the painter's worker loads no validator and no image decoder (zod and sharp cost ~0.1 s each to load; props come validated, views come from the reprojecting worker)", () => {
    const painter = loadedPackages("src/film/native/paint-worker.ts");
    expect(painter.has("@napi-rs/canvas")).toBe(true); // the walk sees the painter's own imports
    expect([...painter].filter((p) => p === "zod" || p === "sharp")).toEqual([]);
  });

  it("the reprojecting worker loads no validator, nor does GeoGuesser's maker of its views, which loads sharp (it decodes the panoramas)", () => {
    const reprojector = loadedPackages("src/film/native/reproject-worker.ts");
    expect(reprojector.has("zod")).toBe(false);
    // The worker loads the environment's maker (envs/deferred-views.ts) as it starts: GeoGuesser's.
    const panoramas = loadedPackages("envs/geoguesser/src/film/view-pixels.ts");
    expect(panoramas.has("sharp")).toBe(true);
    expect(panoramas.has("zod")).toBe(false);
  });
});

describe("every test lives in its tier", () => {
  it("test files are in test/unit, test/integration, test/media or test/slow (a file elsewhere would run in no tier)", () => {
    const stray: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(join(ROOT, dir))) {
        const rel = join(dir, name);
        if (statSync(join(ROOT, rel)).isDirectory()) {
          if (!["fixtures", "golden", "legacy", "reference", "bad-input"].includes(name)) walk(rel);
        } else if (name.endsWith(".test.ts") && !/^test\/(unit|integration|media|slow)\//.test(rel)) stray.push(rel);
      }
    };
    walk("test");
    expect(stray).toEqual([]);
    for (const tier of ["unit", "integration", "media", "slow"])
      expect(
        readdirSync(join(ROOT, "test", tier)).some((f) => f.endsWith(".test.ts")),
        tier,
      ).toBe(true);
  });
});
