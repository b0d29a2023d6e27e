#!/usr/bin/env bash
# compare.sh EXPECTED EXE... : runs each executable on 1, 3, 4 and 7 CPU workers, forced wide,
# and fails on the first output that differs from EXPECTED.
set -u
expected=$1
shift
for exe in "$@"; do
  for n in 1 3 4 7; do
    out=$(CLUSTRIX_DEVICES=cpu:$n CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_MIN_ITERS_PER_DEVICE=1 "$exe") || {
      echo "$exe on cpu:$n exited with $?"; exit 1; }
    if ! diff <(printf '%s\n' "$out") "$expected" >/dev/null; then
      echo "$exe on cpu:$n differs from the serial output:"
      diff <(printf '%s\n' "$out") "$expected"
      exit 1
    fi
  done
done
echo "all outputs equal the serial output"
