#!/usr/bin/env bash
# Checks the CUDA path on a machine with a GPU, nvcc and no clang, from a bundle that
# scripts/gpu-bundle.sh made elsewhere: every program on the GPU alone, on the GPU with CPU
# workers, with a chunk failing on the GPU, with a small device-memory limit (sub-chunks) and
# staging buffer, without pinned staging, under cyclic and dynamic schedules, through NVRTC and
# through nvcc's ahead-of-time kernels, each against the serial build's output; then the GPU half
# of the benchmarks. Prints PASS/FAIL lines and "N passed, N failed" last.
#
#   scripts/gpu-check.sh [bundle-dir] [log-dir] [--no-bench]    (defaults: .gpu, gpu-logs)
set -uo pipefail
cd "$(dirname "$0")/.."
B=$(realpath "${1:-.gpu}")
LOGS=$(realpath -m "${2:-gpu-logs}")
BENCH=1
[ "${3:-}" = "--no-bench" ] && BENCH=0
mkdir -p "$LOGS"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Debian 12's libstdc++ only where the machine's own is older than the one the bundle was built with.
if ! strings "$(ldconfig -p | awk '/libstdc\+\+\.so\.6 /{print $NF; exit}')" 2>/dev/null |
  grep -q GLIBCXX_3.4.30; then
  export LD_LIBRARY_PATH="$B/lib/compat:$LD_LIBRARY_PATH"
fi
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=$(dirname "$(dirname "$(realpath "$NVCC")")")
NVRTC=$(ls "$CUDA_HOME"/lib64/libnvrtc.so.* "$CUDA_HOME"/targets/x86_64-linux/lib/libnvrtc.so.* \
  2>/dev/null | grep -v alt | sort | head -1)
# Already set (a dry run of this script on the emulator, docs/gpu-hardware.md): kept.
export CLUSTRIX_NVRTC_LIBRARY=${CLUSTRIX_NVRTC_LIBRARY:-$NVRTC}
export CLUSTRIX_KERNEL_CACHE=$LOGS/kernel-cache
unset CLUSTRIX_DEVICES CLUSTRIX_LOG CLUSTRIX_FAULT CLUSTRIX_CONFIG

