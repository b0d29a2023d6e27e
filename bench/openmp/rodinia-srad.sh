#!/usr/bin/env bash
# Rodinia 3.1's srad_v2 (OpenMP), unedited, through the OpenMP front door: built with
# `clustrix++ --clustrix-openmp=on`, run on two CPU workers and on an emulated GPU beside one
# CPU worker, and compared byte for byte with its build by clang with OMP_NUM_THREADS=1. Then
# `clustrix-rewrite --openmp=on --migrate` writes the annotated source, which is built as
# annotated code and must give the same decisions and output.
# The Rodinia tree is read in place (a checkout of the Rodinia 3.1 OpenMP sources), never copied
# into this project.
#
# Usage: bench/openmp/rodinia-srad.sh RODINIA_OPENMP_DIR [BUILD] [ROWS COLS ITERATIONS]
set -euo pipefail
RODINIA=${1:?usage: rodinia-srad.sh RODINIA_OPENMP_DIR [BUILD] [ROWS COLS ITERATIONS]}
BUILD=$(cd "${2:-$(dirname "$0")/../../build}" && pwd)
ROWS=${3:-512}; COLS=${4:-512}; ITERS=${5:-10}
SRC="$RODINIA/srad/srad_v2/srad.cpp"
[ -f "$SRC" ] || { echo "rodinia-srad.sh: no $SRC" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# OPEN enables the program's OpenMP directives; OUTPUT prints the image (the comparison).
FLAGS=(-O2 -fopenmp -DOPEN -DOUTPUT -w)
clang++-19 "${FLAGS[@]}" "$SRC" -o "$WORK/serial"
CLUSTRIX_CXX=clang++-19 "$BUILD/bin/clustrix++" --clustrix-openmp=on "${FLAGS[@]}" "$SRC" \
  -o "$WORK/door" 2> "$WORK/build.log"
grep -E "remark: loop parallelized|warning: loop not|left as written" "$WORK/build.log" |
  sed 's|.*/||' || true
ARGS=("$ROWS" "$COLS" 0 127 0 127 2 0.5 "$ITERS")
OMP_NUM_THREADS=1 "$WORK/serial" "${ARGS[@]}" > "$WORK/serial.txt"
status=0
run() { # name, environment...
  local name=$1; shift
  env OMP_NUM_THREADS=1 CLUSTRIX_LOG=info "$@" "$WORK/door" "${ARGS[@]}" > "$WORK/$name.txt" \
    2> "$WORK/$name.log"
  local wide
  wide=$(grep -c "parallel on" "$WORK/$name.log" || true)
  if cmp -s "$WORK/serial.txt" "$WORK/$name.txt"; then
    echo "$name: equal to serial ($(wc -c < "$WORK/serial.txt") bytes; $wide wide loop calls)"
  else
    echo "$name: DIFFERS from serial"
    status=1
  fi
}
run cpu CLUSTRIX_DEVICES=cpu:2
EMU="$BUILD/lib/libclustrix_cudaemu.so"
if [ -f "$EMU" ]; then
  run emulated-gpu CLUSTRIX_DEVICES=cuda,cpu:1 CLUSTRIX_CUDA_LIBRARY="$EMU" \
    CLUSTRIX_NVRTC_LIBRARY="$EMU"
fi
# Migration: the annotated source gives the same decisions and the same output.
"$BUILD/bin/clustrix-rewrite" --openmp=on --migrate --remarks=off --refusals=ignore "$SRC" \
  -o "$WORK/migrated.cpp" -- "${FLAGS[@]}" 2> "$WORK/migrate.log"
CLUSTRIX_CXX=clang++-19 "$BUILD/bin/clustrix++" "${FLAGS[@]}" "$WORK/migrated.cpp" \
  -o "$WORK/migrated" 2> "$WORK/migrated-build.log"
decisions() { grep -oE ":[0-9]+:[0-9]+: (remark: loop parallelized|warning: loop not)" "$1" | sort; }
if [ "$(decisions "$WORK/build.log")" = "$(decisions "$WORK/migrated-build.log")" ]; then
  echo "migrated: the same decisions ($(decisions "$WORK/build.log" | wc -l) loops)"
else
  echo "migrated: DIFFERENT decisions"; status=1
fi
(cd "$WORK" && OMP_NUM_THREADS=1 CLUSTRIX_DEVICES=cpu:2 ./migrated "${ARGS[@]}" > migrated.txt)
if cmp -s "$WORK/serial.txt" "$WORK/migrated.txt"; then
  echo "migrated: equal to serial"
else
  echo "migrated: DIFFERS from serial"; status=1
fi
exit $status
