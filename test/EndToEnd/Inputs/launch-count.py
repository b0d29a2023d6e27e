"""launch-count.py STATS CALLS: the kernel launches per loop call on each device, from a
CLUSTRIX_EMU_STATS file (docs/cuda-emulator.md) of a program that ran one loop CALLS times.
Prints `<device> launches <total> per call <total / CALLS>` per device, in device order."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu_stats import read  # noqa: E402


stats = read(sys.argv[1])
calls = int(sys.argv[2])
for dev in sorted(stats):
    n = stats[dev].get("launches", 0)
    print("%s launches %d per call %g" % (dev, n, n / calls))
