#!/usr/bin/env bash
# Build dpgui's wheel and sdist (dist/) and the Linux one-folder bundle (dist/dpgui/).
#
# Run from an environment that has the project and the packaging tools:
#   pip install -e '.[packaging]'     (PyInstaller and build; PYTHON=... picks another interpreter)
# Steps can be skipped: SKIP_PYTHON_PACKAGES=1 or SKIP_BUNDLE=1.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

if ! "$PYTHON" -c "import build, PyInstaller" 2>/dev/null; then
    echo "build.sh: $PYTHON lacks 'build' or 'PyInstaller'; run: $PYTHON -m pip install -e '.[packaging]'" >&2
    exit 2
fi

if [[ -z "${SKIP_PYTHON_PACKAGES:-}" ]]; then
    "$PYTHON" -m build --outdir dist .
fi
if [[ -z "${SKIP_BUNDLE:-}" ]]; then
    "$PYTHON" -m PyInstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller packaging/dpgui.spec
    echo "bundle: dist/dpgui/ ($(du -sh dist/dpgui | cut -f1)); run dist/dpgui/dpgui"
fi
