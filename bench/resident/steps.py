"""steps.py FILE FEW MANY [--bytes-per-step B]: per-step cost in steady state, from runs of
BenchIter (or HandWritten) at two step counts. FILE holds lines `WHO STEPS total_ns T ...`
(WHO names the program); for each WHO, the difference of the medians at MANY and at FEW steps,
divided by MANY - FEW, so that what a run pays once (a context, the first copies, kernel loads)
cancels out. Prints `WHO: X us per step` for each, and with --bytes-per-step the bandwidth
that makes; with two programs, the ratio of the first to the second (a speed relative to it)."""
import argparse
import statistics

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("few", type=int)
ap.add_argument("many", type=int)
ap.add_argument("--bytes-per-step", type=float)
args = ap.parse_args()
runs, order = {}, []
for line in open(args.file):
    f = line.split()
    if len(f) < 4 or f[2] != "total_ns":
        continue
    if f[0] not in order:
        order.append(f[0])
    runs.setdefault((f[0], int(f[1])), []).append(float(f[3]))
per = {}
for who in order:
    few, many = runs.get((who, args.few)), runs.get((who, args.many))
    if not few or not many:
        raise SystemExit("steps.py: %s has no runs of %d and %d steps" % (who, args.few, args.many))
    per[who] = (statistics.median(many) - statistics.median(few)) / (args.many - args.few)
    line = "%s: %.2f us per step (medians of %d and %d runs)" % (who, per[who] / 1e3, len(many),
                                                                   len(few))
    if args.bytes_per_step:
        line += ", %.1f GB/s" % (args.bytes_per_step / per[who])
    print(line)
if len(order) == 2:
    a, b = order
    print("%s against %s: %.2fx" % (b, a, per[a] / per[b]))
