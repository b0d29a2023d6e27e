#!/bin/bash
# Runs one build of an example under mpirun on NP local ranks (one CPU lane each, forced wide,
# the network taken as free so that every loop with a GPU form goes remote), and compares its
# output with the serial program's.
#
#   check-ranks.sh EXPECTED|--demo NP PROGRAM [ARGS...]
#
# EXPECTED is the output of the example built without Clustrix; --demo instead requires the
# line "result equals the serial result: yes" (the demo prints its timings).
# Every loop must run on the NP ranks' devices, named cpu0, rank1:cpu0, ..., or, when it has no
# GPU form, say why it stays on rank 0's devices: a loop that failed is an error.
set -u
expected=$1
np=$2
program=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CLUSTRIX_DEVICES=cpu:1 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_MIN_ITERS_PER_DEVICE=1 \
  CLUSTRIX_LOG=info CLUSTRIX_MPI_BANDWIDTH=1e12
timeout 300 mpirun --oversubscribe -np "$np" -x CLUSTRIX_DEVICES -x CLUSTRIX_SERIAL_THRESHOLD \
  -x CLUSTRIX_MIN_ITERS_PER_DEVICE -x CLUSTRIX_LOG -x CLUSTRIX_MPI_BANDWIDTH \
  "$program" "$@" >"$tmp/out" 2>"$tmp/log"
rc=$?
what="$(basename "$program") on $np ranks"
[ $rc -eq 0 ] || { echo "FAIL: $what exited with $rc"; cat "$tmp/log"; exit 1; }
if [ "$expected" = "--demo" ]; then
  grep -q "^result equals the serial result: yes$" "$tmp/out" ||
    { echo "FAIL: $what: not the serial result"; cat "$tmp/out"; exit 1; }
elif ! diff -u "$expected" "$tmp/out" >"$tmp/diff"; then
  echo "FAIL: $what: output differs from the serial program"; cat "$tmp/diff"; exit 1
fi
lanes="cpu0$(seq 1 $((np - 1)) | sed 's/^/, rank/; s/$/:cpu0/' | tr -d '\n')"
remote=$(grep -c "^clustrix: .*main.cpp:[0-9]*: parallel on $np devices ($lanes)" "$tmp/log")
local=$(grep -c "^clustrix: .*main.cpp:[0-9]*: stays on rank 0's devices: the loop has no GPU form" "$tmp/log")
all=$(grep -c "^clustrix: .*main.cpp:[0-9]*: " "$tmp/log")
# A loop kept on rank 0 says why, then runs there: with one CPU lane, serially.
if grep -q "failed on" "$tmp/log" || [ $((remote + 2 * local)) -ne "$all" ]; then
  echo "FAIL: $what: a loop neither ran on the ranks nor, without a GPU form, on rank 0"
  cat "$tmp/log"; exit 1
fi
echo "equal to the serial result on $np ranks ($remote loop run(s) on $lanes, $local kept on rank 0)"
