"""driver-calls.py FEW MANY CALLS EXPECT: the driver entry points the runtime calls per loop call
in steady state, from two CLUSTRIX_EMU_STATS files of one program that differ only in CALLS more
calls of one loop (FEW and MANY). EXPECT lists, per call and per device, the entry points that
may be called and how often ('cuLaunchKernel=1,cuCtxSetCurrent=1'); every other counted entry
point (cuMemAlloc, cuMemFree, cuMemGetInfo, cuStreamSynchronize, module loads, copies, ...)
must not be called at all in the extra calls, and no byte may move between host and device.
Prints the per-call counts; each difference on its own line, and exit 1."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu_stats import read  # noqa: E402


few, many = read(sys.argv[1]), read(sys.argv[2])
calls = int(sys.argv[3])
expect = {}
for item in sys.argv[4].split(","):
    name, n = item.split("=")
    expect[name] = int(n)
data = ("launches", "to_device", "to_host", "peer_in", "within")
ok = True
for dev in sorted(few):
    a, b = few[dev], many[dev]
    per = {}
    for k in sorted(set(a) | set(b)):
        d = b.get(k, 0) - a.get(k, 0)
        if k in data:
            if k in ("to_device", "to_host") and d:
                print("%s: %d bytes %s in %d more calls" % (dev, d, k, calls))
                ok = False
            continue
        if d:
            per[k] = d / calls
    for k in sorted(set(per) | set(expect)):
        if per.get(k, 0) != expect.get(k, 0):
            print("%s: %s %g times per call, expected %d" % (dev, k, per.get(k, 0), expect.get(k, 0)))
            ok = False
    print("%s per call: %s" % (dev, " ".join("%s %g" % (k, per[k]) for k in sorted(per))))
sys.exit(0 if ok else 1)
