// CLUSTRIX_FAULT makes a chunk fail on a device: the chunk is re-run elsewhere (or on the host
// when every device is retired), the device is retired for the loop, the result stays the
// serial one, and a warning names the loop, the chunk and the device.
//
// RUN: %cxx -std=c++17 -O1 -I%clustrix_rt_include %s -o %t %clustrix_rt_link -pthread
// Each device at its own chunk position under the block schedule (chunk J runs on device J):
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info CLUSTRIX_FAULT=0:0 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,F00
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info CLUSTRIX_FAULT=1:1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,F11
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info CLUSTRIX_FAULT=2:2 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,F22
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info CLUSTRIX_FAULT=3:3 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,F33
// A device named, failing every chunk it gets; chunk 0 failing on every device (all retire
// one by one, the host finishes); every chunk failing everywhere:
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info 'CLUSTRIX_FAULT=cpu2:*' %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DEAD2
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info 'CLUSTRIX_FAULT=*:0' %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ALL
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info 'CLUSTRIX_FAULT=*:*' %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ALL
// Two workers, the last chunk; eight workers, a middle device and chunk:
// RUN: env CLUSTRIX_DEVICES=cpu:2 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info CLUSTRIX_FAULT=1:1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: env CLUSTRIX_DEVICES=cpu:8 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info CLUSTRIX_FAULT=cpu5:5,6:14 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,EIGHT
// A malformed value is reported once and injects nothing:
// RUN: env CLUSTRIX_DEVICES=cpu:4 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_FAULT=gpu9 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,BAD
#include "Inputs/GeneratedLoops.h"

using namespace clustrix::rt;

int main() {
  const Schedule Scheds[] = {Schedule::Block, Schedule::Cyclic, Schedule::Dynamic};
  const char *Names[] = {"block", "cyclic", "dynamic"};
  for (int S = 0; S < 3; ++S) {
    RunStatus St;
    bool Ok = gen::fusedLoop(1000, Scheds[S], &St);
    std::fprintf(stderr, "%s: %s, %s\n", Names[S], Ok ? "equal to serial" : "DIFFERENT",
                 gen::statusName(St));
  }
  return 0;
}
// Checks of the first loop (block schedule), then of the second (cyclic), then the third.
// F00: clustrix: warning: {{.*}}GeneratedLoops.h:[[L:[0-9]+]]: chunk 0 [0, 250) failed on cpu0: injected fault (CLUSTRIX_FAULT); cpu0 is retired for this loop and the chunk is re-run elsewhere
// F00: clustrix: {{.*}}GeneratedLoops.h:[[L]]: parallel on 4 devices (cpu0, cpu1, cpu2, cpu3): 1000 iterations, block schedule, 4 chunks, {{.*}} ms; 1 chunk failure(s) recovered, retired: cpu0
// F11: chunk 1 [250, 500) failed on cpu1: injected fault
// F11: block schedule, {{.*}} retired: cpu1
// F22: chunk 2 [500, 750) failed on cpu2: injected fault
// F22: block schedule, {{.*}} retired: cpu2
// F33: chunk 3 [750, 1000) failed on cpu3: injected fault
// F33: block schedule, {{.*}} retired: cpu3
// DEAD2: chunk 2 [500, 750) failed on cpu2
// DEAD2: block schedule, {{.*}} retired: cpu2
// ALL: block schedule, 4 chunks, {{.*}} retired: cpu0, cpu1, cpu2, cpu3
// TWO: chunk 1 [500, 1000) failed on cpu1
// TWO: parallel on 2 devices (cpu0, cpu1): 1000 iterations, block schedule, 2 chunks, {{.*}}; 1 chunk failure(s) recovered, retired: cpu1
// EIGHT: chunk 5 [625, 750) failed on cpu5
// EIGHT: block schedule, {{.*}} retired: cpu5
// BAD: clustrix: error: CLUSTRIX_FAULT: 'gpu9' is not DEVICE:CHUNK (no fault is injected)
// BAD-NOT: failed on
// CHECK: block: equal to serial, wide
// F11: chunk 1 [63, 126) failed on cpu1
// F11: cyclic schedule, 16 chunks, {{.*}} retired: cpu1
// DEAD2: chunk 2 [126, 189) failed on cpu2
// DEAD2: cyclic schedule, 16 chunks, {{.*}}; 1 chunk failure(s) recovered, retired: cpu2
// ALL: cyclic schedule, 16 chunks, {{.*}} retired: cpu0, cpu1, cpu2, cpu3
// EIGHT-DAG: chunk 5 [160, 192) failed on cpu5
// EIGHT-DAG: chunk 14 [448, 480) failed on cpu6
// EIGHT: cyclic schedule, 32 chunks, {{.*}}; 2 chunk failure(s) recovered, retired: cpu5, cpu6
// CHECK: cyclic: equal to serial, wide
// BAD-NOT: failed on
// CHECK: dynamic: equal to serial, wide
