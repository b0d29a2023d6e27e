#!/usr/bin/env bash
# The plugin fuzz target's crash triage (test/fuzz/PluginFuzzer.cpp), both sides:
# - a source on which Clang 19 alone crashes is reported as Clang's and does not fail the run;
# - a crash of the Clustrix pipeline on a source Clang parses still fails it, with its stack.
#
#   check.sh FUZZ-BUILD-DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fuzzer=${1:?usage: check.sh FUZZ-BUILD-DIR}/fuzz/plugin-fuzzer
[ -x "$fuzzer" ] || { echo "check.sh: $fuzzer is not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# Leak checking is off for this target (scripts/fuzz.sh): a recovered crash leaks Clang's state.
"$fuzzer" -detect_leaks=0 -artifact_prefix="$work/" "$here/clang-parser-crash.cpp" >"$work/clang.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || ! grep -q "^plugin-fuzzer: Clang alone (-fsyntax-only, without Clustrix) crashes on this input too" "$work/clang.log"; then
  echo "FAIL: Clang's own crash: exit $rc"; tail -20 "$work/clang.log"; fail=1
else
  echo "PASS: Clang's own crash is reported as Clang's and does not fail the run"
fi

CLUSTRIX_FUZZ_SELFTEST=crash "$fuzzer" -detect_leaks=0 -artifact_prefix="$work/" "$here/pipeline-crash.cpp" \
  >"$work/pipeline.log" 2>&1
rc=$?
if [ $rc -eq 0 ] || ! grep -q "^plugin-fuzzer: the Clustrix pipeline crashed on a source that Clang alone parses" "$work/pipeline.log" ||
   ! grep -qE "deadly signal|AddressSanitizer: SEGV" "$work/pipeline.log"; then
  echo "FAIL: a crash of the pipeline: exit $rc"; tail -20 "$work/pipeline.log"; fail=1
else
  echo "PASS: a crash of the pipeline fails the run (exit $rc, the signal reported with its stack)"
fi

# The same well-formed source without the self-test crash runs clean.
"$fuzzer" -detect_leaks=0 "$here/pipeline-crash.cpp" >"$work/clean.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -q "^plugin-fuzzer:" "$work/clean.log"; then
  echo "FAIL: the well-formed source: exit $rc"; tail -20 "$work/clean.log"; fail=1
else
  echo "PASS: the well-formed source runs clean"
fi
exit $fail
