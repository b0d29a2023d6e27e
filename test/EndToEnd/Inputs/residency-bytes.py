"""residency-bytes.py FEW MANY OFF ROWBYTES STEPS: checks the emulated driver's byte counts
(CLUSTRIX_EMU_STATS) of the residency test's Jacobi on 2 GPUs: FEW steps (each array written
twice) against FEW + STEPS steps, and the latter with residency off. After the first steps, only
halo rows move between the devices (at most two rows of ROWBYTES into each device a step) and
nothing between the host and the devices."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu_stats import read  # noqa: E402


one, fifty, off = read(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3])
row = int(sys.argv[4])
steps = int(sys.argv[5])
ok = True
for dev in sorted(one):
    a, b = one[dev], fifty[dev]
    for key in ("to_device", "to_host"):
        if a[key] != b[key]:
            print("%s: %s differs: %d bytes for the few steps, %d for %d more" % (dev, key, a[key], b[key], steps))
            ok = False
    halo = b["peer_in"] - a["peer_in"]
    if halo <= 0 or halo > steps * 2 * row:
        print("%s: %d bytes between devices in %d steps (at most %d)" % (dev, halo, steps, steps * 2 * row))
        ok = False
    if off[dev]["to_device"] < 10 * b["to_device"]:
        print("%s: residency off moved only %d bytes in" % (dev, off[dev]["to_device"]))
        ok = False
print("halo rows only between devices after the first step" if ok else "FAILED")
sys.exit(0 if ok else 1)
