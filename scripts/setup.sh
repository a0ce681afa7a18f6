#!/usr/bin/env bash
# Everything a fresh machine of this kind needs, idempotent and quiet when already done:
# Debian's chromium (renders and page tests), python3-numpy/PIL (the reference tools for
# benchmarks and fixture regeneration), the Noto CJK and color emoji fonts (the native painter's
# font chain: Han, kana, Hangul and emoji; ~20 MB a weight, too big for an npm package), then the
# locked npm dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# ffmpeg with libx264 (the native engine pipes raw frames into it; Remotion's own ffmpeg cannot read them).
command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 || need_apt+=(ffmpeg)
[ -x /usr/bin/time ] || need_apt+=(time)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] && [ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] || need_apt+=(fonts-noto-cjk)
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || need_apt+=(fonts-noto-color-emoji)
/usr/bin/python3 -c 'import numpy, PIL' >/dev/null 2>&1 || need_apt+=(python3-numpy python3-pil)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# npm ci when node_modules is missing or older than the lockfile.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund
fi
