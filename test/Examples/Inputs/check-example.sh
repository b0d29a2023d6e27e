#!/bin/bash
# Runs each given build of an example with the CPU path forced to 1, 3, 4 and 7 workers and
# compares its standard output with the expected (serial) output.
#
#   check-example.sh EXPECTED|--demo PROGRAM... -- ARGS...
#
# EXPECTED is the output of the example built without Clustrix. --demo instead requires the
# line "result equals the serial result: yes" (the demo prints timings, which differ). Every
# loop must report that it ran on N devices (N > 1) or serially for one worker (N = 1): the
# runtime's info log is checked too, so a run that silently stayed serial fails.
set -u
expected=$1
shift
programs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  programs+=("$1")
  shift
done
[ $# -gt 0 ] && shift # the "--"
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for program in "${programs[@]}"; do
  for n in 1 3 4 7; do
    env CLUSTRIX_DEVICES=cpu:$n CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_MIN_ITERS_PER_DEVICE=1 \
      CLUSTRIX_LOG=info "$program" "$@" >"$tmp/out" 2>"$tmp/log"
    rc=$?
    what="$(basename "$program") with cpu:$n"
    if [ $rc -ne 0 ]; then
      echo "FAIL: $what exited with $rc"; cat "$tmp/log"; status=1; continue
    fi
    if [ "$expected" = "--demo" ]; then
      grep -q "^result equals the serial result: yes$" "$tmp/out" ||
        { echo "FAIL: $what: not the serial result"; cat "$tmp/out"; status=1; }
    elif ! diff -u "$expected" "$tmp/out" >"$tmp/diff"; then
      echo "FAIL: $what: output differs from the serial program"; cat "$tmp/diff"; status=1
    fi
    if [ $n -eq 1 ]; then
      want="serial: only one CPU worker is available"
    else
      want="parallel on $n devices"
    fi
    loops=$(grep -c "^clustrix: .*main.cpp:[0-9]*: " "$tmp/log")
    good=$(grep -c "^clustrix: .*main.cpp:[0-9]*: $want" "$tmp/log")
    if [ "$loops" -eq 0 ] || [ "$loops" -ne "$good" ]; then
      echo "FAIL: $what: expected every loop to log '$want'"; cat "$tmp/log"; status=1
    fi
  done
done
[ $status -eq 0 ] && echo "all runs equal the serial result (${#programs[@]} builds x 4 device counts)"
exit $status
