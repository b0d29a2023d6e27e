"""host-cost.py --build DIR: the host's work per resident loop call on an emulated GPU, exactly.

BenchIter's `jacobi-steps` (two collapse(2) sweeps a step, in a residency scope) is built with
DIR's clustrix++ and run under callgrind on one emulated GPU (DIR's libclustrix_cudaemu.so) at
two step counts; the difference of the two counts, divided by the calls between them, is what
one call costs on the calling thread: the runtime's work (`runLoop`, inclusive), and within it
the emulated driver's `cuLaunchKernel` (which a real driver replaces with its own cost). The
kernels run on the emulator's stream threads and are not counted. Instructions, not time: exact
and repeatable, so that a change to the runtime's per-call path can be measured on a machine
without a GPU (docs/gpu-hardware.md). About a minute."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def inclusive(out_file, pattern):
    """The inclusive instructions of the functions whose name matches pattern (summed)."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--auto=no", "--threshold=100",
                           out_file],
                          capture_output=True, text=True, check=True).stdout
    total = 0
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)", line)
        # A function's own line names its object file ("[...]"); lines without it are parts of
        # it that an inlined header contributed.
        if (m and not m.group(2).startswith("=>") and m.group(2).endswith("]") and
                re.search(pattern, m.group(2))):
            total += int(m.group(1).replace(",", ""))
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="a Clustrix build (bin/, lib/)")
    ap.add_argument("--grid", type=int, default=64, help="grid side (small: the kernels are not counted)")
    ap.add_argument("--steps", type=int, nargs=2, default=[20, 120])
    ap.add_argument("--gpus", type=int, default=1, help="emulated GPUs the loops spread over")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    emu = os.path.join(build, "lib", "libclustrix_cudaemu.so")
    for tool in ("valgrind", "callgrind_annotate"):
        if subprocess.run(["which", tool], capture_output=True).returncode:
            sys.exit("host-cost.py: %s is not installed" % tool)
    if not os.path.exists(emu):
        sys.exit("host-cost.py: %s is missing (build the emulator)" % emu)
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "BenchIter")
        subprocess.run([os.path.join(build, "bin", "clustrix++"), "-O2", "-g",
                        "--clustrix-remarks=off", os.path.join(HERE, "BenchIter.cpp"), "-o", exe],
                       check=True)
        env = dict(os.environ, CLUSTRIX_CUDA_LIBRARY=emu, CLUSTRIX_NVRTC_LIBRARY=emu,
                   CLUSTRIX_EMU_GPUS=str(a.gpus), CLUSTRIX_DEVICES="cuda",
                   CLUSTRIX_KERNEL_CACHE=os.path.join(tmp, "kernels"))
        counts = []
        # A first run fills the kernel cache, so that both measured runs load the kernels alike.
        subprocess.run([exe, "clustrix", "jacobi-steps", str(a.grid), "2"], env=env, check=True,
                       capture_output=True)
        for steps in a.steps:
            base = os.path.join(tmp, "cg.%d" % steps)
            subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes",
                            "--callgrind-out-file=" + base, exe, "clustrix", "jacobi-steps",
                            str(a.grid), str(steps)], env=env, check=True, capture_output=True)
            main_thread = base + "-01"
            counts.append((inclusive(main_thread, r"RunLoop\.cpp:clustrix::rt::runLoop\("),
                           inclusive(main_thread, r"Driver\.cpp:cuLaunchKernel \[")))
        calls = 2 * (a.steps[1] - a.steps[0])
        run = (counts[1][0] - counts[0][0]) / calls
        launch = (counts[1][1] - counts[0][1]) / calls
        print("per resident call (callgrind, %d emulated GPU%s, %dx%d grid, steps %d and %d):" %
              (a.gpus, "" if a.gpus == 1 else "s", a.grid, a.grid, a.steps[0], a.steps[1]))
        print("  runLoop: %.0f instructions, of which the emulator's cuLaunchKernel %.0f; "
              "the runtime's own: %.0f" % (run, launch, run - launch))


if __name__ == "__main__":
    main()
