"""Robustness sweep: puts a cluster:: attribute before chosen lines of a source, one variant at a
time, and compiles each through the plugin. Fails on a crash or a hang anywhere, and on a variant
whose plain compile succeeds but whose compile through the plugin fails without Clustrix having
reported an error itself (generated code that does not compile).

usage: attribute_sweep.py CLANGXX PLUGIN RUNTIME_INCLUDE WORKDIR COUNT SEED FILE..."""
import random
import subprocess
import sys

clangxx, plugin, include, work, count, seed = sys.argv[1:7]
files = sys.argv[7:]
rng = random.Random(int(seed))
attrs = ["[[cluster::gpu_parallel]]",
         "[[cluster::gpu_parallel(reduce(+: s), schedule(cyclic, 3))]]",
         "[[cluster::gpu_parallel(collapse(2))]]",
         "[[cluster::gpu_parallel(schedule(dynamic), devices(2))]]",
         "[[cluster::gpu_paralel]]",
         "[[cluster::gpu_parallel(extent(p, n), min_iters(4))]]"]
# Errors Clustrix itself reports: attribute names and placement, and clause syntax.
ours = ("Clustrix attribute", "'cluster::gpu_parallel'", "' clause", "clause,", "clauses",
        "cannot both be given")
runs = 0
for path in files:
    lines = open(path).read().split("\n")
    cand = [i for i, l in enumerate(lines) if l.strip() and not l.strip().startswith(("#", "//"))]
    for i in rng.sample(cand, min(int(count), len(cand))):
        variant = list(lines)
        variant[i] = rng.choice(attrs) + " " + variant[i]
        src = "%s/variant%d.cpp" % (work, runs)
        open(src, "w").write("\n".join(variant))
        runs += 1
        where = "%s:%d (%s)" % (path, i + 1, src)
        try:
            plugin_run = subprocess.run([clangxx, "-std=c++17", "-fsyntax-only", "-fplugin=" + plugin,
                                         "-I" + include, src], capture_output=True, text=True,
                                        timeout=60)
        except subprocess.TimeoutExpired:
            sys.exit("hang: " + where)
        if plugin_run.returncode not in (0, 1) or "Stack dump" in plugin_run.stderr:
            sys.exit("crash: %s\n%s" % (where, plugin_run.stderr[-2000:]))
        if plugin_run.returncode == 0:
            continue
        plain = subprocess.run([clangxx, "-std=c++17", "-fsyntax-only", "-Wno-unknown-attributes",
                                src], capture_output=True, text=True)
        errors = [l for l in plugin_run.stderr.splitlines() if " error: " in l]
        if plain.returncode == 0 and not any(w in l for l in errors for w in ours):
            sys.exit("generated code does not compile: %s\n%s" % (where, "\n".join(errors[:5])))
print("%d variants, no crash, no hang, no broken rewrite" % runs)
