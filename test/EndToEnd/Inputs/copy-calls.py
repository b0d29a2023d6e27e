"""copy-calls.py SMALL LARGE: the host-device copies (driver calls, not bytes) of one program run
on two grid sizes, from two CLUSTRIX_EMU_STATS files. The number of copies must not grow with
the grid's rows: a stencil's edge columns between rows a device holds come in one strided copy,
and rows without their edge columns go back in one. Prints the counts; exit 1 if any differs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu_stats import read  # noqa: E402

COPIES = ("cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync", "cuMemcpy3DAsync")
small, large = read(sys.argv[1]), read(sys.argv[2])
ok = True
for dev in sorted(large):
    a = [small.get(dev, {}).get(k, 0) for k in COPIES]
    b = [large[dev].get(k, 0) for k in COPIES]
    if a != b:
        print("%s: %s copy calls on the small grid, %s on the large one" % (dev, a, b))
        ok = False
    print("%s copies: %s" % (dev, " ".join("%s %d" % (k, n) for k, n in zip(COPIES, b))))
sys.exit(0 if ok else 1)
