// The configuration file is found through CLUSTRIX_CONFIG, the environment overrides it and
// configure() overrides both. A bad file is reported once, naming file:line:column, and the
// program runs on with the defaults.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %cxx -std=c++17 -O1 -I%clustrix_rt_include -I%S %t/main.cpp -o %t/prog %clustrix_rt_link -pthread
// RUN: env CLUSTRIX_CONFIG=%t/good.yml %t/prog 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: env CLUSTRIX_CONFIG=%t/good.yml CLUSTRIX_DEVICES=cpu:3 %t/prog 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: env CLUSTRIX_CONFIG=%t/good.yml CLUSTRIX_DEVICES=cpu:3 %t/prog configure 2>&1 | FileCheck %s --check-prefix=PROGRAM
// RUN: env CLUSTRIX_CONFIG=%t/bad.yml CLUSTRIX_LOG=info CLUSTRIX_DEVICES=cpu:2 %t/prog 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env CLUSTRIX_CONFIG=%t/missing.yml CLUSTRIX_LOG=info %t/prog 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env CLUSTRIX_LOG=chatty %t/prog 2>&1 | FileCheck %s --check-prefix=BADENV

//--- good.yml
# Two CPU workers, every loop logged, no serial threshold.
devices: cpu:2
log_level: info
serial_threshold: 0
min_iters_per_device: 10
default_schedule: dynamic
chunk_size: 50
pinned_staging_bytes: 16M
hosts:
  - name: gpu1
    address: 10.0.0.1

//--- bad.yml
devices: cpu:2
serial_threshold: 0
min_iters_per_devise: 10

//--- main.cpp
#include "Inputs/GeneratedLoops.h"
#include "clustrix/Config.h"

#include <cstring>

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "configure") == 0)
    clustrix::configure("devices", "cpu:4");
  clustrix::rt::RunStatus St;
  bool Ok = gen::fusedLoop(1000, clustrix::rt::Schedule::Default, &St);
  Ok &= gen::fusedLoop(1000, clustrix::rt::Schedule::Default, &St);
  std::fprintf(stderr, "result: %d %s\n", Ok, gen::statusName(St));
  return 0;
}

// GOOD: parallel on 2 devices (cpu0, cpu1): 1000 iterations, dynamic schedule, 20 chunks
// GOOD: result: 1 wide
// ENV: parallel on 3 devices (cpu0, cpu1, cpu2): 1000 iterations, dynamic schedule
// PROGRAM: parallel on 4 devices (cpu0, cpu1, cpu2, cpu3): 1000 iterations, dynamic schedule
// BAD: clustrix: error: {{.*}}bad.yml:3:1: unknown key 'min_iters_per_devise'; did you mean 'min_iters_per_device'? (known keys: {{.*}}) (the configuration file is ignored)
// BAD-NOT: error
// BAD: serial: 1000 iterations x 4 operations is below serial_threshold (32768)
// BAD: result: 1 serial
// MISSING: clustrix: error: {{.*}}missing.yml: CLUSTRIX_CONFIG names a file that does not exist (the configuration file is ignored)
// MISSING: result: 1 serial
// BADENV: clustrix: error: CLUSTRIX_LOG: bad value for 'log_level': unknown log level 'chatty' (expected error, warn, info, debug or off) (the variable is ignored)
// BADENV: result: 1 serial
