"""copies.py TRACE: the copies of a Clustrix trace (CLUSTRIX_TRACE, Chrome trace event format),
summed per direction and per kind of host memory: bytes, host time spent in the copy calls and
the bandwidth that makes. A copy from or to pageable memory is synchronous for the host (the
driver stages it), so its span is its duration; one through the pinned staging buffer is timed
from its pack to its completion. A copy only queued (from memory the program page-locked, or a
small one) has "queued" in its args and spans its queueing: its time on the device is a
"copy-device" event of its own (CUDA events), which is counted in its place. Prints one line
per direction, and the largest single copy of
each direction on its own (a resident range's first copy is usually the largest); and, with
host_register, the time spent locking and unlocking pages (part of the copies' time)."""
import json
import sys
from collections import defaultdict

if len(sys.argv) != 2:
    raise SystemExit(__doc__)
with open(sys.argv[1]) as f:
    data = json.load(f)
events = data["traceEvents"] if isinstance(data, dict) else data
sums = defaultdict(lambda: [0, 0.0, 0])  # dir -> bytes, us, count
largest = {}
locking = defaultdict(lambda: [0, 0.0])  # name -> calls, us
queued = defaultdict(list)  # dir -> the queued copies' events
timed = defaultdict(list)   # dir -> their device-timed events
for e in events:
    if e.get("ph") != "X":
        continue
    if e.get("cat") == "copy" and e.get("args", {}).get("queued"):
        queued[e["args"].get("dir", "?")].append(e)
    elif e.get("cat") == "copy-device":
        timed[e.get("args", {}).get("dir", "?")].append(e)
counted = []
for e in events:
    if e.get("cat") == "register" and e.get("ph") == "X":
        locking[e.get("name", "?")][0] += 1
        locking[e.get("name", "?")][1] += float(e.get("dur", 0))
        continue
    if e.get("ph") != "X" or e.get("cat") not in ("copy", "copy-device"):
        continue
    a = e.get("args", {})
    d = a.get("dir", "?")
    # A direction's queued copies count by their time on the device, when each has one.
    if len(timed[d]) == len(queued[d]):
        if e.get("cat") == "copy" and a.get("queued"):
            continue
    elif e.get("cat") == "copy-device":
        continue
    counted.append(e)
for e in counted:
    a = e.get("args", {})
    d, b, us = a.get("dir", "?"), int(a.get("bytes", 0)), float(e.get("dur", 0))
    s = sums[d]
    s[0] += b
    s[1] += us
    s[2] += 1
    if b > largest.get(d, (0, 0.0, ""))[0]:
        largest[d] = (b, us, a.get("array", ""))
if not sums:
    raise SystemExit("copies.py: no copy events in %s (was CLUSTRIX_TRACE set?)" % sys.argv[1])
for d in sorted(sums):
    b, us, n = sums[d]
    print("%s: %d copies, %.1f MiB in %.2f ms: %.1f GB/s" % (d, n, b / 2**20, us / 1e3,
                                                             b / (us * 1e3) if us else 0))
    lb, lus, arr = largest[d]
    print("  largest: %.1f MiB (%s) in %.2f ms: %.1f GB/s" % (lb / 2**20, arr, lus / 1e3,
                                                             lb / (lus * 1e3) if lus else 0))
for d in sorted(k for k in queued if queued[k]):
    if len(timed[d]) == len(queued[d]):
        print("  %s: %d queued copies, timed on the device" % (d, len(queued[d])))
    else:
        print("  %s: %d queued copies, %d timed on the device: their queueing is counted"
              % (d, len(queued[d]), len(timed[d])))
for name in sorted(locking):
    n, us = locking[name]
    print("%s: %d calls, %.2f ms" % (name, n, us / 1e3))
