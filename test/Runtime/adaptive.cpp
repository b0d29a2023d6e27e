// The adaptive decision per loop site: a loop below serial_threshold that could go wide is
// timed serial and wide in turn, and the faster mode is kept; the info line says what was
// measured. The results equal the serial loop's whichever mode ran. A site remembers its
// choice per trip-count class: a second trip count is measured on its own. With adaptive off
// (or serial_threshold 0), the static decision stands and nothing is measured.
//
// REQUIRES: compiler
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clustrix++ -O1 --clustrix-remarks=off %s -o %t/clx
// RUN: env CLUSTRIX_DEVICES=cpu:2 CLUSTRIX_LOG=info %t/clx 2>&1 | FileCheck %s
// RUN: env CLUSTRIX_DEVICES=cpu:2 CLUSTRIX_LOG=info CLUSTRIX_ADAPTIVE=off %t/clx 2>&1 | FileCheck %s --check-prefix=OFF --implicit-check-not=measur
// RUN: env CLUSTRIX_DEVICES=cpu:1 CLUSTRIX_LOG=info %t/clx 2>&1 | FileCheck %s --check-prefix=ONE --implicit-check-not=measur
#include <cmath>
#include <cstdio>
#include <vector>

// Several microseconds serially and below serial_threshold: the static decision is serial, no
// shortcut applies, and a round measures both modes.
static double step(std::vector<double> &A, int N) {
  double *a = A.data();
  double S = 0;
  [[cluster::gpu_parallel(reduce(+: S))]]
  for (int i = 0; i < N; ++i) {
    a[i] = std::sqrt(a[i] * a[i] + 1.0) - 0.5;
    S += a[i];
  }
  return S;
}

int main() {
  std::vector<double> A(4000, 0.25);
  double Total = 0;
  for (int Call = 0; Call < 20; ++Call)
    Total += step(A, 1500);
  for (int Call = 0; Call < 20; ++Call)
    Total += step(A, 4000);
  std::printf("total %.3f\n", Total);
  return 0;
}
// 1500 iterations are below serial_threshold: the first round leads with serial, then the modes
// alternate in blocks of three calls; the line of the first call after the round names the
// choice and the medians it was made from.
// CHECK-COUNT-3: adaptive.cpp:23: serial: 1500 iterations x {{[0-9]+}} operations is below serial_threshold (32768); measuring serial against 2 devices
// CHECK-NEXT: adaptive.cpp:23: parallel on 2 devices (cpu0, cpu1): 1500 iterations, block schedule, 2 chunks, {{[0-9.]+}} ms; measuring wide against serial
// CHECK:      adaptive.cpp:23: {{serial: measured [0-9.]+ .s serial, [0-9.]+ .s on 2 devices(, less than 5 % faster)?$|parallel on 2 devices .*; measured [0-9.]+ .s on 2 devices, [0-9.]+ .s serial$}}
// 4000 iterations are a new trip-count class, above the threshold: measured anew, wide first.
// CHECK:      adaptive.cpp:23: parallel on 2 devices (cpu0, cpu1): 4000 iterations, block schedule, 2 chunks, {{[0-9.]+}} ms; measuring wide against serial
// CHECK:      adaptive.cpp:23: {{serial: measured [0-9.]+ .s serial, [0-9.]+ .s on 2 devices(, less than 5 % faster)?$|parallel on 2 devices .*; measured [0-9.]+ .s on 2 devices(, [0-9.]+ .s serial|, long enough that a launch costs little)$}}
// CHECK:      total
// OFF-COUNT-20: adaptive.cpp:23: serial: 1500 iterations x {{[0-9]+}} operations is below serial_threshold (32768){{$}}
// OFF-COUNT-20: adaptive.cpp:23: parallel on 2 devices (cpu0, cpu1): 4000 iterations, block schedule, 2 chunks, {{[0-9.]+}} ms{{$}}
// OFF:          total
// ONE-COUNT-20: adaptive.cpp:23: serial: 1500 iterations x {{[0-9]+}} operations is below serial_threshold (32768){{$}}
// ONE-COUNT-20: adaptive.cpp:23: serial: only one CPU worker is available{{$}}
// ONE:          total
