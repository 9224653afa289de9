#!/usr/bin/env bash
# run.sh — build tfviz for benchmarking, run every benchmark and its peers in one go, and print
# one table of medians and ratios measured in this run. See bench/README.md.
#
#   bench/run.sh            the full suite (a few minutes)
#   bench/run.sh --quick    fewer repetitions, smaller accuracy checks
#
# Results also go to bench/out/results.tsv and bench/out/table.txt.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here" || exit 2
quick=
rounds=3
reps=5
for arg in "$@"; do
    case $arg in
    --quick) quick=--quick rounds=1 reps=3 ;;
    -h | --help)
        sed -n '2,9p' "$0"
        exit 0
        ;;
    *)
        echo "run.sh: unknown option '$arg' (try --help)" >&2
        exit 2
        ;;
    esac
done

# Debian's interpreter sees Debian's python3-numpy, python3-torch, python3-matplotlib; a python3
# earlier on PATH (pyenv, venv) may not.
py=/usr/bin/python3
[[ -x $py ]] || py=python3

build=${BENCH_BUILD:-build-bench}
quiet() { # run a command, show its output only if it fails
    local log
    log=$("$@" 2>&1) || { printf '%s\n' "$log" >&2; exit 1; }
}
if [[ ! -f $build/build.ninja ]]; then
    quiet meson setup "$build" --buildtype=release -Dbench=true -Dtests=disabled
else
    quiet meson configure "$build" -Dbench=true
fi
quiet meson compile -C "$build"
tfviz=$here/$build/app/tfviz

out=bench/out
mkdir -p "$out"
res=$out/results.tsv
{
    cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
    echo "# machine: $(nproc) CPUs, $cpu"
    echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -sr), $(cc --version | head -1)"
    echo "# load average at start (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
    isa=$("$build"/bench/bench_kernels --isa)
    echo "# build: $build (release), the kernels use their $isa variant"
} >"$res"

# Every benchmark prints lines "name<TAB>median<TAB>unit<TAB>min<TAB>max<TAB>goal" and may print
# "ratio<TAB>label<TAB>numerator<TAB>denominator<TAB>goal"; see bench/README.md.
step() { # label, command...
    local label=$1
    shift
    echo "run.sh: $label" >&2
    "$@" >>"$res" || echo "# $label: failed with status $?" >>"$res"
}

export TFVIZ=$tfviz BENCH_QUICK=${quick:+1} BENCH_BUILD=$build BENCH_PYTHON=$py

# The kernels and their peers take turns, round after round: on a shared machine a burst of
# load then slows both sides instead of one. The table keeps the median of the rounds' medians.
for ((r = 1; r <= rounds; r++)); do
    step "kernels (C), round $r of $rounds" "$build/bench/bench_kernels" --reps "$reps" $quick
    step "peers: numpy, torch, round $r of $rounds" "$py" bench/peers.py --reps "$reps" $quick
done
step "command line (C)" "$build/bench/bench_cli" "$tfviz" $quick

# Benchmarks of other parts, if present (bench/README.md, "Adding a benchmark"): the scripts
# bench/bench_{tokens,tui,export,w2v}.{py,sh}, any other bench/bench_*.{py,sh} that carries the
# line "bench/run.sh: plug-in", and C programs that bench/meson.build builds into $build/bench/.
# They run from the repository root with no arguments and TFVIZ, BENCH_QUICK, BENCH_BUILD and
# BENCH_PYTHON in the environment. Their tab-separated lines join the table; any other output
# is kept as their report and shown after it.
plugins=()
for name in tokens tui export w2v; do
    for f in bench/bench_$name.py bench/bench_$name.sh; do
        if [[ -f $f ]]; then
            plugins+=("$f")
            break
        fi
    done
done
for f in bench/bench_*.py bench/bench_*.sh "$build"/bench/bench_*; do
    [[ -f $f ]] || continue
    case " ${plugins[*]} " in *" $f "*) continue ;; esac
    case $f in
    "$build"/bench/bench_kernels | "$build"/bench/bench_cli) ;;
    "$build"/bench/*) [[ -x $f && $f != *.p ]] && plugins+=("$f") ;;
    *) grep -q 'bench/run.sh: plug-in' "$f" && plugins+=("$f") ;;
    esac
done
reports=$out/reports.txt
: >"$reports"
for f in "${plugins[@]}"; do
    log=$out/$(basename "$f").out
    echo "run.sh: $f" >&2
    case $f in
    *.py) "$py" "$f" >"$log" 2>&1 ;;
    *.sh) bash "$f" >"$log" 2>&1 ;;
    *) "$f" >"$log" 2>&1 ;;
    esac
    rc=$?
    # measurements and ratios into the table, everything else into the report
    echo "== $f (exit status $rc)" >>"$reports"
    awk -F'\t' -v res="$res" -v rep="$reports" '
        ($1 == "ratio" && NF >= 4) || (NF >= 3 && $2 ~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/) {
            print >>res; next
        }
        { print >>rep }' "$log"
    echo >>"$reports"
    ((rc == 0)) || echo "# $f: exit status $rc (its output: $log)" >>"$res"
done

# The comparisons this suite makes (others add their own ratio lines).
cat >>"$res" <<'RATIOS'
ratio	PE f32 8192x4096: x store floor	pe_f32	floor_store	<=2
ratio	PE: speed-up vs numpy (TF tutorial)	numpy_pe	pe_f32	>=40
ratio	PE: speed-up vs torch (PyTorch tutorial, 1 thread)	torch_pe	pe_f32	
ratio	bound on any PE speed-up vs numpy: numpy / store floor	numpy_pe	floor_store	
ratio	RoPE interleaved: x read-write floor	rope_interleaved	floor_rw	
ratio	RoPE half: x read-write floor	rope_half	floor_rw	
ratio	RoPE half: speed-up vs HF rotate_half (1 thread)	torch_rope_half	rope_half	>=5
ratio	RoPE interleaved: speed-up vs HF rotate_half	torch_rope_half	rope_interleaved	>=5
ratio	RoPE half: vs HF rotate_half + its cos/sin tables	torch_rope_half_tables	rope_half	
RATIOS

"$py" bench/table.py "$res" | tee "$out/table.txt"
if [[ -s $reports ]]; then
    echo
    echo "Reports of the other benchmarks (also in $reports):"
    cat "$reports"
fi
