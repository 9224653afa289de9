#!/usr/bin/env bash
# test.sh — build and run every test twice: a release-like build with warnings as errors, and a
# build under AddressSanitizer + UndefinedBehaviorSanitizer. Ends with "N passed, N failed".
#
#   scripts/test.sh            both suites
#   scripts/test.sh --quick    the first suite only
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here" || exit 2
quick=0
[[ ${1:-} == --quick ]] && quick=1

status=0
run_suite() { # dir, meson options...
    local dir=$1
    shift
    if [[ ! -f $dir/build.ninja ]]; then
        meson setup "$dir" "$@" >/dev/null || return 1
    fi
    meson compile -C "$dir" >/dev/null || { meson compile -C "$dir"; return 1; }
    meson test -C "$dir" --print-errorlogs --num-processes 2 || status=1
}

dirs=(build-test)
run_suite build-test --buildtype=debugoptimized -Dwerror=true || status=1
if ((!quick)); then
    dirs+=(build-asan)
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        run_suite build-asan --buildtype=debugoptimized -Dwerror=true -Db_sanitize=address,undefined \
        -Db_lundef=false || status=1
fi

python3 "$here/scripts/test_summary.py" "${dirs[@]/%//meson-logs/testlog.json}" || status=1
exit $status
