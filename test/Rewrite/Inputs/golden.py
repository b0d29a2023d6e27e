#!/usr/bin/env python3
"""Golden outputs of clustrix-rewrite: the rewritten source, the kernel texts, the JSON report
and the diagnostics of every example and of the test inputs listed below, compared with the
files checked in under test/Rewrite/Inputs/golden/<case>/ (each named as the tool wrote it,
plus .golden).

  check:       golden.py --rewrite build/bin/clustrix-rewrite --work /tmp/x
  regenerate:  golden.py --rewrite build/bin/clustrix-rewrite --work /tmp/x --update

Run from anywhere; paths in the outputs are relative to the source root (the files are rewritten
through a compilation database whose directory is the source root), so the golden files hold no
path of the checkout that made them. Regenerate only when a change of the output is intended,
and read the diff of the golden files in the commit.
"""
import argparse
import difflib
import filecmp
import json
import os
import shutil
import subprocess
import sys

SRC_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
GOLDEN = os.path.join(SRC_ROOT, "test", "Rewrite", "Inputs", "golden")


def cases():
    """(case name, source path relative to the source root), in a fixed order."""
    out = []
    for name in sorted(os.listdir(os.path.join(SRC_ROOT, "examples"))):
        if os.path.isfile(os.path.join(SRC_ROOT, "examples", name, "main.cpp")):
            out.append(("examples-" + name, "examples/%s/main.cpp" % name))
    out.append(("endtoend-constructs", "test/EndToEnd/Inputs/constructs.cpp"))
    out.append(("rewrite-shape", "test/Rewrite/Inputs/shape.cpp"))
    # The lit inputs of the analysis and the detector: every decision, refusal and placement
    # error, with its diagnostics.
    for folder in ("Analysis", "Detect"):
        for f in sorted(os.listdir(os.path.join(SRC_ROOT, "test", folder))):
            if f.endswith(".cpp"):
                out.append(("%s-%s" % (folder.lower(), f[:-4]), "test/%s/%s" % (folder, f)))
    return out


def produce(rewrite, work):
    """Rewrites every case into work/<case>/."""
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    db = [{"directory": SRC_ROOT, "file": src,
           "arguments": ["clang++", "-std=c++17", "-c", src]} for _, src in cases()]
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    for name, src in cases():
        d = os.path.join(work, name)
        os.makedirs(os.path.join(d, "kernels"))
        p = subprocess.run(
            [rewrite, "-p", work, src, "-o", os.path.join(d, "rewritten.cpp"),
             "--kernels-dir=" + os.path.join(d, "kernels"),
             "--report=" + os.path.join(d, "report.json")],
            cwd=SRC_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with open(os.path.join(d, "diagnostics.txt"), "w") as f:
            # LibTooling names a failed file by its absolute path.
            f.write(p.stdout.replace(SRC_ROOT + os.sep, ""))
            f.write("exit status %d\n" % p.returncode)
        # Expected outputs are data, not sources: no tool should read them as C++ or CUDA.
        for rel in files(d):
            os.rename(os.path.join(d, rel), os.path.join(d, rel + ".golden"))


def files(root):
    out = []
    for base, _, names in os.walk(root):
        for n in names:
            out.append(os.path.relpath(os.path.join(base, n), root))
    return sorted(out)


def compare(work):
    bad = 0
    for name, _ in cases():
        want, got = os.path.join(GOLDEN, name), os.path.join(work, name)
        fw = files(want) if os.path.isdir(want) else []
        fg = files(got)
        for rel in sorted(set(fw) | set(fg)):
            a, b = os.path.join(want, rel), os.path.join(got, rel)
            if rel not in fw or rel not in fg:
                print("%s/%s: %s" % (name, rel, "new" if rel not in fw else "missing"))
                bad += 1
                continue
            if filecmp.cmp(a, b, shallow=False):
                continue
            bad += 1
            with open(a) as fa, open(b) as fb:
                diff = list(difflib.unified_diff(fa.readlines(), fb.readlines(),
                                                 "golden/%s/%s" % (name, rel),
                                                 "now/%s/%s" % (name, rel)))
            sys.stdout.writelines(diff[:60])
            if len(diff) > 60:
                print("... (%d more diff lines)" % (len(diff) - 60))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rewrite", required=True, help="the clustrix-rewrite to run")
    ap.add_argument("--work", required=True, help="scratch folder for the outputs")
    ap.add_argument("--update", action="store_true", help="replace the golden files")
    args = ap.parse_args()
    work = os.path.abspath(args.work)
    produce(os.path.abspath(args.rewrite), work)
    if args.update:
        if os.path.exists(GOLDEN):
            shutil.rmtree(GOLDEN)
        for name, _ in cases():
            shutil.copytree(os.path.join(work, name), os.path.join(GOLDEN, name))
        print("golden files written to %s" % os.path.relpath(GOLDEN, SRC_ROOT))
        return 0
    bad = compare(work)
    if bad:
        print("%d file(s) differ from test/Rewrite/Inputs/golden; if the change is intended, "
              "regenerate with: python3 test/Rewrite/Inputs/golden.py --rewrite "
              "<build>/bin/clustrix-rewrite --work <tmp> --update" % bad)
        return 1
    print("all %d cases match the golden files" % len(cases()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