echo "== Machine"
nvidia-smi -L || true
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
"$NVCC" --version | tail -2
echo "NVRTC: $NVRTC"
for f in "$B"/bin/*; do
  if ldd "$f" 2>/dev/null | grep -q "not found"; then bad "libraries of $(basename "$f")"; ldd "$f" | grep "not found"; fi
done

echo "== clustrix-devices"
"$B/bin/clustrix-devices" | tee "$LOGS/devices.txt"
grep -q "cuda0" "$LOGS/devices.txt" && ok "clustrix-devices lists cuda0" || bad "clustrix-devices lists no cuda0"
"$B/bin/clustrix-devices" --probe >"$LOGS/probe.txt" 2>&1 || true
# Whether cuda0 can use the host's pageable memory (HMM or ATS): then every program also runs
# with pageable_access on, and the benchmarks measure it against the device data table.
IN_PLACE=0
if grep -q "^cuda0: kernels can use the host's pageable memory" "$LOGS/devices.txt"; then
  IN_PLACE=1
else
  echo "cuda0 has no pageable memory access (CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS is 0):" \
    "pageable_access is neither checked nor measured on this machine"
fi

wide=(CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_MIN_ITERS_PER_DEVICE=1 CLUSTRIX_LOG=info)
# run LABEL PROGRAM EXPECTED ARGS ENV...: output equal to the serial output (or, for the demo,
# its own "equals the serial result: yes"); logs kept.
run_one() {
  local label=$1 prog=$2 expected=$3 args=$4
  shift 4
  local log="$LOGS/$label.log" out="$LOGS/$label.out"
  # shellcheck disable=SC2086
  env "${wide[@]}" "$@" timeout 300 "$prog" $args >"$out" 2>"$log"
  local rc=$?
  if [ $rc -ne 0 ]; then bad "$label: exit $rc"; tail -5 "$log"; return; fi
  if [[ $prog == *demo* ]]; then
    grep -q "^result equals the serial result: yes$" "$out" || { bad "$label: not the serial result"; return; }
  elif ! diff -q "$expected" "$out" >/dev/null; then
    bad "$label: differs from serial"; diff "$expected" "$out" | head -10; return
  fi
  local gpu cpu ser
  gpu=$(grep -c "parallel on .*(cuda0" "$log")
  ser=$(grep -c ": serial: " "$log")
  cpu=$(grep -c "runs on the CPU" "$log")
  ok "$label (loops on the GPU: $gpu, GPU-less loops: $cpu, serial: $ser$(grep -q 'failed on' "$log" && echo ', recovered a failure'))"
}

echo "== The CUDA path through NVRTC"
for args_file in "$B"/expected/*.args; do
  name=$(basename "$args_file" .args)
  IFS=';' read -ra sets <"$args_file"
  [ ${#sets[@]} -eq 0 ] && sets=("-")
  for i in "${!sets[@]}"; do
    a=${sets[$i]}
    [ "$a" = "-" ] && a=""
    exp="$B/expected/$name.$i.out"
    p="$B/bin/$name.clx"
    run_one "$name.$i.cuda" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda
    run_one "$name.$i.mixed" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda,cpu:3
    run_one "$name.$i.fault" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda,cpu:2 CLUSTRIX_FAULT=cuda0:0
    run_one "$name.$i.cyclic" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda,cpu:2 CLUSTRIX_SCHEDULE=cyclic CLUSTRIX_CHUNK_SIZE=97
    run_one "$name.$i.dynamic" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda,cpu:2 CLUSTRIX_SCHEDULE=dynamic CLUSTRIX_CHUNK_SIZE=61
    run_one "$name.$i.subchunks" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda CLUSTRIX_CUDA_MEMORY_LIMIT=48K CLUSTRIX_PINNED_STAGING_BYTES=16K
    run_one "$name.$i.unstaged" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda CLUSTRIX_PINNED_STAGING_BYTES=0
    if [ $IN_PLACE -eq 1 ]; then
      run_one "$name.$i.in-place" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda CLUSTRIX_PAGEABLE_ACCESS=on
      run_one "$name.$i.in-place-mixed" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda,cpu:3 CLUSTRIX_PAGEABLE_ACCESS=on
      run_one "$name.$i.in-place-fault" "$p" "$exp" "$a" CLUSTRIX_DEVICES=cuda,cpu:2 CLUSTRIX_PAGEABLE_ACCESS=on CLUSTRIX_FAULT=cuda0:0
    fi
  done
done
grep -h "sub-chunks" "$LOGS"/*.subchunks.log 2>/dev/null | head -3
env "${wide[@]}" CLUSTRIX_DEVICES=cuda CLUSTRIX_LOG=debug CLUSTRIX_CUDA_MEMORY_LIMIT=48K \
  CLUSTRIX_PINNED_STAGING_BYTES=16K "$B/bin/constructs.clx" 100003 >/dev/null 2>"$LOGS/constructs.debug.log"
if grep -q "sub-chunks" "$LOGS/constructs.debug.log"; then ok "sub-chunking happened under the memory limit"; else bad "no sub-chunks under the memory limit"; fi
grep -c "compiled .* with NVRTC" "$LOGS/constructs.debug.log" >/dev/null || true

echo "== Ahead-of-time kernels (nvcc)"
mkdir -p "$LOGS/nvcc"
# Built with --fmad=false, the kernels nvcc compiled are used and NVRTC is not needed; built
# with nvcc's default (fused multiply-adds), the runtime's probe rejects them and NVRTC compiles
# the kernel text: both must give the serial result.
for src in "$B"/src/*.cpp; do
  name=$(basename "$src" .cpp)
  for fmad in false true; do
    exe="$LOGS/nvcc/$name.fmad-$fmad"
    # shellcheck disable=SC2046
    if ! "$NVCC" -std=c++17 -O1 -x cu -arch=native --fmad=$fmad $(cat "$B/expected/$name.flags") \
      -I runtime/include "$src" -o "$exe" -L"$B/lib" -Xlinker -rpath,"$B/lib" -lclustrix_rt \
      >"$LOGS/nvcc/$name.$fmad.build.log" 2>&1; then
      bad "nvcc --fmad=$fmad builds $name"; tail -20 "$LOGS/nvcc/$name.$fmad.build.log"; continue
    fi
    IFS=';' read -ra sets <"$B/expected/$name.args"
    [ ${#sets[@]} -eq 0 ] && sets=("-")
    for i in "${!sets[@]}"; do
      a=${sets[$i]}
      [ "$a" = "-" ] && a=""
      if [ $fmad = false ]; then
        run_one "$name.$i.aot" "$exe" "$B/expected/$name.$i.out" "$a" CLUSTRIX_DEVICES=cuda,cpu:2 \
          CLUSTRIX_NVRTC_LIBRARY=/nonexistent/libnvrtc.so
      else
        run_one "$name.$i.aot-fmad" "$exe" "$B/expected/$name.$i.out" "$a" CLUSTRIX_DEVICES=cuda,cpu:2
      fi
    done
  done
done
if grep -q "is not used, as nvcc fused multiply-adds" "$LOGS"/*.aot-fmad.log; then
  ok "kernels nvcc built with fused multiply-adds are detected and replaced"
else
  bad "no fused multiply-add detected in the --fmad=true builds"
fi
"$NVCC" -x cu -E -dM /dev/null 2>/dev/null | sort >"$LOGS/macros.fmad-true"
"$NVCC" -x cu --fmad=false -E -dM /dev/null 2>/dev/null | sort >"$LOGS/macros.fmad-false"
echo "nvcc macros that --fmad=false changes:"; diff "$LOGS/macros.fmad-true" "$LOGS/macros.fmad-false"
# shellcheck disable=SC2016
env "${wide[@]}" CLUSTRIX_DEVICES=cuda CLUSTRIX_LOG=debug CLUSTRIX_NVRTC_LIBRARY=/nonexistent \
  "$LOGS/nvcc/constructs.fmad-false" >/dev/null 2>"$LOGS/aot.debug.log"
n=$(grep -c "compiled ahead of time by nvcc" "$LOGS/aot.debug.log")
[ "$n" -gt 0 ] && ok "ahead-of-time kernels used without NVRTC ($n)" || bad "no ahead-of-time kernel used"

if [ $BENCH -eq 1 ] && [ -x "$B/bin/BenchLoops" ]; then
  echo "== Benchmarks, GPU half"
  python3 bench/run.py --gpu-only --binary "$B/bin/BenchLoops" --devices-tool "$B/bin/clustrix-devices" \
    --reps 7 2>&1 | tee "$LOGS/bench.txt"
  cp bench/results/results.md "$LOGS/bench-results.md" 2>/dev/null || true
  for what in saxpy dot jacobi; do
    env CLUSTRIX_DEVICES=cuda CLUSTRIX_LOG=debug "$B/bin/BenchLoops" clustrix $what \
      $([ $what = jacobi ] && echo 1024 || echo 8000000) 3 2>&1 | grep -E "ms (allocating|computing)|median" | tail -3
  done
  # Staging packed by one thread against the default (up to four), interleaved, three times.
  for r in 1 2 3; do
    for pt in 1 0; do
      echo "saxpy 8000000, pack_threads=$pt: $(env CLUSTRIX_DEVICES=cuda CLUSTRIX_PACK_THREADS=$pt \
        "$B/bin/BenchLoops" clustrix saxpy 8000000 7 2>&1 | tail -1)" | tee -a "$LOGS/pack-threads.txt"
    done
  done
fi
if [ $BENCH -eq 1 ] && [ -x "$B/bin/BenchIter" ]; then
  echo "== Iterative work against hand-written CUDA that keeps its data resident"
  hw="$LOGS/HandWritten"
  if "$NVCC" -O2 -std=c++17 -arch=native bench/gpu/HandWritten.cu -o "$hw" >"$LOGS/hw.build.log" 2>&1; then
    "$hw" bandwidth $((64 << 20)) 7 | tee "$LOGS/bandwidth.txt"
    # Jacobi, 1024 x 1024, 1,000 steps of two sweeps, the result read back: three runs each.
    ser=$("$B/bin/BenchIter" serial jacobi-steps 1024 1000)
    echo "jacobi serial: $ser"
    # jacobi_runs LABEL FILE ENV...: three whole runs against serial, then per step in steady
    # state (the difference of 1,010 and 10 steps, for both programs: whatever each pays once,
    # the first copies and kernel loads included, cancels out), Clustrix run with ENV.
    jacobi_runs() {
      local label=$1 file=$2
      shift 2
      for r in 1 2 3; do
        echo "jacobi hand-written: $("$hw" jacobi-steps 1024 1000)"
        clx=$(env CLUSTRIX_DEVICES=cuda "$@" "$B/bin/BenchIter" clustrix jacobi-steps 1024 1000)
        echo "jacobi clustrix$label: $clx"
        [ "$(echo "$clx" | awk '{print $4}')" = "$(echo "$ser" | awk '{print $4}')" ] &&
          ok "iterative jacobi on the GPU$label equals serial" ||
          bad "iterative jacobi on the GPU$label differs from serial"
      done
      for r in 1 2 3; do
        for st in 10 1010; do
          echo "hw $st $("$hw" jacobi-steps 1024 $st)" >> "$file"
          echo "clx $st $(env CLUSTRIX_DEVICES=cuda "$@" "$B/bin/BenchIter" clustrix jacobi-steps 1024 $st)" >> "$file"
        done
      done
      echo "per step$label:"
      python3 bench/resident/steps.py "$file" 10 1010
    }
    jacobi_runs "" "$LOGS/jacobi-steps.txt"
    # The generated sweep kernel's GPU time alone against the hand-written one (CUDA events,
    # launches back to back): whether a step's gap is the kernel or the host's work per call.
    kfile=$(grep -l "b\[i \* m + j\] = 0.25" "$B"/kernels/BenchIter/*.cu 2>/dev/null | head -1)
    if [ -n "$kfile" ] && grep -q "__clx_hi, double \*b, double \*a, __clx_iv0 __clx_init0" "$kfile"; then
      kname=$(basename "$kfile" .cu)
      if "$NVCC" -O2 -std=c++17 -arch=native -DCLUSTRIX_KERNEL_FILE="\"$kfile\"" \
           -DCLUSTRIX_KERNEL_NAME="$kname" bench/gpu/KernelTime.cu -o "$LOGS/KernelTime" \
           >"$LOGS/kerneltime.build.log" 2>&1; then
        for r in 1 2 3; do
          out=$("$LOGS/KernelTime" 1024 2000) && ok "generated Jacobi kernel equals the hand-written one" ||
            bad "generated Jacobi kernel differs from the hand-written one"
          echo "kernel time, 1024 x 1024, 2000 sweeps: $out"
        done
      else
        bad "nvcc builds bench/gpu/KernelTime.cu"; tail -20 "$LOGS/kerneltime.build.log"
      fi
    else
      echo "KernelTime skipped: no generated sweep kernel of the expected signature in the bundle"
    fi
    # Where a resident sweep's time goes, where Nsight Systems is installed: kernels and API calls.
    NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
    if [ -n "$NSYS" ]; then
      for who in clx hw; do
        if [ $who = clx ]; then cmd=(env CLUSTRIX_DEVICES=cuda "$B/bin/BenchIter" clustrix jacobi-steps 1024 200)
        else cmd=("$hw" jacobi-steps 1024 200); fi
        timeout 120 "$NSYS" profile -o "$LOGS/nsys-$who" --force-overwrite true --stats=true "${cmd[@]}" \
          >"$LOGS/nsys-$who.txt" 2>&1
        echo "nsys, $who, jacobi 200 steps:"
        grep -A8 -E "cuda_gpu_kern_sum|cuda_api_sum" "$LOGS/nsys-$who.txt" | cut -c1-200
      done
    else
      echo "no nsys on this machine"
    fi
    echo "jacobi clustrix, residency off, 100 steps: $(env CLUSTRIX_DEVICES=cuda CLUSTRIX_RESIDENCY=off \
      "$B/bin/BenchIter" clustrix jacobi-steps 1024 100)"
    # The same loops on the host's memory in place (pageable_access; the driver migrates pages):
    # against the device data table, whole runs and per step in steady state.
    [ $IN_PLACE -eq 1 ] &&
      jacobi_runs ", pageable_access on" "$LOGS/jacobi-in-place.txt" CLUSTRIX_PAGEABLE_ACCESS=on
    # Stream: the kernels alone (hand-written), the loops called from a timed host loop
    # (Clustrix, no scope), and the loops in one time-step loop (resident): 20 and 2,020 steps,
    # whose difference is 2,000 steps of 5 arrays of 2^28 bytes; every element checked.
    echo "stream hand-written: $("$hw" stream $((1 << 25)) 10)"
    ser=$("$B/bin/BenchIter" serial stream $((1 << 25)) 10)
    clx=$(env CLUSTRIX_DEVICES=cuda "$B/bin/BenchIter" clustrix stream $((1 << 25)) 10)
    echo "stream serial: $ser; clustrix, copied every call: $clx"
    [ "$(echo "$clx" | awk '{print $6}')" = "$(echo "$ser" | awk '{print $6}')" ] &&
      ok "stream on the GPU equals serial" || bad "stream differs from serial"
    for r in 1 2 3; do
      for st in 20 2020; do
        out=$(env CLUSTRIX_DEVICES=cuda "$B/bin/BenchIter" clustrix stream-steps $((1 << 25)) $st)
        echo "clx $st $out" | tee -a "$LOGS/stream-steps.txt"
        echo "$out" | grep -q "elements_wrong 0$" && ok "resident stream, $st steps, every element right" ||
          bad "resident stream, $st steps, wrong elements"
      done
    done
    # Five arrays of 2^28 bytes a step (copy reads and writes two, triad three).
    python3 bench/resident/steps.py "$LOGS/stream-steps.txt" 20 2020 --bytes-per-step $((5 * 8 << 25))
    if [ $IN_PLACE -eq 1 ]; then
      for r in 1 2 3; do
        for st in 20 2020; do
          out=$(env CLUSTRIX_DEVICES=cuda CLUSTRIX_PAGEABLE_ACCESS=on "$B/bin/BenchIter" clustrix stream-steps $((1 << 25)) $st)
          echo "clx $st $out" | tee -a "$LOGS/stream-in-place.txt"
          echo "$out" | grep -q "elements_wrong 0$" && ok "stream in place, $st steps, every element right" ||
            bad "stream in place, $st steps, wrong elements"
        done
      done
      echo "stream, pageable_access on:"
      python3 bench/resident/steps.py "$LOGS/stream-in-place.txt" 20 2020 --bytes-per-step $((5 * 8 << 25))
      for r in 1 2 3; do
        echo "saxpy 8000000, pageable_access on: $(env CLUSTRIX_DEVICES=cuda CLUSTRIX_PAGEABLE_ACCESS=on \
          "$B/bin/BenchLoops" clustrix saxpy 8000000 7 2>&1 | tail -1)"
        echo "saxpy 8000000, pageable_access off: $(env CLUSTRIX_DEVICES=cuda \
          "$B/bin/BenchLoops" clustrix saxpy 8000000 7 2>&1 | tail -1)"
      done
    fi
    # The copies of a resident run (three ranges of 2^28 bytes in once, two back), timed from
    # the trace: a resident range's first copy goes from the user's (pageable) memory.
    for r in 1 2 3; do
      env CLUSTRIX_DEVICES=cuda CLUSTRIX_TRACE="$LOGS/stream-trace.$r.json" "$B/bin/BenchIter" \
        clustrix stream-steps $((1 << 25)) 20 >/dev/null
      python3 bench/resident/copies.py "$LOGS/stream-trace.$r.json"
      # Staging filled with cached stores (pack_streaming off), and by 16 threads, against the
      # defaults above (streaming stores, up to 8 threads).
      for variant in CLUSTRIX_PACK_STREAMING=off CLUSTRIX_PACK_THREADS=16; do
        out=$(env CLUSTRIX_DEVICES=cuda "$variant" CLUSTRIX_TRACE="$LOGS/stream-trace.$variant.$r.json" \
          "$B/bin/BenchIter" clustrix stream-steps $((1 << 25)) 20)
        echo "$out" | grep -q "elements_wrong 0$" && ok "resident stream, $variant, every element right" ||
          bad "resident stream, $variant, wrong elements"
        echo "$variant:"
        python3 bench/resident/copies.py "$LOGS/stream-trace.$variant.$r.json"
      done
      # The same copies with their pages locked for each (host_register), and what locking
      # costs on its own (hand-written, 16 MiB to 1 GiB).
      out=$(env CLUSTRIX_DEVICES=cuda CLUSTRIX_HOST_REGISTER=on \
        CLUSTRIX_TRACE="$LOGS/stream-trace-registered.$r.json" "$B/bin/BenchIter" \
        clustrix stream-steps $((1 << 25)) 20)
      echo "$out" | grep -q "elements_wrong 0$" && ok "resident stream, pages locked for copies, every element right" ||
        bad "resident stream, pages locked for copies, wrong elements"
      echo "host_register on:"
      python3 bench/resident/copies.py "$LOGS/stream-trace-registered.$r.json"
      # Arrays the program page-locked itself (cudaHostRegister): copied straight, no staging.
      out=$(env CLUSTRIX_DEVICES=cuda BENCHITER_LOCK=1 CLUSTRIX_TRACE="$LOGS/stream-trace-locked.$r.json" \
        "$B/bin/BenchIter" clustrix stream-steps $((1 << 25)) 20)
      echo "$out" | grep -q "elements_wrong 0$" && ok "resident stream, arrays locked by the program, every element right" ||
        bad "resident stream, arrays locked by the program, wrong elements"
      echo "arrays locked by the program:"
      # Their copies in are only queued: the trace times each on the device (copy-device).
      python3 bench/resident/copies.py "$LOGS/stream-trace-locked.$r.json" |
        tee "$LOGS/stream-copies-locked.$r.txt"
      grep -q "^  H2D: [0-9]* queued copies, timed on the device" "$LOGS/stream-copies-locked.$r.txt" &&
        python3 test/EndToEnd/Inputs/trace-check.py "$LOGS/stream-trace-locked.$r.json" >/dev/null &&
        ok "resident stream, locked arrays: the queued copies in are timed on the device" ||
        bad "resident stream, locked arrays: queued copies in without their time on the device"
    done
    # Whether the driver answers for pageable memory as for page-locked memory (it should not;
    # on a machine with HMM it might): then the runtime would copy pageable arrays directly.
    env CLUSTRIX_DEVICES=cuda CLUSTRIX_LOG=debug "$B/bin/BenchIter" clustrix stream-steps $((1 << 22)) 2 \
      >/dev/null 2>"$LOGS/stream-pageable.debug.log"
    if grep -q "copies from page-locked memory of the program go directly" "$LOGS/stream-pageable.debug.log"; then
      echo "note: the driver reports the program's pageable arrays as host memory it knows: they are copied directly, not staged"
    else
      ok "pageable arrays are staged, not taken for page-locked ones"
    fi
    for mib in 16 64 256 1024; do
      echo "register, hand-written: $("$hw" register $((mib << 17)) 3)"
    done
  else
    bad "nvcc builds bench/gpu/HandWritten.cu"; tail -20 "$LOGS/hw.build.log"
  fi
fi
echo
echo "gpu-check: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
