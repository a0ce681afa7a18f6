#!/usr/bin/env bash
# The main job on the bundled sample run (rollouts/sample): verify every view,
# then (as those commands exist) film the Trieste episode and write the run's page.
set -euo pipefail
cd "$(dirname "$0")/.."
S=rollouts/sample
GR="node dist/src/cli.js"
mkdir -p out

echo "== verify: re-render every recorded view and compare sha256"
$GR verify $S/episodes.jsonl --tasks $S/tasks.jsonl --panos $S/panos
