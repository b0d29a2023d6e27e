// The CPU path with 1 to 8 workers and every schedule: results (array writes, an integer sum,
// a max, an ordered append) equal the serial loop's, and the loop goes wide from 2 workers on.
//
// RUN: %cxx -std=c++17 -O1 -I%clustrix_rt_include %s -o %t %clustrix_rt_link -pthread
// RUN: env CLUSTRIX_DEVICES=cpu:1 CLUSTRIX_SERIAL_THRESHOLD=0 %t | FileCheck %s --check-prefix=ONE
// RUN: env CLUSTRIX_DEVICES=cpu:2 CLUSTRIX_SERIAL_THRESHOLD=0 %t | FileCheck %s --check-prefix=WIDE
// RUN: env CLUSTRIX_DEVICES=cpu:3 CLUSTRIX_SERIAL_THRESHOLD=0 %t | FileCheck %s --check-prefix=WIDE
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 %t | FileCheck %s --check-prefix=WIDE
// RUN: env CLUSTRIX_DEVICES=cpu:5 CLUSTRIX_SERIAL_THRESHOLD=0 %t | FileCheck %s --check-prefix=WIDE
// RUN: env CLUSTRIX_DEVICES=cpu:6 CLUSTRIX_SERIAL_THRESHOLD=0 %t | FileCheck %s --check-prefix=WIDE
// RUN: env CLUSTRIX_DEVICES=cpu:7 CLUSTRIX_SERIAL_THRESHOLD=0 %t | FileCheck %s --check-prefix=WIDE
// RUN: env CLUSTRIX_DEVICES=cpu:8 CLUSTRIX_SERIAL_THRESHOLD=0 %t | FileCheck %s --check-prefix=WIDE
// RUN: env CLUSTRIX_DEVICES=cpu:8 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_CHUNK_SIZE=1 %t | FileCheck %s --check-prefix=WIDE
// RUN: env CLUSTRIX_DEVICES=cpu:3 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_MIN_ITERS_PER_DEVICE=1000000 %t | FileCheck %s --check-prefix=ONE
#include "Inputs/GeneratedLoops.h"

using namespace clustrix::rt;

int main() {
  const Schedule Scheds[] = {Schedule::Default, Schedule::Block, Schedule::Cyclic,
                             Schedule::Dynamic};
  const char *Names[] = {"default", "block", "cyclic", "dynamic"};
  // Trip counts around the chunk and worker counts, uneven ones included.
  const int Sizes[] = {61, 97, 1000, 4099};
  for (int S = 0; S < 4; ++S) {
    bool AllOk = true, AnyWide = false, AllWide = true;
    for (int N : Sizes) {
      RunStatus St;
      AllOk &= gen::fusedLoop(N, Scheds[S], &St);
      AnyWide |= St == RunStatus::Done;
      AllWide &= St == RunStatus::Done;
      AllOk &= gen::columnLoop(37, N / 10 + 2, Scheds[S], &St);
    }
    std::printf("%s: %s, %s\n", Names[S], AllOk ? "equal to serial" : "DIFFERENT",
                AllWide ? "all wide" : AnyWide ? "some wide" : "all serial");
  }
  return 0;
}
// ONE: default: equal to serial, all serial
// ONE: block: equal to serial, all serial
// ONE: cyclic: equal to serial, all serial
// ONE: dynamic: equal to serial, all serial
// WIDE: default: equal to serial, all wide
// WIDE: block: equal to serial, all wide
// WIDE: cyclic: equal to serial, all wide
// WIDE: dynamic: equal to serial, all wide
