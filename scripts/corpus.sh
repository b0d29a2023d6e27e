#!/usr/bin/env bash
# Classic kernels corpus, full report (docs/testing.md, "Classic kernels corpus"): checks every
# written verdict by reversed and OpenMP runs, then builds every kernel through clustrix++ and
# prints, per kernel and in total, the parallel loops accepted, the sequential loops accepted,
# the wrong outputs, and the refusal reasons of the parallel loops, grouped by kind.
# Usage: scripts/corpus.sh [--lang cpp|c|cpp,c] [--only KERNEL...] [--json FILE] [--work DIR]
#   (every option of test/Corpus/Inputs/corpus.py; BUILD=dir picks the build, default build/).
#   The last line printed is "corpus: PASS in N s" or "corpus: FAIL in N s".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
if [ ! -x "$build/bin/clustrix++" ]; then
  echo "corpus.sh: $build/bin/clustrix++ not found; build Clustrix first (docs/building.md)" >&2
  exit 2
fi
exec python3 "$root/test/Corpus/Inputs/corpus.py" --evidence --clustrix --details \
  --clustrix-cxx "$build/bin/clustrix++" --cc "${CLUSTRIX_SERIAL_CC:-clang-19}" \
  --cxx "${CLUSTRIX_SERIAL_CXX:-clang++-19}" "$@"
