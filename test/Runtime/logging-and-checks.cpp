// Logging levels and the run-time checks: silent by default; at info exactly one line per loop
// naming file:line (`parallel on N devices` or `serial:` with the reason); at debug the plan;
// aliasing regions and overlapping write boxes keep a loop serial with the reason; interleaved
// 2-D write boxes (overlapping hulls, disjoint elements) still go wide.
//
// RUN: %cxx -std=c++17 -O1 -I%clustrix_rt_include %s -o %t %clustrix_rt_link -pthread
// RUN: env CLUSTRIX_DEVICES=cpu:3 CLUSTRIX_SERIAL_THRESHOLD=0 %t 2>&1 | FileCheck %s --implicit-check-not=clustrix:
// RUN: env CLUSTRIX_DEVICES=cpu:3 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info %t 2>&1 | FileCheck %s --check-prefixes=CHECK,INFO
// RUN: env CLUSTRIX_DEVICES=cpu:3 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=debug %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG
// RUN: env CLUSTRIX_DEVICES=cpu:3 CLUSTRIX_LOG=info %t 2>&1 | FileCheck %s --check-prefix=THRESH
// RUN: env CLUSTRIX_DEVICES=cpu:3 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_LOG=info CLUSTRIX_AUTO_GPU_PARALLEL=false %t 2>&1 | FileCheck %s --check-prefix=OFF
#include "Inputs/GeneratedLoops.h"

using namespace clustrix::rt;

int main() {
  RunStatus St;
  bool Ok = gen::fusedLoop(900, Schedule::Block, &St);
  std::fprintf(stderr, "fused: %d %s\n", Ok, gen::statusName(St));
  Ok = gen::aliasLoop(600, 5, &St); // dst overlaps src
  std::fprintf(stderr, "alias: %d %s\n", Ok, gen::statusName(St));
  Ok = gen::aliasLoop(600, 700, &St); // disjoint
  std::fprintf(stderr, "apart: %d %s\n", Ok, gen::statusName(St));
  Ok = gen::overlappingWrites(600, &St);
  std::fprintf(stderr, "overlap: %d %s\n", Ok, gen::statusName(St));
  Ok = gen::columnLoop(50, 120, Schedule::Cyclic, &St);
  std::fprintf(stderr, "columns: %d %s\n", Ok, gen::statusName(St));
  return 0;
}
// INFO: clustrix: {{.*}}GeneratedLoops.h:{{[0-9]+}}: parallel on 3 devices (cpu0, cpu1, cpu2): 900 iterations, block schedule, 3 chunks, {{[0-9.]+}} ms
// DEBUG: clustrix: {{.*}}GeneratedLoops.h:[[L:[0-9]+]]: plan: 3 chunks, block schedule, 3 devices
// DEBUG-NEXT: clustrix: {{.*}}GeneratedLoops.h:[[L]]:   chunk 0 [0, 300) on cpu0
// DEBUG-NEXT: clustrix: {{.*}}GeneratedLoops.h:[[L]]:   chunk 1 [300, 600) on cpu1
// DEBUG-NEXT: clustrix: {{.*}}GeneratedLoops.h:[[L]]:   chunk 2 [600, 900) on cpu2
// DEBUG-NEXT: clustrix: {{.*}}GeneratedLoops.h:[[L]]: parallel on 3 devices
// CHECK: fused: 1 wide
// INFO: clustrix: {{.*}}GeneratedLoops.h:{{[0-9]+}}: serial: regions 'dst' and 'src' may alias: their address ranges overlap and 'dst' is written
// CHECK: alias: 1 serial
// INFO: clustrix: {{.*}}: parallel on 3 devices
// CHECK: apart: 1 wide
// INFO: clustrix: {{.*}}GeneratedLoops.h:{{[0-9]+}}: serial: write boxes of 'out' overlap between chunks {{[0-9]+}} and {{[0-9]+}}
// CHECK: overlap: 1 serial
// INFO: clustrix: {{.*}}: parallel on 3 devices (cpu0, cpu1, cpu2): 120 iterations, cyclic schedule
// CHECK: columns: 1 wide
// THRESH: serial: 900 iterations x 4 operations is below serial_threshold (32768)
// THRESH: fused: 1 serial
// OFF: serial: auto_gpu_parallel is off in the configuration
// OFF: fused: 1 serial
