#!/bin/bash
# Runs every Clustrix benchmark on this machine (CPU; the GPU half where a CUDA GPU and nvcc
# exist) and writes bench/results/results.md and speedup.png. See bench/README.md.
#   bench/run.sh [--build DIR] [--reps R] [--workers W] [--quick]
exec python3 "$(dirname "$0")/run.py" "$@"
