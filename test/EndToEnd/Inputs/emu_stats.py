"""The emulated driver's statistics file (CLUSTRIX_EMU_STATS, docs/cuda-emulator.md): one line per
device, `<device> <key> <count> <key> <count> ...`, read into {device: {key: count}}. Shared by
the tests' checkers (driver-calls.py, residency-bytes.py)."""


def read(path):
    out = {}
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if len(f) % 2 != 1:
            raise SystemExit("%s: malformed line (a key without a count): %r" % (path, line))
        out[f[0]] = {f[i]: int(f[i + 1]) for i in range(1, len(f), 2)}
    return out
