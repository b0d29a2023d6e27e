#!/usr/bin/env bash
# Builds Clustrix and runs every test (unit tests and the lit suite) through CTest.
# Usage: scripts/test.sh [build-dir]    (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
bash scripts/install-deps.sh
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLUSTRIX_WERROR=ON >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)"
# The summary of CTest fuzz-quick (scripts/fuzz.sh --quick), which CTest keeps in its log.
grep -h '^fuzz: [0-9]* targets' "$BUILD/Testing/Temporary/LastTest.log" 2>/dev/null | tail -1 || true
