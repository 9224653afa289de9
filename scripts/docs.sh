#!/usr/bin/env bash
# docs.sh — regenerate everything in docs/ that the program draws: the figure gallery
# (scripts/gallery.sh) and the text screenshots (scripts/screenshots.py).
#
#   scripts/docs.sh [TFVIZ [DOCS_DIR]]    (meson compile -C build docs runs it)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tfviz=${1:-$here/build/app/tfviz}
docs=${2:-$here/docs}
if [[ ! -x $tfviz ]]; then
    echo "docs.sh: $tfviz is not built; run meson setup build && meson compile -C build." >&2
    exit 2
fi
if [[ -x $here/scripts/gallery.sh ]]; then
    "$here/scripts/gallery.sh" "$tfviz" "$docs"
fi
python3 "$here/scripts/screenshots.py" "$tfviz" "$docs"
