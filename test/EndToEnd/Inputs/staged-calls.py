"""staged-calls.py STATS...: for each statistics file of the emulated driver (CLUSTRIX_EMU_STATS,
one GPU), whether copies went through pinned staging ("staged", a cuMemAllocHost made) or
directly, with the counts of the calls that show it: pinned allocations and the single copies
in each direction (one per piece when staged, one per range when direct)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu_stats import read  # noqa: E402

for path in sys.argv[1:]:
    dev = read(path)["cuda0"]
    calls = [(k, dev.get(k, 0)) for k in ("cuMemAllocHost", "cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync")]
    print("%s: %s" % ("staged" if calls[0][1] else "direct",
                      ", ".join("%s %d" % kv for kv in calls)))
