#!/usr/bin/env bash
# The main job on the bundled sample run (rollouts/sample): verify every view,
# film the Trieste episode to an MP4, and write the whole run's offline page.
set -euo pipefail
cd "$(dirname "$0")/.."
S=rollouts/sample
GR="node dist/src/cli.js"
IN=("$S/episodes.jsonl" --tasks "$S/tasks.jsonl" --panos "$S/panos")
mkdir -p out

echo "== 1/9 verify: re-render every recorded view and compare its sha256"
$GR verify "${IN[@]}"

echo "== 2/9 frames: the Trieste episode's camera path and props.json, for Remotion Studio (public/rollouts/)"
$GR frames "${IN[@]}" --episode 90a9d3eba5ce
# Two attempts at one task, so the Studio's Compare has a pair to preview.
$GR frames "${IN[@]}" --episode d37a27bd393a --out public/rollouts/compare-a
$GR frames "${IN[@]}" --episode ff03ebd569bb --out public/rollouts/compare-b

echo "== 3/9 render: out/trieste.mp4 (painted natively, encoded by x264; no browser)"
$GR render "${IN[@]}" --episode 90a9d3eba5ce -o out/trieste.mp4

echo "== 4/9 render --versus: out/two-up.mp4 (two attempts at eval #0 side by side)"
$GR render "${IN[@]}" --episode d37a27bd393a --versus ff03ebd569bb -o out/two-up.mp4

echo "== 5/9 page: out/sample.html (one self-contained file, opens offline)"
$GR page "${IN[@]}" -o out/sample.html

# The second environment, the crops detection gym, on its bundled sample dataset.
C=test/fixtures/crops/sample
echo "== 6/9 verify a crops run: every view and thumbnail by sha256, every box mapping, every score"
$GR verify "$C/eval/episodes.jsonl"

echo "== 7/9 frames of a crops episode: out/crops-frames/ (exact keyframes, log-scale zooms, timeline.json)"
$GR frames "$C/eval/episodes.jsonl" --episode 74174c29ba84 --out out/crops-frames

echo "== 8/9 render a crops episode: out/crops.mp4 (boxes drawn and removed, then a score card of every match)"
$GR render "$C/eval/episodes.jsonl" --episode c46800576146 -o out/crops.mp4

echo "== 9/9 page of a crops run: out/crops.html (the board, the list, each episode's boxes and per-box errors)"
$GR page "$C/eval/episodes.jsonl" -o out/crops.html

cat <<TXT

Done:
  out/trieste.mp4    the rollout video (H.264, 1280x720)
  out/two-up.mp4     two attempts at one task, side by side
  out/sample.html    every episode of the run, turn by turn
  out/crops-frames/  a crops episode's frames and timeline.json
  out/crops.mp4      a crops episode on film, ending on its score card
  out/crops.html     the crops run's page: board, list, boxes, per-box errors
Preview the composition live:  npx remotion studio
Render it with Remotion's CLI: npx remotion render Rollout out/cli.mp4 --props=public/rollouts/90a9d3eba5ce/props.json
Or with georeplay's Remotion engine: node dist/src/cli.js render rollouts/sample/episodes.jsonl --episode 90a9d3eba5ce --tasks rollouts/sample/tasks.jsonl --panos rollouts/sample/panos --engine remotion -o out/remotion.mp4
TXT
