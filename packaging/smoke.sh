#!/usr/bin/env bash
# Smoke test of the Linux bundle (slow: builds it; not part of CI). Builds dist/dpgui/ with build.sh, then
# runs the frozen app offscreen: --version, a demo screenshot that must not be blank, and a histogram
# release (which draws OpenDP's discrete Laplace noise, so the bundled native library must load).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
start=$(date +%s)
SKIP_PYTHON_PACKAGES=1 packaging/build.sh
built=$(date +%s)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QT_QPA_PLATFORM=offscreen DPGUI_HOME="$scratch/home"
app=dist/dpgui/dpgui

"$app" --version
"$app" --demo --screenshot "$scratch/window.png"
"$PYTHON" - "$scratch/window.png" <<'PY'
import sys
from pathlib import Path

from PySide6.QtGui import QImage

path = Path(sys.argv[1])
image = QImage(str(path))
if image.isNull():
    sys.exit(f"smoke: {path} is missing or not an image")
colours = {image.pixel(x, y) for x in range(0, image.width(), 4) for y in range(0, image.height(), 4)}
if len(colours) < 16:
    sys.exit(f"smoke: the screenshot looks blank ({len(colours)} distinct colours)")
print(f"smoke: screenshot {image.width()}x{image.height()}, {len(colours)} distinct colours")
PY

"$app" budget set --data resources/cps1988.csv --epsilon 1
"$app" release histogram --algorithm geometric --data resources/cps1988.csv --column education \
    --bounds 0 18 --epsilon 1 --out "$scratch/release" > /dev/null
test -s "$scratch/release/release.csv"
echo "smoke: OK; bundle $(du -sh dist/dpgui | cut -f1), build $((built - start)) s, checks $(($(date +%s) - built)) s"
