#!/usr/bin/env bash
# test.sh — build and run every test: a release-like build with warnings as errors, the same
# suite under AddressSanitizer + UndefinedBehaviorSanitizer, then valgrind memcheck over the unit
# tests, the fuzz corpus replay and every tfviz the CLI tests run. Ends with "N passed, N failed,
# N skipped" (a test whose optional table was not fetched at set-up is skipped and named above it).
#
#   scripts/test.sh                  everything (what CI runs)
#   scripts/test.sh --no-valgrind    the two suites without valgrind (a few minutes less)
#   scripts/test.sh --quick          the first suite only
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here" || exit 2
quick=0 memcheck=1
case ${1:-} in
--quick) quick=1 memcheck=0 ;;
--no-valgrind) memcheck=0 ;;
--valgrind | "") ;;
*)
    echo "test.sh: unknown option '$1' (use --quick or --no-valgrind)" >&2
    exit 2
    ;;
esac

status=0
waiting= # the meson test running the waiting tests in the background, ended with this script
trap '[[ -n $waiting ]] && kill "$waiting" 2>/dev/null' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# The terminal and signal tests mostly wait for screens and signals (a tenth of a core each in the
# plain build): they run several at a time, while the others run one a core beside them. Their
# lines follow the others' (meson-logs/testlog-waiting). Under the sanitizers tfviz computes ten
# times slower and those tests wait less: half as many at a time.
run_suite() { # dir, how many waiting tests at a time, meson options...
    local dir=$1 jobs=$2
    shift 2
    if [[ ! -f $dir/build.ninja ]]; then
        meson setup "$dir" "$@" >/dev/null || return 1
    fi
    meson compile -C "$dir" >/dev/null || { meson compile -C "$dir"; return 1; }
    meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$jobs" \
        --logbase testlog-waiting --suite tui --suite signals >"$dir/meson-logs/waiting.out" 2>&1 &
    waiting=$!
    meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes 2 \
        --no-suite tui --no-suite signals || status=1
    wait "$waiting" || status=1
    waiting=
    cat "$dir/meson-logs/waiting.out"
}

dirs=(build-test)
run_suite build-test 8 --buildtype=debugoptimized -Dwerror=true || status=1
if ((!quick)); then
    dirs+=(build-asan)
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        run_suite build-asan 4 --buildtype=debugoptimized -Dwerror=true \
        -Db_sanitize=address,undefined -Db_lundef=false || status=1
fi

if ((memcheck)); then
    # the werror build under valgrind: any invalid read or write, use of uninitialised memory or
    # leak fails the test (see the memcheck setups in tests/meson.build)
    # (test_figure's sweeps, suite 'sweep', return at once under valgrind: left out)
    meson test -C build-test --setup memcheck --suite unit --suite fuzz-smoke --no-suite sweep \
        --print-errorlogs --num-processes 2 || status=1
    meson test -C build-test --setup memcheckcli --suite cli --print-errorlogs --num-processes 2 ||
        status=1
    dirs+=(build-test/meson-logs/testlog-memcheck.json build-test/meson-logs/testlog-memcheckcli.json)
fi

logs=()
for d in "${dirs[@]}"; do
    if [[ $d == *.json ]]; then
        logs+=("$d")
    else
        logs+=("$d/meson-logs/testlog.json" "$d/meson-logs/testlog-waiting.json")
    fi
done
python3 "$here/scripts/test_summary.py" "${logs[@]}" || status=1
exit $status
