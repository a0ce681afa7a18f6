"""An independent implementation of `geoeval report`, written from the rules in
../shared/docs/geoeval-report.md (not from geoeval's code), for georeplay's tests
and benchmark. Standard library only.

    python3 geoeval_report.py ROOT [ROOT ...] [--baseline ARM] [--legacy] [--json]
                              [--skip-quarantined]

Text output is what the doc says geoeval prints. --json prints the numbers
behind it (full precision, nan as null) in georeplay's report field names.
--skip-quarantined leaves `_quarantined/` out, as georeplay does.
"""
import argparse
import glob
import json
import math
import os
import statistics
import sys

DECAY_KM = 1492.7
LONG_DECAY_KM = 5000.0
MIXTURE_SHORT_WEIGHT = 0.5
MAX_COST_FRACTION = 0.2


def recomputed_reward(o):
    """Doc §3."""
    d = o.get("distance_km")
    if d is None:
        return 0.0
    cost = float(o.get("action_cost") or 0.0)
    shaped = min(1.0, MIXTURE_SHORT_WEIGHT * math.exp(-d / DECAY_KM)
                 + (1 - MIXTURE_SHORT_WEIGHT) * math.exp(-d / LONG_DECAY_KM))
    return shaped * (1.0 - min(max(cost, 0.0), MAX_COST_FRACTION))


def episode_files(root, skip_quarantined):
    """Doc §1: glob ROOT/**/episodes.jsonl, recursive (hidden dirs skipped), glob order."""
    files = glob.glob(os.path.join(root, "**", "episodes.jsonl"), recursive=True)
    if skip_quarantined:
        files = [f for f in files if "_quarantined" not in os.path.relpath(f, root).split(os.sep)[:-1]]
    return files


def read_rows(roots, skip_quarantined):
    rows = []
    for root in roots:
        paths = [root] if os.path.isfile(root) else episode_files(root, skip_quarantined)
        for path in paths:
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    if not line.strip():
                        continue
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError:
                        continue  # torn line: skipped, counted nowhere
    return rows


