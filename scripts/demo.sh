#!/usr/bin/env bash
# The main job on the bundled sample run (rollouts/sample): verify every view,
# film the Trieste episode to an MP4, and write the whole run's offline page.
set -euo pipefail
cd "$(dirname "$0")/.."
S=rollouts/sample
GR="node dist/src/cli.js"
IN=("$S/episodes.jsonl" --tasks "$S/tasks.jsonl" --panos "$S/panos")
mkdir -p out

echo "== 1/4 verify: re-render every recorded view and compare its sha256"
$GR verify "${IN[@]}"

echo "== 2/4 frames: the Trieste episode's camera path, for Remotion Studio (public/rollouts/)"
$GR frames "${IN[@]}" --episode 90a9d3eba5ce

echo "== 3/4 render: out/trieste.mp4"
$GR render "${IN[@]}" --episode 90a9d3eba5ce -o out/trieste.mp4

echo "== 4/4 page: out/sample.html (one self-contained file, opens offline)"
$GR page "${IN[@]}" -o out/sample.html

cat <<TXT

Done:
  out/trieste.mp4    the rollout video (H.264, 1280x720)
  out/sample.html    every episode of the run, turn by turn
Preview the composition live:  npx remotion studio
Render it with Remotion's CLI: npx remotion render Rollout out/cli.mp4 --props=public/rollouts/90a9d3eba5ce/timeline.json
TXT
