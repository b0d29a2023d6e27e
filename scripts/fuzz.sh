#!/usr/bin/env bash
# Builds the libFuzzer targets of test/fuzz (Clang 19, -fsanitize=fuzzer,address,undefined) and
# runs each on its seed corpus, test/fuzz/corpus/<target>/. docs/fuzzing.md has the targets and
# the figures of the last long run.
#
#   scripts/fuzz.sh --quick            every target for a few seconds (about a minute in all);
#                                      part of the test suite (CTest fuzz-quick)
#   scripts/fuzz.sh --runs N           N executions of each target (the long run)
#   scripts/fuzz.sh --time SECS        SECS seconds of each target
# options:
#   --build-dir DIR   the fuzz build (default: build-fuzz); made with CC=clang-19 CXX=clang++-19
#   --target NAME     only this target (repeatable): clause config probe remote-answer plugin
#   --build-only      build, do not run;   --no-build: run what is built
#   environment: CLUSTRIX_FUZZ_BUILD_JOBS (ninja jobs, default 2), CLUSTRIX_FUZZ_QUICK_SECONDS
#
# New inputs are kept in DIR/corpus/<target>/ (the seeds in test/ are not touched), crashes in
# DIR/artifacts/<target>/. The last line is `fuzz: N targets, E executions, C crashes`; the
# exit status is 1 when anything crashed, 2 for usage and build errors.
set -uo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
BUILD=build-fuzz
MODE=quick
AMOUNT=
BUILD_STEP=1
RUN_STEP=1
TARGETS=()
ALL_TARGETS=(clause config probe remote-answer plugin)
QUICK_SECONDS=${CLUSTRIX_FUZZ_QUICK_SECONDS:-10}

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) MODE=quick ;;
  --runs) MODE=runs; AMOUNT=${2:?--runs needs a count}; shift ;;
  --time) MODE=time; AMOUNT=${2:?--time needs seconds}; shift ;;
  --build-dir) BUILD=${2:?--build-dir needs a directory}; shift ;;
  --target) TARGETS+=("${2:?--target needs a name}"); shift ;;
  --build-only) RUN_STEP=0 ;;
  --no-build) BUILD_STEP=0 ;;
  -h | --help) usage ;;
  *) echo "fuzz.sh: unknown option '$1'" >&2; usage ;;
  esac
  shift
done
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL_TARGETS[@]}")
for t in "${TARGETS[@]}"; do
  [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || { echo "fuzz.sh: no target '$t'" >&2; exit 2; }
done

if [ $BUILD_STEP = 1 ]; then
  CXX=${CLUSTRIX_FUZZ_CXX:-clang++-19}
  CC=${CLUSTRIX_FUZZ_CC:-clang-19}
  command -v "$CXX" >/dev/null || { echo "fuzz.sh: $CXX not found" >&2; exit 2; }
  if [ ! -f "$BUILD/build.ninja" ]; then
    mkdir -p "$BUILD"
    cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
      -DCLUSTRIX_FUZZ=ON -DCLUSTRIX_BUILD_TESTS=OFF >"$BUILD/configure.log" 2>&1 ||
      { cat "$BUILD/configure.log" >&2; echo "fuzz.sh: configuring $BUILD failed" >&2; exit 2; }
  fi
  ninja -C "$BUILD" -j "${CLUSTRIX_FUZZ_BUILD_JOBS:-2}" clustrix-fuzzers >"$BUILD/fuzz-build.log" 2>&1 ||
    { tail -30 "$BUILD/fuzz-build.log" >&2; echo "fuzz.sh: building the fuzz targets failed" >&2; exit 2; }
fi
[ $RUN_STEP = 1 ] || exit 0

# Per target: what limits one input. The plugin parses C++ (tens of ms an input), the others are
# fast; its input is a whole source file.
declare -A MAXLEN=([clause]=512 [config]=4096 [probe]=4096 [remote-answer]=4096 [plugin]=4096)
declare -A LEAKS=([clause]=1 [config]=1 [probe]=1 [remote-answer]=1 [plugin]=0)

total_runs=0
total_crashes=0
count=0
for t in "${TARGETS[@]}"; do
  bin="$BUILD/fuzz/$t-fuzzer"
  [ -x "$bin" ] || { echo "fuzz.sh: $bin is not built" >&2; exit 2; }
  corpus="$BUILD/corpus/$t"
  artifacts="$BUILD/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  # Failures are crash-, leak-, timeout- and oom- files; slow-unit- files (an input over 10 s,
  # which a loaded machine can cause) are listed but do not fail the run.
  failures() { find "$artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l; }
  before=$(failures)
  slow_before=$(find "$artifacts" -type f -name 'slow-unit-*' | wc -l)
  args=(-max_len="${MAXLEN[$t]}" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1
        -detect_leaks="${LEAKS[$t]}" -artifact_prefix="$artifacts/")
  [ -f "$SRC/test/fuzz/corpus/$t.dict" ] && args+=(-dict="$SRC/test/fuzz/corpus/$t.dict")
  case $MODE in
  quick) args+=(-max_total_time="$QUICK_SECONDS") ;;
  time) args+=(-max_total_time="$AMOUNT") ;;
  runs) args+=(-runs="$AMOUNT") ;;
  esac
  log="$BUILD/$t.$MODE.log"
  start=$(date +%s)
  "$bin" "${args[@]}" "$corpus" "$SRC/test/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  runs=${runs:-0}
  after=$(failures)
  crashes=$((after - before))
  slow=$(( $(find "$artifacts" -type f -name 'slow-unit-*' | wc -l) - slow_before ))
  [ $slow -gt 0 ] && echo "fuzz: $t: $slow slow inputs (over 10 s) in $artifacts" >&2
  # 72 is libFuzzer's status for a run stopped by SIGINT (-interrupted_exitcode): not a crash.
  if [ $rc -eq 72 ] && [ $crashes -eq 0 ]; then
    echo "fuzz: $t: interrupted" >&2
  elif [ $rc -ne 0 ] && [ $crashes -eq 0 ]; then crashes=1; fi
  if [ $crashes -gt 0 ]; then
    echo "fuzz: $t: crashed (exit $rc); see $log and $artifacts" >&2
    grep -m3 -E "ERROR|SUMMARY|deadly signal" "$log" >&2
  fi
  echo "fuzz: $t: $runs executions in $secs s, corpus $(find "$corpus" -type f | wc -l) inputs, $crashes crashes"
  total_runs=$((total_runs + runs))
  total_crashes=$((total_crashes + crashes))
  count=$((count + 1))
done
echo "fuzz: $count targets, $total_runs executions, $total_crashes crashes"
[ $total_crashes -eq 0 ]
