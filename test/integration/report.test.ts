/**
 * `georeplay report` against an independent implementation of geoeval's
 * report rules (test/reference/geoeval_report.py, written from
 * ../shared/docs/geoeval-report.md), run with /usr/bin/python3 on the same
 * fixture boards (test/fixtures/boards/make.py): byte-identical text in both
 * layouts, the same numbers at full precision in --json, and clear messages
 * (exit 2, no stack) where geoeval would crash.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { FIXTURES, ROOT, runCli } from "../helpers.ts";
import { jsonSchemaOf } from "../../envs/schemas.ts";
import { ReportSchema } from "../../envs/geoguesser/replay/board/index.ts";
import { fsum, fmean, median, stdev, pstdev, pyFixed, pyRepr } from "../../envs/geoguesser/replay/board/index.ts";
import { pyExp } from "../../envs/geoguesser/replay/rules/exp.ts";

const BOARDS = join(FIXTURES, "boards");
const REFERENCE = join(ROOT, "test", "reference", "geoeval_report.py");
const PYTHON = "/usr/bin/python3";

function python(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(PYTHON, [REFERENCE, ...args, "--skip-quarantined"], { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CASES: { name: string; inputs: string[]; args: string[] }[] = [
  { name: "main board, baseline base", inputs: [join(BOARDS, "main")], args: ["--baseline", "base"] },
  { name: "main board, baseline ckpt-b", inputs: [join(BOARDS, "main")], args: ["--baseline", "ckpt-b"] },
  { name: "main board, default baseline", inputs: [join(BOARDS, "main")], args: [] },
  { name: "no base arm: no paired section", inputs: [join(BOARDS, "nobase")], args: [] },
  {
    name: "two roots pooled, one given twice",
    inputs: [join(BOARDS, "nobase"), join(BOARDS, "main", "base"), join(BOARDS, "main", "base")],
    args: ["--baseline", "alpha"],
  },
  { name: "a baseline name repr() quotes", inputs: [join(BOARDS, "main")], args: ["--baseline", "Zürich-模型-🚀"] },
];

describe("georeplay report: text equals the reference implementation", () => {
  for (const layout of [[], ["--legacy"]]) {
    for (const c of CASES) {
      it(`${c.name}${layout.length ? " (legacy)" : ""}`, () => {
        const ref = python([...c.inputs, ...c.args, ...layout]);
        expect(ref.code, ref.stderr).toBe(0);
        const r = runCli(["report", ...c.inputs, ...c.args, ...layout]);
        // The main board has a torn line: geoeval's report all the same, exit 2 (as verify).
        expect(r.code, r.stderr).toBe(c.inputs.includes(join(BOARDS, "main")) ? 2 : 0);
        expect(r.stdout).toBe(ref.stdout);
      });
    }
  }

  it("the main board exercises what it should (dropped note, tie order, skipped arm, nan cells)", () => {
    const out = runCli(["report", join(BOARDS, "main")]).stdout;
    expect(out.split("\n")[0]).toBe("note: dropped 3 unscored episode(s) with no reward (? 1, ckpt-a 2)");
    expect(out.indexOf("tie-later")).toBeLessThan(out.indexOf("tie-earlier"));
    expect(out).toContain("nan%");
    expect(out).not.toContain("  lone-arm-with-a-rather-long-name n=");
    expect(out).not.toContain("hidden-arm");
    const legacy = runCli(["report", join(BOARDS, "main"), "--legacy"]).stdout;
    expect(legacy).not.toContain("note:");
    expect(legacy).toContain(" zero%");
  });

  it("notes on stderr: _quarantined/ left out (geoeval would read it) and the torn line skipped, named by file and line (exit 2)", () => {
    const r = runCli(["report", join(BOARDS, "main")]);
    expect(r.stderr).toContain("note: left out 1 file(s) under _quarantined/");
    expect(r.stderr).toMatch(/note: skipped 1 line\(s\) that are not JSON.*ckpt-b\/pass0\/shard-0\/episodes.jsonl 1/);
    expect(r.stderr).toContain(
      `${join(BOARDS, "main", "ckpt-b", "pass0", "shard-0", "episodes.jsonl")}:13: not valid JSON, skipped (the last line looks truncated: was the file still being written?)`,
    );
    expect(r.code).toBe(2);
    // geoeval itself would pool the quarantined pass: the reference without the flag differs.
    const pooled = spawnSync(PYTHON, [REFERENCE, join(BOARDS, "main")], { encoding: "utf8" }).stdout;
    expect(pooled).not.toBe(r.stdout);
  });
});

describe("georeplay report --json", () => {
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(jsonSchemaOf("report"));

  for (const legacy of [false, true]) {
    it(`numbers at full precision equal the reference's${legacy ? " (legacy)" : ""}, and the object fits its JSON Schema`, () => {
      const extra = legacy ? ["--legacy"] : [];
      const r = runCli(["report", join(BOARDS, "main"), "--json", ...extra]);
      expect(r.code, r.stderr).toBe(2); // its torn line
      const j = JSON.parse(r.stdout);
      expect(validate(j), JSON.stringify(validate.errors)).toBe(true);
      expect(ReportSchema.parse(j)).toEqual(j);
      const ref = JSON.parse(python([join(BOARDS, "main"), "--json", ...extra]).stdout);
      expect(j.episodes).toBe(ref.episodes);
      expect(j.arms).toEqual(ref.arms);
      expect(j.paired.baseline).toBe("base");
      expect(j.paired.comparisons).toEqual(ref.paired.comparisons);
      expect(j.paired.skipped).toEqual([{ arm: "lone-arm-with-a-rather-long-name", shared: 1 }]);
      expect(j.dropped_unscored).toBe(ref.dropped_unscored);
      expect(j.dropped_by_arm).toEqual([
        { arm: "?", episodes: 1 },
        { arm: "ckpt-a", episodes: 2 },
      ]);
      expect(j.torn_lines).toBe(1);
      expect(j.quarantined_files).toHaveLength(1);
      expect(j.layout).toBe(legacy ? "legacy" : "current");
      // tasks: each arm's mean, best and attempts per task, and its delta against the baseline
      const refTasks = Object.entries(ref.tasks as Record<string, Record<string, { attempts: number; mean: number; best: number }>>);
      expect(j.tasks.map((t: { index: number }) => String(t.index))).toEqual(refTasks.map(([k]) => k));
      for (const t of j.tasks as { index: number; arms: { arm: string; attempts: number; mean: number; best: number; delta: number | null }[] }[]) {
        const want = ref.tasks[String(t.index)];
        expect(t.arms.map((a) => a.arm)).toEqual(Object.keys(want));
        const base = want.base;
        for (const a of t.arms) {
          expect({ attempts: a.attempts, mean: a.mean, best: a.best }).toEqual(want[a.arm]);
          expect(a.delta).toBe(a.arm === "base" || !base ? null : want[a.arm].mean - base.mean);
        }
      }
    });
  }

  it("the same inputs give the same bytes; no baseline gives paired: null", () => {
    const a = runCli(["report", join(BOARDS, "nobase"), "--json"]);
    const b = runCli(["report", join(BOARDS, "nobase"), "--json"]);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout).paired).toBeNull();
  });
});

describe("georeplay report: where geoeval crashes or finds nothing, a clear message and exit 2", () => {
  const expectInputError = (args: string[], message: string) => {
    const r = runCli(["report", ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`georeplay: ${message}\n`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  };
  const f = (name: string) => join(BOARDS, name, "episodes.jsonl");

  it("a row that is JSON but not an object", () => {
    expectInputError([join(BOARDS, "crash-nonobject")], `${f("crash-nonobject")}:2: row: expected a JSON object (one episode per line), got array of 3`);
  });
  it("a scored row without task.index", () => {
    expectInputError([join(BOARDS, "crash-noindex")], `${f("crash-noindex")}:2: task.index: expected a number (the task), got nothing (field missing)`);
  });
  it("a scored row with model_name null", () => {
    expectInputError([join(BOARDS, "crash-nullmodel")], `${f("crash-nullmodel")}:1: model_name: expected a string (the arm), got null`);
  });
  it("no scored episode", () => {
    expectInputError(
      [join(BOARDS, "unscored-only")],
      `no scored episodes under ${join(BOARDS, "unscored-only")} (1 file(s), 1 row(s), none with an outcome.reward)`,
    );
  });
  it("an input that does not exist", () => {
    expectInputError([join(BOARDS, "nope")], `${join(BOARDS, "nope")}: no such file`);
  });

  it("null beside names in the dropped note (current layout only), NaN in a row, bad UTF-8", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-report-"));
    try {
      const ok = JSON.stringify({ model_name: "a", task: { index: 0 }, outcome: { reward: 0.5, distance_km: 10 } });
      const write = (name: string, text: string | Buffer) => {
        mkdirSync(join(dir, name), { recursive: true });
        writeFileSync(join(dir, name, "episodes.jsonl"), text);
        return join(dir, name);
      };
      const nulls = write("nulls", [ok, '{"model_name": null, "outcome": null}', '{"model_name": "b", "outcome": {"reward": null}}'].join("\n") + "\n");
      expectInputError(
        [nulls],
        `${join(nulls, "episodes.jsonl")}:2: model_name: expected a string, got null on an unscored row beside named arms (geoeval's dropped note cannot sort null with names)`,
      );
      expect(runCli(["report", nulls, "--legacy"]).code).toBe(0);
      const onlyNull = write("only-null", [ok, '{"model_name": null}'].join("\n") + "\n");
      expect(runCli(["report", onlyNull]).stdout.split("\n")[0]).toBe("note: dropped 1 unscored episode(s) with no reward (None 1)");
      const nan = write("nan", ok + '\n{"model_name": "a", "task": {"index": 1}, "outcome": {"reward": 0.5, "distance_km": NaN}}\n');
      expectInputError(
        [nan],
        `${join(nan, "episodes.jsonl")}:2: contains NaN or Infinity, which JSON does not allow; georeplay does not score such rows (write them with allow_nan=False, or null)`,
      );
      const utf8 = write("utf8", Buffer.concat([Buffer.from(ok + "\n"), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]));
      expectInputError([utf8], `${join(utf8, "episodes.jsonl")}:2: not valid UTF-8 (geoeval stops with UnicodeDecodeError on such a file)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--help teaches: examples, columns, exit codes, the _quarantined difference", () => {
    const r = runCli(["report", "--help"]);
    expect(r.code).toBe(0);
    for (const s of ["Examples:", "mean-of-k", "env_floor%", "Exit codes:", "_quarantined/", "--legacy", "--baseline"]) expect(r.stdout).toContain(s);
  });
});

describe("Python numerics (fsum, fmean, median, stdev, pstdev, format) equal /usr/bin/python3's", () => {
  it("on seeded random data, including exact ties and large magnitudes", () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const cases: number[][] = [];
    for (let i = 0; i < 400; i++) {
      const arr: number[] = [];
      const n = 2 + Math.floor(rnd() * 25);
      for (let j = 0; j < n; j++) arr.push((rnd() - 0.5) * 10 ** Math.floor(rnd() * 10 - 5) + (rnd() < 0.2 ? 1e16 * rnd() : 0));
      if (i % 4 === 0) arr.push(0.125, 2.5, -0.5, 0.5, 1.5, 0.0005, 1e-7, -1e-7, 0.03125); // (-0.0 does not survive JSON: see the edge cases)
      cases.push(arr);
    }
    const code = [
      "import json, sys, math, statistics",
      "out = []",
      "for a in json.load(sys.stdin):",
      "    out.append([math.fsum(a), statistics.fmean(a), statistics.median(a), statistics.stdev(a), statistics.pstdev(a),",
      "                [f'{x:+.4f}|{x:10.1f}|{x:.0f}|{x:8.3f}|{x:6.1f}' for x in a]])",
      "print(json.dumps(out))",
    ].join("\n");
    const r = spawnSync(PYTHON, ["-c", code], { input: JSON.stringify(cases), encoding: "utf8", maxBuffer: 64 << 20 });
    const want = JSON.parse(r.stdout) as [number, number, number, number, number, string[]][];
    cases.forEach((a, i) => {
      const got = [
        fsum(a),
        fmean(a),
        median(a),
        stdev(a),
        pstdev(a),
        a.map((x) => `${pyFixed(x, 4, 0, true)}|${pyFixed(x, 1, 10)}|${pyFixed(x, 0)}|${pyFixed(x, 3, 8)}|${pyFixed(x, 1, 6)}`),
      ];
      expect(got).toEqual(want[i]);
    });
  });

  it("exp is correctly rounded (checked against Python's decimal at 60 digits); Python's math.exp agrees on almost all arguments", () => {
    const xs: number[] = [];
    let s = 4242;
    for (let i = 0; i < 3000; i++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      xs.push(-(s / 2147483648) * 14); // -d/1492.7 for d up to ~20,000 km
    }
    const code = [
      "import json, sys, math",
      "from decimal import Decimal, getcontext",
      "getcontext().prec = 60",
      "xs = json.load(sys.stdin)",
      "print(json.dumps([[float(Decimal(x).exp()) for x in xs], [math.exp(x) for x in xs]]))",
    ].join("\n");
    const r = spawnSync(PYTHON, ["-c", code], { input: JSON.stringify(xs), encoding: "utf8" });
    const [exact, libm] = JSON.parse(r.stdout) as [number[], number[]];
    const mine = xs.map(pyExp);
    expect(mine).toEqual(exact);
    expect(mine.filter((v, i) => v !== libm[i]).length).toBeLessThan(xs.length / 100);
  });

  it("format edge cases: half-even ties, signs of zero, nan", () => {
    expect(pyFixed(2.5, 0)).toBe("2");
    expect(pyFixed(0.125, 2)).toBe("0.12");
    expect(pyFixed(-0.0, 4, 0, true)).toBe("-0.0000");
    expect(pyFixed(0.0, 4, 0, true)).toBe("+0.0000");
    expect(pyFixed(-0.00001, 4, 0, true)).toBe("-0.0000");
    expect(pyFixed(Number.NaN, 1, 8)).toBe("     nan");
    expect(pyRepr("it's")).toBe(`"it's"`);
    expect(pyRepr("base")).toBe("'base'");
  });
});
