#!/usr/bin/env bash
# Differential tester: random loop programs built serially and through Clustrix, run on 1, 3, 4
# and 7 CPU workers and compared (docs/testing.md).
# Usage: scripts/difftest.sh [--count N] [--seed S] [--batch B] [--keep DIR] [--jobs J] [...]
#   (every option of test/Differential/Inputs/difftest.py; BUILD=dir picks the build, default
#   build/). The last line printed is
#   difftest: N programs, M mismatches, C crashes, F compile failures
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
if [ ! -x "$build/bin/clustrix++" ]; then
  echo "difftest.sh: $build/bin/clustrix++ not found; build Clustrix first (docs/building.md)" >&2
  exit 2
fi
exec python3 "$root/test/Differential/Inputs/difftest.py" \
  --clustrix-cxx "$build/bin/clustrix++" --cxx "${CLUSTRIX_SERIAL_CXX:-clang++-19}" "$@"
