#!/usr/bin/env python3
"""DataRaceBench through the OpenMP front door: race verdicts against the labels, and runs.

For each C/C++ micro-benchmark of DataRaceBench (a checkout of github:LLNL/dataracebench, read
in place, never copied into this project):

1. **Check.** Compile it with `-fplugin-arg-clustrix-openmp=check` and read each worksharing
   loop's verdict from the JSON report: race (with a witness), race-free (proved) or unknown.
   A file's verdict is race when a loop of it races, race-free when every OpenMP directive of
   the file is a loop the front door takes and each is proved, unknown otherwise.
2. **Label.** The file name ends in -yes (a race) or -no.
3. **Run.** Build it with `--clustrix-openmp=on` (the proved loops on CPU workers), and its
   serial build, run both, and compare their output. A program that calls the OpenMP library
   or tests _OPENMP is built with -fopenmp both ways and run with OMP_NUM_THREADS=1, so that
   the directives the front door leaves run as one thread does.

The front door supports a file when every OpenMP directive in it is a worksharing loop it
takes (or a `threadprivate`); the table gives the metrics on those files, and the support rate.

Usage: dataracebench.py --drb DIR [--build BUILD] [--only NAME...] [--out FILE] [--no-run]
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PUBLISHED = [
    ("Coderrect, static", 0.974, 0.841, 0.910),
    ("ThreadSanitizer, dynamic", 0.986, 0.775, 0.883),
    ("LLOV, static, Polly-based", 0.866, 0.667, 0.782),
]


def omp_lines(text):
    """The `#pragma omp` lines of a file (continuations joined)."""
    out = []
    for m in re.finditer(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b(.*(?:\\\n.*)*)", text, re.M):
        out.append(m.group(1).replace("\\\n", " ").strip())
    return out


def compile_cmd(cc, src, extra):
    inc = ["-I", os.path.dirname(src), "-I", os.path.join(os.path.dirname(src), "utilities"),
           "-I", os.path.join(os.path.dirname(src), "polybench")]
    std = ["-std=c++17"] if src.endswith(".cpp") else ["-std=gnu11", "-Wno-error=implicit-function-declaration", "-Wno-error=int-conversion"]
    return [cc] + std + inc + extra + [src]


def check(args, src, work):
    report = os.path.join(work, os.path.basename(src) + ".json")
    if os.path.exists(report):
        os.unlink(report)
    cc = "clang++-19" if src.endswith(".cpp") else "clang-19"
    # A file is a whole program, as clustrix++ finds when it compiles and links one source
    # alone; the check compiles it with -c, so it says so. PolyBench's files link its support
    # file too: not for them.
    whole = "polybench.h" not in open(src, errors="replace").read()
    cmd = compile_cmd(cc, src, [
        "-fplugin=" + os.path.join(args.build, "lib", "clustrix.so"),
        "-fplugin-arg-clustrix-openmp=check",
        "-fplugin-arg-clustrix-whole-program=" + ("on" if whole else "off"),
        "-fplugin-arg-clustrix-report=" + report, "-fopenmp", "-w",
        "-Wno-unknown-pragmas", "-c", "-o", os.path.join(work, os.path.basename(src) + ".o")])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    loops = []
    if os.path.exists(report):
        with open(report) as f:
            loops = [l for l in json.load(f).get("loops", []) if "openmp" in l]
    return p.returncode, p.stderr, loops


def run_one(args, src, work):
    """Door build against serial build: 'equal', 'differs: ...', or why it did not run."""
    text = open(src, errors="replace").read()
    # The OpenMP library, or a test of the OpenMP version: -fopenmp both ways.
    uses_lib = bool(re.search(r"\bomp_[a-z_]+\s*\(|_OPENMP", text))
    cxx = "clang++-19" if src.endswith(".cpp") else "clang-19"
    base = os.path.join(work, os.path.basename(src))
    libs = ["-lm"] + (["-fopenmp"] if uses_lib else [])
    if "polybench.h" in text:  # PolyBench's support file, from the checkout
        libs.append(os.path.join(os.path.dirname(src), "utilities", "polybench.c"))
    serial = compile_cmd(cxx, src, ["-w", "-o", base + ".serial"] + libs)
    door = [os.path.join(args.build, "bin", "clustrix++"), "--clustrix-openmp=on",
            "--clustrix-remarks=off", "--clustrix-refusals=ignore"] + \
        compile_cmd("", src, ["-w", "-o", base + ".door"] + libs)[1:]
    env = dict(os.environ, CLUSTRIX_CXX=cxx)
    for cmd in (serial, door):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        if p.returncode != 0:
            return "build failed: " + (p.stderr.strip().splitlines() or ["?"])[-1][:160]
    renv = dict(os.environ, OMP_NUM_THREADS="1", CLUSTRIX_DEVICES="cpu:2")
    outs = []
    for exe in (base + ".serial", base + ".door", base + ".serial"):
        try:
            p = subprocess.run([exe], capture_output=True, timeout=60, env=renv, cwd=work)
        except subprocess.TimeoutExpired:
            return "timed out"
        # Addresses and times differ from run to run in any build: mask them.
        out = re.sub(rb"0x[0-9a-f]+", b"0x?", p.stdout + p.stderr)
        # A failed assertion names the program: the builds' names differ.
        out = out.replace(exe.encode(), b"<program>").replace(
            os.path.basename(exe).encode(), b"<program>")
        outs.append((p.returncode, out))
    if outs[0] == outs[1]:
        return "equal"
    if outs[0] != outs[2]:
        return "the serial build itself differs from run to run"
    return "differs (exit %d vs %d)" % (outs[0][0], outs[1][0])


def evaluate(args, src, work):
    name = os.path.basename(src)
    label = "yes" if re.search(r"-yes\.(c|cpp)$", name) else "no"
    text = open(src, errors="replace").read()
    rc, err, loops = check(args, src, work)
    directives = omp_lines(text)
    # Supported: every OpenMP directive is a loop the door took, the `parallel` line of a region
    # it took, a barrier inside such a region, or a threadprivate.
    covered = set()
    all_taken = True
    spans = []
    for l in loops:
        o = l["openmp"]
        if any(r["kind"] == "openmp-directive" for r in l.get("reasons", [])):
            all_taken = False
            continue
        covered.add(o.get("directive_line"))
        if o.get("region_line"):
            covered.add(o["region_line"])
            spans.append((o["region_line"], o["directive_line"]))
    uncovered = 0
    for m in re.finditer(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b(.*)", text, re.M):
        line = text.count("\n", 0, m.start()) + 1
        d = m.group(1).strip()
        if line in covered or d.startswith("threadprivate"):
            continue
        if d.startswith("barrier") and any(a < line < b for a, b in spans):
            continue
        uncovered += 1
    supported = rc == 0 and loops and all_taken and uncovered == 0
    verdicts = [l["openmp"].get("verdict", "unknown") for l in loops]
    if "race" in verdicts:
        verdict = "race"
    elif supported and verdicts and all(v == "race-free" for v in verdicts):
        verdict = "race-free"
    else:
        verdict = "unknown"
    why = ""
    for l in loops:
        if l["openmp"].get("verdict") != "race-free":
            why = "line %d: %s" % (l["line"], l["openmp"].get("message", ""))
            if l["openmp"].get("verdict") == "race":
                break
    if not loops:
        why = "no worksharing loop" if rc == 0 else "check failed: " + err.strip()[-160:]
    elif not supported and not why:
        others = [d.split("(")[0].split()[0] for d in directives
                  if not d.startswith(("parallel", "for", "threadprivate"))]
        why = "other directives: " + ", ".join(sorted(set(others)))
    run = "" if args.no_run else run_one(args, src, work)
    return {"file": name, "label": label, "verdict": verdict, "supported": bool(supported),
            "loops": len(loops), "why": why, "run": run}


def metrics(rows):
    tp = sum(1 for r in rows if r["label"] == "yes" and r["verdict"] == "race")
    fp = sum(1 for r in rows if r["label"] == "no" and r["verdict"] == "race")
    fn = sum(1 for r in rows if r["label"] == "yes" and r["verdict"] != "race")
    tn = sum(1 for r in rows if r["label"] == "no" and r["verdict"] == "race-free")
    n = len(rows)
    prec = tp / (tp + fp) if tp + fp else float("nan")
    rec = tp / (tp + fn) if tp + fn else float("nan")
    acc = (tp + tn) / n if n else float("nan")
    return tp, fp, fn, tn, prec, rec, acc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--drb", required=True, help="a DataRaceBench checkout")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", nargs="*", help="file names (or parts of them)")
    ap.add_argument("--out", help="write the markdown table here")
    ap.add_argument("--json", help="write every file's row here")
    ap.add_argument("--no-run", action="store_true", help="verdicts only")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    mb = os.path.join(args.drb, "micro-benchmarks")
    files = sorted(os.path.join(mb, f) for f in os.listdir(mb)
                   if re.match(r"DRB\d+.*-(yes|no)\.(c|cpp)$", f))
    if args.only:
        files = [f for f in files if any(o in os.path.basename(f) for o in args.only)]
    work = tempfile.mkdtemp(prefix="drb-")
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        rows = list(ex.map(lambda f: evaluate(args, f, work), files))
    sup = [r for r in rows if r["supported"]]
    tp, fp, fn, tn, prec, rec, acc = metrics(sup)
    lines = []
    lines.append("| file | label | verdict | supported | run | why |")
    lines.append("|---|---|---|---|---|---|")
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            r["file"], r["label"], r["verdict"], "yes" if r["supported"] else "no", r["run"],
            r["why"].replace("|", "\\|")))
    summary = []
    summary.append("Files: %d; supported by the front door: %d (%.0f %%); %d seconds." % (
        len(rows), len(sup), 100.0 * len(sup) / max(1, len(rows)), time.time() - start))
    summary.append("On the supported files: TP %d, FP %d, FN %d, TN %d, unknown on race-free "
                   "files %d." % (tp, fp, fn, tn,
                                  sum(1 for r in sup if r["label"] == "no" and
                                      r["verdict"] == "unknown")))
    summary.append("")
    summary.append("| tool | precision | recall | accuracy |")
    summary.append("|---|---|---|---|")
    summary.append("| Clustrix, OpenMP front door (supported files) | %.3f | %.3f | %.3f |" % (
        prec, rec, acc))
    for t, p, r, a in PUBLISHED:
        summary.append("| %s | %.3f | %.3f | %.3f |" % (t, p, r, a))
    if not args.no_run:
        bad = [r for r in rows if r["run"] != "equal"]
        summary.append("")
        summary.append("Runs: %d of %d equal to their serial build; the others: %s" % (
            len(rows) - len(bad), len(rows),
            "; ".join("%s %s" % (r["file"], r["run"]) for r in bad) or "none"))
    wrong = [r for r in rows if r["label"] == "yes" and r["verdict"] == "race-free"]
    if wrong:
        summary.append("")
        summary.append("PROVED RACE-FREE BUT LABELLED RACY: " +
                       ", ".join(r["file"] for r in wrong))
    text = "\n".join(summary) + "\n\n" + "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 1 if fp or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
