#!/usr/bin/env bash
# fuzz.sh — build the fuzz targets with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer
# (clang) and run each one in turn for a set time. New inputs go to build-fuzz/corpus/<target>/;
# a crash is saved as build-fuzz/crash-<target>-* and stops the run.
#
#   scripts/fuzz.sh                 every target, 300 seconds each
#   scripts/fuzz.sh -t 60 emit      one target for 60 seconds
#
# Targets: tokenizer options analysis emit tempfile assets npy safetensors order
# (tests/fuzz/fuzz_<target>.c). Needs clang and libclang-rt-14-dev (Debian 12). One job at a
# time: the targets run one after another.
# The tokenizer target reads the dictionary and BPE tables built into build-fuzz/assets/.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
secs=300
targets=()
while (($#)); do
    case $1 in
    -t) secs=$2; shift 2 ;;
    -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
    esac
done
((${#targets[@]})) || targets=(tokenizer options analysis emit tempfile assets npy safetensors order
                             learnfiles pefile)

dir=build-fuzz
if [[ ! -f $dir/build.ninja ]]; then
    CC=clang meson setup "$dir" --buildtype=debugoptimized -Dfuzzing=true \
        -Db_sanitize=address,undefined -Db_lundef=false \
        -Dc_args='-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined' >/dev/null
fi
meson compile -C "$dir" >/dev/null
export TFVIZ_DATA_DIR=$here/$dir/assets

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for t in "${targets[@]}"; do
    mkdir -p "$dir/corpus/$t"
    echo "fuzz.sh: $t for ${secs}s"
    extra=()
    [[ $t == assets ]] && extra=(-max_len=400000) # a dictionary is 256 KB at the least
    "$dir/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 "${extra[@]}" \
        -print_final_stats=1 -artifact_prefix="$dir/crash-$t-" \
        "$dir/corpus/$t" "tests/fuzz/corpus/$t" 2>&1 | tee "$dir/fuzz-$t.log" | grep -E \
        'DONE|Done |stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|property failed' || true
    if ! grep -q 'DONE' "$dir/fuzz-$t.log"; then
        echo "fuzz.sh: $t found a problem; see $dir/fuzz-$t.log and $dir/crash-$t-*" >&2
        exit 1
    fi
done
