"""bytes-at-most.py STATS KEY LIMIT: every device of a CLUSTRIX_EMU_STATS file moved at most LIMIT
bytes of KEY (to_device, to_host, peer_in, within). Prints one line per device; exit 1 if any
moved more."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu_stats import read  # noqa: E402

stats, key, limit = read(sys.argv[1]), sys.argv[2], int(sys.argv[3])
ok = True
for dev in sorted(stats):
    n = stats[dev].get(key, 0)
    print("%s: %s %s" % (dev, key, "at most %d" % limit if n <= limit else "%d, more than %d" % (n, limit)))
    ok = ok and n <= limit
sys.exit(0 if ok else 1)
