#!/usr/bin/env bash
# Builds MoHex 2.0 (benzene-vanilla-cmake) from source on these machines. See the book, docs/research/mohex.md.
#   bash scripts/mohex/build.sh SRC_DIR BUILD_DIR
# SRC_DIR: a clone of github.com/cgao3/benzene-vanilla-cmake (tested at commit 9561476).
set -euo pipefail
SRC=${1:?source dir}; BUILD=${2:?build dir}
HERE=$(cd "$(dirname "$0")" && pwd)
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if ! dpkg -s libboost-thread-dev libdb-dev cmake >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends cmake g++ make \
    libboost-thread-dev libboost-system-dev libboost-filesystem-dev libboost-program-options-dev libboost-date-time-dev libdb-dev
fi
(cd "$SRC" && { git apply --check "$HERE/benzene-fixes.patch" 2>/dev/null && git apply "$HERE/benzene-fixes.patch"; } || echo "patch already applied or not needed")
mkdir -p "$BUILD" && cd "$BUILD"
cmake "$SRC" -DCMAKE_BUILD_TYPE=Release >/dev/null
make -j"$(nproc)" mohex     # about 4 minutes on 2 cores
echo "built $BUILD/src/mohex/mohex"
