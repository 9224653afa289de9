#!/usr/bin/env bash
# lint.sh — static analysis: the structure check (scripts/check_structure.py: layers, include
# circles, function length), clang-tidy with the checks of .clang-tidy and cppcheck with the
# suppressions of .cppcheck-suppressions (each with its reason), and commit subjects of at most
# 72 characters. All must be clean.
#
#   scripts/lint.sh [BUILD_DIR]     (default build-test; `ninja -C BUILD_DIR lint` runs this)
#
# Needs clang-tidy and cppcheck (Debian: apt-get install clang-tidy cppcheck).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$here/build-test}
cd "$here" || exit 2
for tool in clang-tidy cppcheck; do
    command -v "$tool" >/dev/null || { echo "lint: $tool is not installed" >&2; exit 2; }
done
[[ -f $build/compile_commands.json ]] || { echo "lint: no $build/compile_commands.json; run meson setup first" >&2; exit 2; }

status=0
echo "lint: structure (the layers of docs/architecture.md, function length)"
python3 scripts/check_structure.py "$here" | grep -v '^ok' || true
python3 scripts/check_structure.py "$here" >/dev/null || status=1

echo "lint: clang-tidy"
# the library and program sources; tests are checked by cppcheck only (cmocka macros)
report=$(git ls-files 'model/*.c' 'render/*.c' 'app/*.c' |
    xargs -P 2 -n 4 clang-tidy -p "$build" --quiet 2>/dev/null)
if grep -q -E '(warning|error):' <<<"$report"; then
    grep -E -A4 '(warning|error):' <<<"$report"
    status=1
fi

echo "lint: cppcheck"
cppcheck --enable=warning,style,performance,portability --std=c11 --inline-suppr --quiet \
    --suppressions-list=.cppcheck-suppressions --error-exitcode=1 -D_XOPEN_SOURCE=700 \
    -I model -I render -I app -I "$build" -I "$build/app" model render app tests || status=1

echo "lint: commit subjects (at most 72 characters, details in the body)"
# the history before e949fb8 keeps its long subjects; every later commit is held to the rule
if git rev-parse -q --verify e949fb8^{commit} >/dev/null 2>&1; then
    long=$(git log --format='%h %s' e949fb8..HEAD | awk 'length($0) - index($0, " ") > 72')
    [[ -z $long ]] || { echo "subjects over 72 characters:"; echo "$long"; status=1; }
fi

((status)) && echo "lint: problems found" >&2 || echo "lint: clean"
exit $status
