"""register-calls.py STATS...: for each statistics file of the emulated driver (CLUSTRIX_EMU_STATS,
one GPU), the calls that show how copies of the program's memory moved: page-locked for the copy
(cuMemHostRegister, each undone by cuMemHostUnregister), through pinned staging (cuMemAllocHost),
and the single copies in each direction."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu_stats import read  # noqa: E402

KEYS = ("cuMemHostRegister", "cuMemHostUnregister", "cuMemAllocHost", "cuMemcpyHtoDAsync",
        "cuMemcpyDtoHAsync")
for path in sys.argv[1:]:
    dev = read(path)["cuda0"]
    print(", ".join("%s %d" % (k, dev.get(k, 0)) for k in KEYS))
