#!/usr/bin/env bash
# compare-gpus.sh EXPECTED EXE [ARGS...]: runs EXE, forced wide, on 1, 2 and 8 emulated GPUs
# (CLUSTRIX_EMU_GPUS; the caller points CLUSTRIX_CUDA_LIBRARY at the emulator), GPU-only and
# GPU + 2 CPU workers, and fails on the first output that differs from EXPECTED, or on a run in
# which no loop went to the GPUs.
set -u
expected=$1
exe=$2
shift 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for n in 1 2 8; do
  for devices in cuda cuda,cpu:2; do
    what="$(basename "$exe") on $n GPU(s), devices $devices"
    out=$(CLUSTRIX_EMU_GPUS=$n CLUSTRIX_DEVICES=$devices CLUSTRIX_SERIAL_THRESHOLD=0 \
          CLUSTRIX_MIN_ITERS_PER_DEVICE=1 CLUSTRIX_LOG=info "$exe" "$@" 2>"$log") || {
      echo "$what exited with $?"; cat "$log"; exit 1; }
    if ! diff <(printf '%s\n' "$out") "$expected" >/dev/null; then
      echo "$what differs from the serial output:"
      diff <(printf '%s\n' "$out") "$expected" | head -20
      exit 1
    fi
    if ! grep -q "parallel on [0-9]* devices (cuda0" "$log"; then
      echo "$what: no loop ran on the GPUs"; cat "$log"; exit 1
    fi
  done
done
echo "all outputs equal the serial output on 1, 2 and 8 GPUs, alone and with CPU workers"
