#!/usr/bin/env bash
# Builds Clustrix and runs the demonstration: an annotated loop compiled through the plugin, run
# on the devices this machine has (CPU workers when there is no GPU), compared with serial.
# Usage: scripts/demo.sh [build-dir]    (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
bash scripts/install-deps.sh
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j "$(nproc)" --target clustrix clustrix-cxx clustrix_rt clustrix-devices
echo
echo "== What the runtime sees"
"$BUILD/bin/clustrix-devices"
echo
echo "== Compiling examples/demo/main.cpp through the Clustrix plugin"
"$BUILD/bin/clustrix++" -O2 examples/demo/main.cpp -o "$BUILD/demo"
echo
echo "== Running it"
CLUSTRIX_LOG=${CLUSTRIX_LOG:-info} "$BUILD/demo"
