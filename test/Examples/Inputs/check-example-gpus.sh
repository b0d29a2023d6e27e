#!/bin/bash
# Runs one build of an example on N emulated GPUs alone (the caller points CLUSTRIX_CUDA_LIBRARY
# at the emulator), forced wide, and compares its output with the serial program's.
#
#   check-example-gpus.sh EXPECTED|--demo N PROGRAM [ARGS...]
#
# EXPECTED is the output of the example built without Clustrix; --demo instead requires the
# line "result equals the serial result: yes". Every loop must run on the N GPUs, or, when it has
# no GPU form, say so and run on CPU workers: a loop that stayed serial or failed is an error.
set -u
expected=$1
n=$2
program=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
env CLUSTRIX_EMU_GPUS=$n CLUSTRIX_DEVICES=cuda CLUSTRIX_SERIAL_THRESHOLD=0 \
  CLUSTRIX_MIN_ITERS_PER_DEVICE=1 CLUSTRIX_LOG=info "$program" "$@" >"$tmp/out" 2>"$tmp/log"
rc=$?
what="$(basename "$program") on $n GPUs"
[ $rc -eq 0 ] || { echo "FAIL: $what exited with $rc"; cat "$tmp/log"; exit 1; }
if [ "$expected" = "--demo" ]; then
  grep -q "^result equals the serial result: yes$" "$tmp/out" ||
    { echo "FAIL: $what: not the serial result"; cat "$tmp/out"; exit 1; }
elif ! diff -u "$expected" "$tmp/out" >"$tmp/diff"; then
  echo "FAIL: $what: output differs from the serial program"; cat "$tmp/diff"; exit 1
fi
lanes=$(seq 0 $((n - 1)) | sed 's/^/cuda/' | paste -sd, - | sed 's/,/, /g')
gpu=$(grep -c "^clustrix: .*main.cpp:[0-9]*: parallel on $n devices ($lanes)" "$tmp/log")
cpu=$(grep -c "^clustrix: warning: .*main.cpp:[0-9]*: runs on the CPU: " "$tmp/log")
all=$(grep -c "^clustrix: .*main.cpp:[0-9]*: " "$tmp/log")
if grep -q ": serial: \|failed on" "$tmp/log" || [ $((gpu + 2 * cpu)) -ne "$all" ]; then
  echo "FAIL: $what: a loop neither ran on the GPUs nor, without a GPU form, on the CPU"
  cat "$tmp/log"; exit 1
fi
echo "equal to the serial result on $n GPUs ($gpu loop(s) on the GPUs, $cpu without a GPU form on the CPU)"
