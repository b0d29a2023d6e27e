// ThreadSanitizer over the CPU path: every schedule with 2 to 8 workers, fault recovery and the
// worker pool's fork-join, linked against the runtime's TSan build. Any race report fails.
//
// REQUIRES: rt-tsan
// RUN: %cxx -std=c++17 -O1 -g -fsanitize=thread -I%clustrix_rt_include -I%S %s -o %t %clustrix_rt_tsan_link
// RUN: env CLUSTRIX_DEVICES=cpu:2 CLUSTRIX_SERIAL_THRESHOLD=0 TSAN_OPTIONS=halt_on_error=1 %t 2>&1 | FileCheck %s --implicit-check-not=WARNING
// RUN: env CLUSTRIX_DEVICES=cpu:5 CLUSTRIX_SERIAL_THRESHOLD=0 CLUSTRIX_WORKER_SPIN_US=0 TSAN_OPTIONS=halt_on_error=1 %t 2>&1 | FileCheck %s --implicit-check-not=WARNING
// RUN: env CLUSTRIX_DEVICES=cpu:8 CLUSTRIX_SERIAL_THRESHOLD=0 'CLUSTRIX_FAULT=*:1,cpu3:*' CLUSTRIX_LOG=error TSAN_OPTIONS=halt_on_error=1 %t 2>&1 | FileCheck %s --implicit-check-not=WARNING
#include "Inputs/GeneratedLoops.h"

#include <thread>

using namespace clustrix::rt;

int main() {
  bool Ok = true;
  for (int Round = 0; Round < 20; ++Round)
    for (Schedule S : {Schedule::Block, Schedule::Cyclic, Schedule::Dynamic}) {
      Ok &= gen::fusedLoop(500 + Round * 37, S);
      Ok &= gen::columnLoop(20, 90, S);
    }
  // Two threads calling runLoop at once: one goes wide, the other may be told Serial.
  bool A = true, B = true;
  std::thread T1([&] { for (int I = 0; I < 10; ++I) A &= gen::fusedLoop(700, Schedule::Dynamic); });
  std::thread T2([&] { for (int I = 0; I < 10; ++I) B &= gen::fusedLoop(900, Schedule::Block); });
  T1.join();
  T2.join();
  std::printf("%s\n", Ok && A && B ? "all equal to serial" : "DIFFERENT");
  return 0;
}
// CHECK: all equal to serial