def fmt_arm(name, width):
    return format(name, str(width))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--baseline", default="base")
    ap.add_argument("--legacy", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--skip-quarantined", action="store_true")
    args = ap.parse_args()

    loaded = read_rows(args.roots, args.skip_quarantined)

    def is_scored(r):
        return (r.get("outcome") or {}).get("reward") is not None

    scored = [r for r in loaded if is_scored(r)]
    if not scored:
        print(f"no scored episodes under {args.roots}", file=sys.stderr)
        return 1
    unscored = {}
    for r in loaded:
        if not is_scored(r):
            key = r.get("model_name", "?")
            unscored[key] = unscored.get(key, 0) + 1
    n_dropped = sum(unscored.values())

    # arm -> {task index -> [R]}, in first-seen order of scored rows
    arms = {}
    outcomes = {}
    for r in scored:
        arm = r["model_name"]
        arms.setdefault(arm, {}).setdefault(r["task"]["index"], []).append(recomputed_reward(r["outcome"]))
        outcomes.setdefault(arm, []).append(r["outcome"])

    def mean_of_k(arm):
        return statistics.fmean([statistics.fmean(v) for v in arms[arm].values()])

    order = sorted(arms, key=lambda a: -mean_of_k(a))
    nan = float("nan")

    def numeric_mean(arm, key):
        vals = [o[key] for o in outcomes[arm] if isinstance(o.get(key), (int, float))]
        return statistics.fmean(vals) if vals else nan

    def share_true(arm, key):
        vals = [bool(o[key]) for o in outcomes[arm] if o.get(key) is not None]
        return 100.0 * sum(vals) / len(vals) if vals else nan

    def distances(arm):
        return [o["distance_km"] for o in outcomes[arm] if o.get("distance_km") is not None]

    def share_within(arm, km):
        d = distances(arm)
        return 100.0 * len([v for v in d if v <= km]) / len(d) if d else nan

    rows = []
    for arm in order:
        t = arms[arm]
        os_ = outcomes[arm]
        d = distances(arm)
        rows.append({
            "arm": arm,
            "episodes": len(os_),
            "tasks": len(t),
            "k": statistics.fmean([len(v) for v in t.values()]),
            "mean_of_k": mean_of_k(arm),
            "best_of_k": statistics.fmean([max(v) for v in t.values()]),
            "median_km": statistics.median(d) if d else nan,
            "turns": numeric_mean(arm, "turns_used"),
            "looks": numeric_mean(arm, "n_looks"),
            "moves": numeric_mean(arm, "n_moves"),
            "pins": numeric_mean(arm, "n_pins"),
            "cost": numeric_mean(arm, "action_cost"),
            "country_pct": share_true(arm, "country_hit"),
            "within_200km_pct": share_within(arm, 200),
            "within_750km_pct": share_within(arm, 750),
            "env_floor_pct": 100.0 * len([o for o in os_ if o.get("reward") == 0]) / len(os_),
            "no_guess_pct": 100.0 * len([o for o in os_ if o.get("distance_km") is None]) / len(os_),
            "forced_pct": share_true(arm, "forced_guess"),
            "tok_out": numeric_mean(arm, "tokens_out"),
        })

    paired = None
    if args.baseline in arms:
        base = arms[args.baseline]
        comps = []
        for arm in order:
            if arm == args.baseline:
                continue
            shared = [t for t in arms[arm] if t in base]
            if len(shared) < 2:
                continue
            diffs = [statistics.fmean(arms[arm][t]) - statistics.fmean(base[t]) for t in shared]
            delta = statistics.fmean(diffs)
            sd = statistics.pstdev(diffs) if args.legacy else statistics.stdev(diffs)
            se = sd / math.sqrt(len(diffs))
            comps.append({
                "arm": arm, "n": len(diffs), "delta": delta, "se": se,
                "ci_low": delta - 1.96 * se, "ci_high": delta + 1.96 * se,
                "significant": abs(delta) > 1.96 * se,
                "better_on": len([x for x in diffs if x > 0]),
            })
        paired = {"baseline": args.baseline, "comparisons": comps}

    if args.json:
        clean = lambda v: None if isinstance(v, float) and math.isnan(v) else v
        print(json.dumps({
            "episodes": len(scored),
            "arms": [{k: clean(v) for k, v in r.items()} for r in rows],
            "paired": paired,
            "dropped_unscored": n_dropped,
            "tasks": {str(t): {arm: {"attempts": len(arms[arm][t]), "mean": statistics.fmean(arms[arm][t]), "best": max(arms[arm][t])}
                               for arm in order if t in arms[arm]}
                      for t in sorted({t for a in arms.values() for t in a})},
        }))
        return 0

    out = []
    if not args.legacy and n_dropped:
        detail = ", ".join(f"{k} {v}" for k, v in sorted(unscored.items()))
        out.append(f"note: dropped {n_dropped} unscored episode(s) with no reward ({detail})")
    out.append(f"{len(scored)} episodes over {len(arms)} arm(s)")
    out.append("")
    h1 = f"{'arm':22} {'tasks':>6} {'k':>4} {'mean-of-k':>10} {'best-of-k':>10} {'median km':>10}"
    out.append(h1)
    out.append("-" * 67)
    for r in rows:
        out.append(f"{fmt_arm(r['arm'], 22)} {r['tasks']:6d} {r['k']:4.1f} {r['mean_of_k']:10.4f} {r['best_of_k']:10.4f} {r['median_km']:10.0f}")
    out.append("")
    floor_head = f"{'zero%':>6}" if args.legacy else f"{'env_floor%':>11} {'no_guess%':>10}"
    h2 = (f"{'arm':22} {'turns':>6} {'looks':>6} {'moves':>6} {'pins':>5} {'cost':>6} {'country%':>9} "
          f"{'<=200km':>8} {'<=750km':>8} {floor_head} {'forced%':>8} {'tok_out':>8}")
    out.append(h2)
    out.append("-" * (110 if args.legacy else 126))
    for r in rows:
        floor = f"{r['env_floor_pct']:5.1f}%" if args.legacy else f"{r['env_floor_pct']:10.1f}% {r['no_guess_pct']:9.1f}%"
        out.append(
            f"{fmt_arm(r['arm'], 22)} {r['turns']:6.1f} {r['looks']:6.1f} {r['moves']:6.1f} {r['pins']:5.1f} "
            f"{r['cost']:6.3f} {r['country_pct']:8.1f}% {r['within_200km_pct']:7.1f}% {r['within_750km_pct']:7.1f}% "
            f"{floor} {r['forced_pct']:7.1f}% {r['tok_out']:8.0f}")
    if paired is not None:
        out.append("")
        out.append(f"paired against {args.baseline!r}, tasks both arms attempted:")
        for c in paired["comparisons"]:
            verdict = "SIGNIFICANT" if c["significant"] else "not significant"
            out.append(f"  {fmt_arm(c['arm'], 20)} n={c['n']:3d}  delta {c['delta']:+.4f} +/- {c['se']:.4f}  "
                       f"95% CI [{c['ci_low']:+.4f}, {c['ci_high']:+.4f}]  {verdict}")
            out.append(f"  {'':20} better on {c['better_on']}/{c['n']} tasks")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
