#!/usr/bin/env bash
# Packs what a GPU machine without clang needs to check the CUDA path: the runtime and
# clustrix-devices with their non-system libraries, the test programs built here through the
# plugin, their serial builds' outputs, the rewritten sources nvcc compiles there (ahead-of-time
# kernels; C sources are built as C and use NVRTC alone), and the benchmark binary.
# scripts/gpu-check.sh runs it there.
#
#   scripts/gpu-bundle.sh [build-dir] [bundle-dir]      (defaults: build, .gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(realpath "${1:-build}")
OUT=${2:-.gpu}
CXX=${CXX:-clang++-19}
for f in bin/clustrix++ bin/clustrix-rewrite bin/clustrix-devices lib/libclustrix_rt.so; do
  [ -e "$BUILD/$f" ] || { echo "gpu-bundle: $BUILD/$f not found; build first" >&2; exit 1; }
done
rm -rf "$OUT"
mkdir -p "$OUT"/{bin,lib,lib/compat,src,expected}
OUT=$(realpath "$OUT")

# The runtime, the device lister, and every library they need that a CUDA image may lack.
cp -a "$BUILD"/lib/libclustrix_rt.so* "$OUT/lib/"
cp "$BUILD/bin/clustrix-devices" "$OUT/bin/"
ldd "$BUILD/bin/clustrix-devices" "$BUILD/lib/libclustrix_rt.so" |
  awk '/=> \// {print $1, $3}' | sort -u | while read -r name path; do
    case $name in
      libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libclustrix_rt*) ;;
      libstdc++.so*|libgcc_s.so*) cp -L "$path" "$OUT/lib/compat/$name" ;;
      *) cp -L "$path" "$OUT/lib/$name" ;;
    esac
  done

link=(-L"$BUILD/lib" -Wl,-rpath,'$ORIGIN/../lib' -lclustrix_rt -pthread)
CC=${CC:-clang-19}
serial() { # serial NAME SOURCE [flags...]
  local name=$1 src=$2; shift 2
  if [[ $src == *.c ]]; then
    "$CC" -std=c99 -O1 -Wno-unknown-attributes "$@" "$src" -o "$OUT/bin/$name.serial"
  else
    "$CXX" -std=c++17 -O1 -Wno-unknown-attributes "$@" "$src" -o "$OUT/bin/$name.serial"
  fi
}
through() { # through NAME SOURCE [flags...]: the plugin build, and the rewritten source for nvcc
  local name=$1 src=$2; shift 2
  if [[ $src == *.c ]]; then # C: built as C, kernels through NVRTC only (nvcc compiles C++)
    "$BUILD/bin/clustrix++" -std=c99 -O1 --clustrix-remarks=off "$@" "$src" -o "$OUT/bin/$name.clx" \
      -Wl,-rpath,'$ORIGIN/../lib'
    return
  fi
  "$BUILD/bin/clustrix++" -O1 --clustrix-remarks=off "$@" "$src" -o "$OUT/bin/$name.clx" \
    -Wl,-rpath,'$ORIGIN/../lib'
  "$BUILD/bin/clustrix-rewrite" --remarks=off "$src" -o "$OUT/src/$name.cpp" -- -std=c++17 "$@"
}

# name | source | argument sets, ';' between them, '-' for none | extra compile flags
while IFS='|' read -r name src args flags; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  serial "$name" "$src" $flags
  # shellcheck disable=SC2086
  through "$name" "$src" $flags
  echo "$args" >"$OUT/expected/$name.args"
  echo "$flags" >"$OUT/expected/$name.flags"
  i=0
  IFS=';' read -ra sets <<<"$args"
  for a in "${sets[@]}"; do
    [ "$a" = "-" ] && a=""
    # shellcheck disable=SC2086
    "$OUT/bin/$name.serial" $a >"$OUT/expected/$name.$i.out"
    i=$((i + 1))
  done
done <<'EOF'
constructs|test/EndToEnd/Inputs/constructs.cpp|3001;100003;7||
demo|examples/demo/main.cpp|120 80;1200 800|
arc-grids|examples/arc-grids/main.cpp|40;800|
dot-norm|examples/dot-norm/main.cpp|5003;10000000|
jacobi|examples/jacobi/main.cpp|24 15;256 200|
matrix-traces|examples/matrix-traces/main.cpp|-|-DSIZE=12
monte-carlo|examples/monte-carlo/main.cpp|301;200000|
refused-loop|examples/refused-loop/main.cpp|101 33|
privatization|test/EndToEnd/Inputs/privatization.cpp|-|
exact|test/EndToEnd/Inputs/exact.cpp|-|
members|test/EndToEnd/Inputs/members.cpp|-|
c-units|test/EndToEnd/Inputs/c-units.c|-|
gpu-forms|test/EndToEnd/Inputs/gpu-forms.cpp|-|
element-methods|test/EndToEnd/Inputs/element-methods.cpp|-|
thread-state|test/EndToEnd/Inputs/thread-state.cpp|-|
residency|test/EndToEnd/Inputs/residency.cpp|64 6;512 50|
pageable|test/EndToEnd/Inputs/pageable.cpp|all 64 4;all 1024 20|
namespace-types|test/EndToEnd/Inputs/namespace-types.cpp|-|
member-types|test/EndToEnd/Inputs/member-types.cpp|-|
element-references|test/EndToEnd/Inputs/element-references.cpp|-|
EOF
CONSTRUCTS_EXACT=1 "$OUT/bin/constructs.serial" >"$OUT/expected/constructs.exact.out"

# The benchmark binary (Clustrix and serial variants; OpenMP linked in as on the CPU side).
# -fno-math-errno, as hand-written CUDA has no errno: the paths loop's log, sqrt and exp then
# have a GPU form (docs/diagnostics.md). Every variant is built with it.
"$BUILD/bin/clustrix++" -O2 -fno-math-errno --clustrix-remarks=off -c bench/loops/BenchLoops.cpp \
  -o "$OUT/BenchLoops.o"
"$CXX" -std=c++17 -O2 -fno-math-errno -fopenmp -c bench/loops/BenchOmp.cpp -o "$OUT/BenchOmp.o"
"$CXX" -fopenmp "$OUT/BenchLoops.o" "$OUT/BenchOmp.o" -o "$OUT/bin/BenchLoops" "${link[@]}"
cp -L "$("$CXX" -print-file-name=libomp.so.5)" "$OUT/lib/" 2>/dev/null ||
  cp -L /usr/lib/llvm-19/lib/libomp.so.5 "$OUT/lib/"
# Iterative work (bench/resident): the loops that residency is for.
"$BUILD/bin/clustrix++" -O2 --clustrix-remarks=off bench/resident/BenchIter.cpp -o "$OUT/bin/BenchIter" \
  -Wl,-rpath,'$ORIGIN/../lib'
# Its kernels as files, for bench/gpu/KernelTime.cu (the generated sweep's GPU time alone).
mkdir -p "$OUT/kernels/BenchIter"
"$BUILD/bin/clustrix-rewrite" --remarks=off --kernels-dir "$OUT/kernels/BenchIter" \
  bench/resident/BenchIter.cpp -o "$OUT/kernels/BenchIter.rewritten.cpp" -- -std=c++17
rm -f "$OUT"/*.o
echo "gpu-bundle: $(du -sh "$OUT" | cut -f1) in $OUT"
