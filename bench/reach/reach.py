#!/usr/bin/env python3
"""Reach on real OpenMP code: how many of the loops that the authors of public OpenMP programs
parallelized does Clustrix accept once their pragmas are converted mechanically?

The programs are fetched by the user (never stored in this repository) and named by suite:

  Rodinia 3.1 (its openmp/ folder), the Parallel Research Kernels (ParRes/Kernels: Cxx11 and C1z
  OpenMP kernels), BabelStream (UoB-HPC/BabelStream, src/omp), PolyBench-ACC's OpenMP PolyBench/C
  (cavazos-lab/PolyBench-ACC, OpenMP/), HPCCG (Mantevo/HPCCG, built with -DUSING_OMP), XSBench
  (ANL-CESAR/XSBench, openmp-threading/), the NAS Parallel Benchmarks in C++ (GMAP/NPB-CPP,
  NPB-OMP/: EP, CG, MG, FT, IS, BT, SP, LU; each benchmark's npbparams.hpp is generated in the
  work copy for class S by the suite's own sys/setparams, as its makefile does).

Each suite's tree is copied (source files only) into a work folder, every file is converted, and
`clustrix-rewrite --report` is run on each translation unit of each program with the flags its
makefile would give (defines, include folders, -std). The report's decisions are matched with
the converted loops by file and line of the `for`.

Conversion rules (mechanical; the line count of every file is kept, so lines are the original's):
  1. `#pragma omp parallel for [simd] CLAUSES` (also spread over `\\` continuation lines) becomes
     `[[cluster::gpu_parallel(CLAUSES')]]` in its place, before the loop: `reduction(op: v, ...)`
     becomes `reduce(op: v, ...)` (`-` as `+`; `&&`, `||` have no Clustrix form and are dropped),
     `collapse(n)` is kept, every other clause (private, firstprivate, lastprivate, shared,
     default, schedule, num_threads, simd, if, proc_bind) is dropped: Clustrix privatizes and
     schedules by itself.
  2. `#pragma omp for CLAUSES` inside a `#pragma omp parallel` region converts the same way when
     the region is *convertible*: nothing in it depends on which thread runs it. A region is not
     convertible when its text calls omp_get_thread_num / omp_get_num_threads, or it holds
     `critical`, `atomic`, `task`, `taskloop`, `sections`, `ordered`, `flush` or
     `threadprivate`. In a convertible region the `parallel`, `master`, `single` and
     `barrier` directives are blanked: the region's other code (time loops, timers under
     `master`) then runs once, as in the serial program, and each worksharing loop is a parallel
     loop. A `nowait` loop (NPB CG's initialization) converts too: it lets threads start what
     follows before the others finish, which a race-free region cannot observe, so the serial
     program is still its meaning. The `for` loops of a region that is not convertible are left alone and counted as
     "not converted", with the reason. An orphaned `#pragma omp for` (in a function called from
     a region: PRK's stencil headers) converts like rule 1.
  3. A worksharing loop whose own text calls omp_get_thread_num, or with an `ordered` clause
     (a doacross loop), or that holds `#pragma omp flush` (a doacross loop made by hand, its
     iterations spinning on flags: NPB LU's blts/buts), is not converted either. `target`/`teams` directives and `declare`
     directives are left as they are (without -fopenmp they are ignored pragmas); standalone
     `#pragma omp simd` lines are blanked.
  4. PRK spells its pragmas through macros of prk_openmp.h, alone on their lines
     (OMP_PARALLEL(x), OMP_FOR(x), OMP_FOR_SIMD(x), OMP_FOR_REDUCE(x),
     OMP_PARALLEL_FOR_REDUCE(x), OMP_MASTER, OMP_BARRIER, OMP_SIMD): they are read as the pragmas
     they expand to.

Every unit is compiled as the program's OpenMP build sees it (-D_OPENMP=201511, clang's omp.h
included first) but without -fopenmp, so the pragmas left in place are ignored. Headers with
converted loops are rewritten with the units (--out-dir, --project-root: the program's folder)
when clustrix-rewrite has those options; an older one refuses their loops as not in the main file.

Counting: a loop counts once per source location. A loop in a template (one report record per
instantiation) counts as accepted only when every instantiation is. A loop of a header that two
programs of a suite include counts in the first (PRK's C1z stencil and stencil-2d share
stencil_openmp.h); the second's row says so. A converted loop that no
compiled unit reaches (an inactive #ifdef branch, a header no unit includes) is listed as "not
compiled", outside the totals. Refusals are classified by cause from their message text; the
classes are heuristics of this script, not kinds of the compiler (the report's kind is shown too).

usage: bench/reach/reach.py [--rodinia DIR] [--prk DIR] [--babelstream DIR] [--polybench DIR]
       [--hpccg DIR] [--xsbench DIR] [--npb DIR] [--source SUITE=DIR ...] [--build DIR] [--work DIR] [--jobs N] [--json FILE]
       [--only PROGRAM ...] [--markdown FILE]

DIR is the repository's root (or the suite's own folder: rodinia/openmp, Kernels, ...).
Example, after `git clone` of the four repositories into /src:
  bench/reach/reach.py --rodinia /src/rodinia --prk /src/Kernels \\
      --babelstream /src/BabelStream --polybench /src/PolyBench-ACC --json reach.json
Exit status: 0 when every unit was analysed, 1 when some unit failed to compile (listed), 2 on
a usage error (a missing source folder, a missing clustrix-rewrite).
"""
import argparse
import concurrent.futures
import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE_EXT = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".cu", ".cuh", ".inc")

# Every unit is compiled in its OpenMP configuration (the programs choose their OpenMP code with
# #ifdef _OPENMP, PRK even its kernels' header) but without -fopenmp: the pragmas left in place
# are ignored, and omp.h (clang's) declares the run-time functions the programs call.
COMMON_FLAGS = ["-D_OPENMP=201511", "-include", "omp.h", "-Wno-unknown-pragmas",
                "-Wno-unknown-attributes", "-Wno-ignored-pragmas"]
# Programs whose original does not compile: reported, not counted, not an error.
KNOWN_BROKEN = {
    "polybench/floyd-warshall": "the original does not compile: its kernel misses a '}' "
                                "(PolyBench-ACC's OpenMP version)",
}
CXX = ["-x", "c++", "-std=c++17"]
# Rodinia's C predates C99's rules (implicit int, undeclared library functions): clang's errors
# for them are turned back into the warnings GCC gives.
C = ["-x", "c", "-std=gnu99", "-Wno-error=implicit-function-declaration",
     "-Wno-error=implicit-int", "-Wno-error=int-conversion"]
C11 = C[:2] + ["-std=gnu11", "-DPRKVERSION=\"reach\""] + C[3:]

# Each suite: the folder inside the repository that is copied, how to recognize it, and its
# programs: (name, folder of the program inside the copied tree, units, flags). Include folders
# are relative to the program's folder.
SUITES = {
    "rodinia": {
        "title": "Rodinia 3.1 (OpenMP)",
        "subdir": ["openmp", "."],
        "marker": "nw/needle.cpp",
        "programs": [
            ("b+tree", "b+tree", ["kernel/kernel_cpu.c", "kernel/kernel_cpu_2.c"], C),
            ("backprop", "backprop", ["backprop.c"], C),
            ("bfs", "bfs", ["bfs.cpp"], CXX + ["-DOPEN"]),
            ("cfd", "cfd", ["euler3d_cpu.cpp", "euler3d_cpu_double.cpp", "pre_euler3d_cpu.cpp",
                            "pre_euler3d_cpu_double.cpp"], CXX + ["-Dblock_length=8"]),
            ("heartwall", "heartwall", ["main.c"], C + ["-IAVI"]),
            ("hotspot", "hotspot", ["hotspot_openmp.cpp"], CXX),
            ("hotspot3D", "hotspot3D", ["3D.c"], C + ["-include", "omp.h"]),
            ("kmeans", "kmeans/kmeans_openmp", ["kmeans_clustering.c"], C),
            ("lavaMD", "lavaMD", ["kernel/kernel_cpu.c"], C),
            ("leukocyte", "leukocyte/OpenMP", ["find_ellipse.c", "track_ellipse.c"],
             C + ["-DOPEN", "-I../meschach_lib"]),
            ("lud", "lud", ["omp/lud_omp.c"], C + ["-Icommon"]),
            ("mummergpu", "mummergpu/src", ["mummergpu_gold.cpp"], CXX + ["-I../common/inc", "-Wno-error=reserved-user-defined-literal"]),
            ("myocyte", "myocyte", ["main.c"], C),
            ("nn", "nn", ["nn_openmp.c"], C),
            ("nw", "nw", ["needle.cpp"], CXX),
            ("particlefilter", "particlefilter", ["ex_particle_OPENMP_seq.c"], C),
            ("pathfinder", "pathfinder", ["pathfinder.cpp"], CXX),
            ("srad_v1", "srad/srad_v1", ["main.c"], C),
            ("srad_v2", "srad/srad_v2", ["srad.cpp"], CXX),
            ("streamcluster", "streamcluster", ["streamcluster_omp.cpp"], CXX),
        ],
    },
    "prk": {
        "title": "Parallel Research Kernels (OpenMP)",
        "subdir": ["."],
        "marker": "Cxx11/prk_openmp.h",
        "programs": [
            ("Cxx11/nstream", "Cxx11", ["nstream-openmp.cc"], CXX),
            ("Cxx11/stencil", "Cxx11", ["stencil-openmp.cc"], CXX),
            ("Cxx11/transpose", "Cxx11", ["transpose-openmp.cc"], CXX),
            ("Cxx11/p2p-hyperplane", "Cxx11", ["p2p-hyperplane-openmp.cc"], CXX),
            ("Cxx11/p2p-doacross", "Cxx11", ["p2p-doacross-openmp.cc"], CXX),
            ("C1z/nstream", "C1z", ["nstream-openmp.c"], C11),
            ("C1z/stencil", "C1z", ["stencil-openmp.c"], C11),
            ("C1z/stencil-2d", "C1z", ["stencil-2d-openmp.c"], C11),
            ("C1z/transpose", "C1z", ["transpose-openmp.c"], C11),
            ("C1z/transpose-2d", "C1z", ["transpose-2d-openmp.c"], C11),
            ("C1z/p2p-hyperplane", "C1z", ["p2p-hyperplane-openmp.c"], C11),
            ("C1z/p2p-hyperplane-2d", "C1z", ["p2p-hyperplane-2d-openmp.c"],
             C11),
        ],
    },
    "babelstream": {
        "title": "BabelStream (OpenMP)",
        "subdir": ["src", "."],
        "marker": "omp/OMPStream.cpp",
        "programs": [
            ("omp", ".", ["omp/OMPStream.cpp"], CXX + ["-DOMP", "-I.", "-Iomp"]),
        ],
    },
    "polybench": {
        "title": "PolyBench/C 3.2 (PolyBench-ACC, OpenMP)",
        "subdir": ["OpenMP", "."],
        "marker": "utilities/polybench.h",
        "programs": None,  # every kernel: found in the tree
    },
    "hpccg": {
        "title": "HPCCG (Mantevo, OpenMP)",
        "subdir": ["."],
        "marker": "HPC_sparsemv.cpp",
        # Its makefile's OpenMP configuration: USE_OMP = -DUSING_OMP (its pragmas sit under
        # #ifdef USING_OMP); every unit of its TEST_CPP list.
        "programs": [
            ("HPCCG", ".", ["main.cpp", "generate_matrix.cpp", "read_HPC_row.cpp",
                            "compute_residual.cpp", "mytimer.cpp", "dump_matlab_matrix.cpp",
                            "HPC_sparsemv.cpp", "HPCCG.cpp", "waxpby.cpp", "ddot.cpp",
                            "make_local_matrix.cpp", "exchange_externals.cpp",
                            "YAML_Element.cpp", "YAML_Doc.cpp"], CXX + ["-DUSING_OMP"]),
        ],
    },
    "xsbench": {
        "title": "XSBench (ANL-CESAR, openmp-threading)",
        "subdir": ["openmp-threading", "."],
        "marker": "XSbench_header.h",
        # Its makefile with OPENMP=yes: -std=gnu99 -DOPENMP.
        "programs": [
            ("openmp-threading", ".", ["Main.c", "io.c", "Simulation.c", "GridInit.c",
                                       "XSutils.c", "Materials.c"], C + ["-DOPENMP"]),
        ],
    },
    "npb": {
        "title": "NAS Parallel Benchmarks (NPB-CPP, NPB-OMP)",
        "subdir": ["NPB-OMP", "."],
        "marker": "common/npb-CPP.hpp",
        # Each benchmark's unit; the common units (c_print_results.cpp, c_randdp.cpp,
        # c_timers.cpp, wtime.cpp) hold no OpenMP loop. npbparams.hpp is generated in the work
        # copy (npb_prepare).
        "programs": [(b, b, [b.lower() + ".cpp"], CXX + ["-I../common"])
                     for b in ("EP", "CG", "MG", "FT", "IS", "BT", "SP", "LU")],
        "prepare": lambda src, dst: npb_prepare(src, dst),
    },
}
# NPB's problem class: npbparams.hpp of each benchmark is generated for it.
NPB_CLASS = "S"

PRK_MACROS = {
    "OMP_PARALLEL": "parallel", "OMP_FOR": "for", "OMP_FOR_SIMD": "for simd",
    "OMP_FOR_REDUCE": "for reduction(%s)", "OMP_PARALLEL_FOR_REDUCE": "parallel for reduction(%s)",
    "OMP_MASTER": "master", "OMP_BARRIER": "barrier", "OMP_SIMD": "simd",
    "OMP_ORDERED": "ordered", "OMP_TASK": "task", "OMP_TASKLOOP": "taskloop",
    "OMP_TASKWAIT": "taskwait",
}
THREAD_DEPENDENT = ("critical", "atomic", "task", "taskloop", "taskwait", "sections", "section",
                    "ordered", "flush", "threadprivate")
BLANKED_IN_REGION = ("parallel", "master", "single", "barrier")
REDUCE_OPS = {"+": "+", "-": "+", "*": "*", "min": "min", "max": "max", "&": "&", "|": "|",
              "^": "^"}


# ---------------------------------------------------------------------------------------------
# Scanning C and C++ text
# ---------------------------------------------------------------------------------------------

def skip_ws(text, pos):
    """Skips whitespace, comments and preprocessor lines from pos."""
    n = len(text)
    while pos < n:
        c = text[pos]
        if c in " \t\r\n\f\v":
            pos += 1
        elif text.startswith("//", pos):
            e = text.find("\n", pos)
            pos = n if e < 0 else e + 1
        elif text.startswith("/*", pos):
            e = text.find("*/", pos + 2)
            pos = n if e < 0 else e + 2
        elif c == "#" and text[text.rfind("\n", 0, pos) + 1:pos].strip() == "":
            pos = line_end(text, pos)
        else:
            break
    return pos


def line_end(text, pos):
    """End (after the newline) of the logical line at pos, with backslash continuations."""
    n = len(text)
    while True:
        e = text.find("\n", pos)
        if e < 0:
            return n
        if text[e - 1:e] == "\\" or text[e - 2:e] == "\\\r":
            pos = e + 1
            continue
        return e + 1


def skip_literal(text, pos):
    q = text[pos]
    pos += 1
    while pos < len(text) and text[pos] != q:
        pos += 2 if text[pos] == "\\" else 1
    return pos + 1


def code_chars(text, pos):
    """The positions from pos of the characters that are code: whitespace, comments,
    preprocessor lines and string or character literals are stepped over."""
    n = len(text)
    while pos < n:
        p2 = skip_ws(text, pos)
        if p2 != pos:
            pos = p2
            continue
        if text[pos] in "\"'":
            pos = skip_literal(text, pos)
            continue
        yield pos
        pos += 1


def match(text, pos, open_, close):
    """pos at an opening bracket; returns the position after its match."""
    depth = 0
    for pos in code_chars(text, pos):
        c = text[pos]
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return pos + 1
    return len(text)


WORD = re.compile(r"[A-Za-z_]\w*")


def stmt_end(text, pos):
    """pos at the start of a statement; returns the position after it."""
    pos = skip_ws(text, pos)
    n = len(text)
    if pos >= n:
        return n
    if text[pos] == "{":
        return match(text, pos, "{", "}")
    m = WORD.match(text, pos)
    word = m.group(0) if m else ""
    if word in ("for", "while", "switch"):
        p = skip_ws(text, m.end())
        if p < n and text[p] == "(":
            p = match(text, p, "(", ")")
        p = skip_ws(text, p)
        if word == "while" and p < n and text[p] == ";":
            return p + 1
        return stmt_end(text, p)
    if word == "if":
        p = skip_ws(text, m.end())
        if p < n and text[p] == "(":
            p = match(text, p, "(", ")")
        p = stmt_end(text, p)
        q = skip_ws(text, p)
        m2 = WORD.match(text, q)
        if m2 and m2.group(0) == "else":
            return stmt_end(text, m2.end())
        return p
    if word == "do":
        p = stmt_end(text, m.end())
        p = skip_ws(text, p)
        m2 = WORD.match(text, p)
        if m2 and m2.group(0) == "while":
            p = skip_ws(text, m2.end())
            p = match(text, p, "(", ")")
            p = skip_ws(text, p)
            return p + 1 if p < n and text[p] == ";" else p
        return p
    # An expression or declaration statement: up to ';' outside brackets.
    depth = 0
    for pos in code_chars(text, pos):
        c = text[pos]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return pos
        elif c == ";" and depth == 0:
            return pos + 1
    return n


def strip_comments(text):
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        if text.startswith("//", pos):
            e = text.find("\n", pos)
            pos = n if e < 0 else e
        elif text.startswith("/*", pos):
            e = text.find("*/", pos + 2)
            pos = n if e < 0 else e + 2
            out.append(" ")
        elif text[pos] in "\"'":
            e = skip_literal(text, pos)
            out.append(text[pos:e])
            pos = e
        else:
            out.append(text[pos])
            pos += 1
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Directives and conversion
# ---------------------------------------------------------------------------------------------

class Directive:
    def __init__(self, start, end, body):
        self.start, self.end = start, end      # the logical line(s) of the directive
        body = re.sub(r"\\\r?\n", " ", body)
        body = re.sub(r"/\*.*?\*/", " ", body)
        body = re.sub(r"//.*", "", body).strip()
        self.text = " ".join(body.split())
        words = self.text.split("(")[0].split()
        kind = []
        for w in words:
            if w in ("parallel", "for", "simd", "master", "single", "barrier", "critical",
                     "atomic", "task", "taskloop", "taskwait", "sections", "section", "ordered",
                     "flush", "threadprivate", "target", "teams", "distribute", "declare",
                     "end", "data", "requires", "update", "enter", "exit", "loop", "masked"):
                kind.append(w)
            else:
                break
        self.kind = " ".join(kind)
        self.clauses = self.text[len(" ".join(words[:len(kind)])):].strip() if kind else self.text


def find_directives(text):
    """Every OpenMP directive: `#pragma omp ...` lines and PRK's OMP_* macro lines."""
    out = []
    pragma = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b", re.M)
    for m in pragma.finditer(text):
        end = line_end(text, m.start())
        out.append(Directive(m.start(), end, text[m.end():end]))
    macro = re.compile(r"^[ \t]*(OMP_[A-Z_]+)\b[ \t]*", re.M)
    for m in macro.finditer(text):
        name = m.group(1)
        if name not in PRK_MACROS:
            continue
        pos = m.end()
        arg = ""
        if pos < len(text) and text[pos] == "(":
            e = match(text, pos, "(", ")")
            arg = text[pos + 1:e - 1].strip()
            pos = e
        rest_end = text.find("\n", pos)
        rest_end = len(text) if rest_end < 0 else rest_end
        if strip_comments(text[pos:rest_end]).strip():
            continue  # not alone on its line
        form = PRK_MACROS[name]
        body = form % arg if "%s" in form else (form + " " + arg).strip()
        out.append(Directive(m.start(), min(rest_end + 1, len(text)), body))
    out.sort(key=lambda d: d.start)
    return out


def clause_list(clauses):
    """[(name, argument)] of an OpenMP clause string."""
    out = []
    pos = 0
    while pos < len(clauses):
        m = re.compile(r"[\s,]*([A-Za-z_]\w*)\s*").match(clauses, pos)
        if not m:
            break
        name = m.group(1)
        pos = m.end()
        arg = None
        if pos < len(clauses) and clauses[pos] == "(":
            e = match(clauses, pos, "(", ")")
            arg = clauses[pos + 1:e - 1].strip()
            pos = e
        out.append((name, arg))
    return out


def attribute(clauses):
    """The Clustrix attribute for a worksharing loop's clauses, and the clauses dropped."""
    kept, dropped = [], []
    for name, arg in clause_list(clauses):
        if name == "reduction" and arg and ":" in arg:
            op, vars_ = arg.split(":", 1)
            op = op.strip()
            if op in REDUCE_OPS:
                kept.append("reduce(%s: %s)" % (REDUCE_OPS[op],
                                                ", ".join(v.strip() for v in vars_.split(","))))
            else:
                dropped.append("reduction(%s)" % arg)
        elif name == "collapse" and arg and arg.strip().isdigit() and 1 <= int(arg) <= 3:
            kept.append("collapse(%d)" % int(arg))
        else:
            dropped.append(name)
    return ("[[cluster::gpu_parallel(%s)]]" % ", ".join(kept) if kept
            else "[[cluster::gpu_parallel]]"), dropped


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


DECL_START = re.compile(r"\s*(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:double|float|int|long|"
                        r"short|char|bool|boolean|dcomplex|size_t)\b")


def thread_private_names(text, d, enclosing, kind):
    """Names each OpenMP thread has its own copy of in the original loop, which the conversion
    makes shared: those of its private/firstprivate/lastprivate clauses, and the arrays declared
    (not static) before the loop in the body of the parallel region that encloses it, or, for an
    orphaned `omp for` (each thread of the caller's region calls the function), in the body of
    its function. Heuristic (the declarations are found by their text)."""
    names = set()
    for name, arg in clause_list(d.clauses):
        if name in ("private", "firstprivate", "lastprivate") and arg:
            names.update(v.strip() for v in arg.split(","))
    if enclosing:
        body_start = enclosing[-1].stmt
    elif kind.startswith("for"):
        # The function body: the outermost '{' open at the directive.
        depth, body_start = 0, None
        for pos in code_chars(text, 0):
            if pos >= d.start:
                break
            c = text[pos]
            if c == "{":
                if depth == 0:
                    body_start = pos
                depth += 1
            elif c == "}":
                depth = max(0, depth - 1)
        if body_start is None or depth == 0:
            return sorted(names)
    else:
        return sorted(names)
    prefix = strip_comments(text[body_start:d.start]).lstrip("{")
    prefix = re.sub(r"^[ \t]*#.*$", "", prefix, flags=re.M)
    for stmt in re.split(r"[;{}]", prefix):
        if not DECL_START.match(stmt) or re.match(r"\s*static\b", stmt):
            continue
        stmt = re.sub(r"=[^,]*", "", stmt)   # initializers
        names.update(re.findall(r"\b([A-Za-z_]\w*)\s*\[", stmt))
    return sorted(names)


def convert(text):
    """Returns (new text, loops) where loops lists every worksharing loop found: dicts with
    pragma_line, for_line, converted (bool), reason (when not), pragma text."""
    dirs = find_directives(text)
    # The statement each directive governs.
    for d in dirs:
        d.stmt = skip_ws(text, d.end)
        d.stmt_end = d.stmt
        if d.kind.startswith("parallel") or d.kind.startswith("for") or d.kind in (
                "master", "single"):
            d.stmt_end = stmt_end(text, d.stmt)
    regions = [d for d in dirs if d.kind == "parallel"]
    edits = []   # (start, end, replacement)
    loops = []
    region_ok = {}
    for r in regions:
        body = strip_comments(text[r.end:r.stmt_end])
        reason = None
        if re.search(r"\bomp_get_(thread_num|num_threads)\s*\(", body):
            reason = "the region uses thread ids (omp_get_thread_num / omp_get_num_threads)"
        inner = [d for d in dirs if r.end <= d.start < r.stmt_end]
        for d in inner:
            if reason:
                break
            first = d.kind.split()[0] if d.kind else ""
            if first in THREAD_DEPENDENT:
                reason = "the region holds '#pragma omp %s'" % d.kind
        region_ok[r] = reason
    for d in dirs:
        k = d.kind
        if k == "simd":
            edits.append((d.start, d.end, "\n" * text.count("\n", d.start, d.end)))
            continue
        if not (k in ("parallel for", "parallel for simd", "for", "for simd")):
            continue
        enclosing = [r for r in regions if r.end <= d.start < r.stmt_end]
        reason = None
        if k.startswith("for") and enclosing:
            reason = region_ok[enclosing[-1]]
        loop_text = strip_comments(text[d.stmt:d.stmt_end])
        if not reason and re.search(r"\bomp_get_(thread_num|num_threads)\s*\(", loop_text):
            reason = "the loop uses thread ids"
        if not reason and any(n == "ordered" for n, _ in clause_list(d.clauses)):
            reason = "'ordered' clause (doacross loop)"
        if not reason and re.search(r"^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+flush\b", loop_text, re.M):
            reason = "the loop waits on flags with '#pragma omp flush' (a hand-made doacross loop)"
        m = WORD.match(text, d.stmt)
        if not reason and not (m and m.group(0) == "for"):
            reason = "the directive is not followed by a 'for' loop"
        entry = {"pragma_line": line_of(text, d.start), "for_line": line_of(text, d.stmt),
                 "pragma": "omp " + d.text, "converted": reason is None, "reason": reason,
                 "in_region": bool(enclosing), "_text": loop_text,
                 "_private": thread_private_names(text, d, enclosing, k)}
        if reason is None:
            attr, dropped = attribute(d.clauses)
            entry["attribute"] = attr
            entry["dropped"] = dropped
            indent = re.match(r"[ \t]*", text[d.start:]).group(0)
            edits.append((d.start, d.end,
                          indent + attr + "\n" * max(1, text.count("\n", d.start, d.end))))
            if enclosing:
                r = enclosing[-1]
                for x in dirs:
                    if (r.end <= x.start < r.stmt_end or x is r) and x.kind in BLANKED_IN_REGION:
                        edits.append((x.start, x.end, "\n" * text.count("\n", x.start, x.end)))
        loops.append(entry)
    # Apply edits back to front, each span once.
    seen = set()
    out = text
    for s, e, rep in sorted(set(edits), key=lambda x: -x[0]):
        if s in seen:
            continue
        seen.add(s)
        out = out[:s] + rep + out[e:]
    return out, loops


# ---------------------------------------------------------------------------------------------
# Programs, units, includes
# ---------------------------------------------------------------------------------------------

def suite_root(name, given):
    spec = SUITES[name]
    given = os.path.abspath(given)
    if not os.path.isdir(given):
        sys.exit("reach: %s: %s is not a folder" % (name, given))
    for sub in spec["subdir"]:
        cand = os.path.normpath(os.path.join(given, sub))
        if os.path.exists(os.path.join(cand, spec["marker"])):
            return cand
    sys.exit("reach: %s: %s does not look like the suite (no %s under %s)" % (
        name, given, spec["marker"], " or ".join(spec["subdir"])))


def programs_of(name, root):
    spec = SUITES[name]
    if spec["programs"] is not None:
        return spec["programs"]
    progs = []
    for f in sorted(glob.glob(os.path.join(root, "**", "*.c"), recursive=True)):
        rel = os.path.relpath(f, root)
        if rel.startswith("utilities") or "template-for-new" in rel:
            continue
        d = os.path.dirname(rel)
        progs.append((os.path.basename(d), d, [os.path.basename(f)],
                      C + ["-I" + os.path.relpath(os.path.join(root, "utilities"),
                                                  os.path.join(root, d))]))
    return progs


def npb_prepare(src, dst, cls=None):
    """Generates each NPB benchmark's npbparams.hpp in the copied tree dst, as its makefile's
    `config` target does: sys/setparams (compiled from the suite's setparams.cpp) run in the
    benchmark's folder with its name and the class; it reads ../config/make.def. Returns a
    list of problems (empty when every header was written)."""
    cls = cls or NPB_CLASS
    problems = []
    mk = os.path.join(dst, "config", "make.def")
    if not os.path.exists(mk) and os.path.exists(os.path.join(src, "config", "make.def")):
        os.makedirs(os.path.dirname(mk), exist_ok=True)
        shutil.copyfile(os.path.join(src, "config", "make.def"), mk)
    cxx = next((c for c in ("clang++-19", "clang++", "g++", "c++") if shutil.which(c)), None)
    if cxx is None:
        return ["no C++ compiler to build sys/setparams"]
    tool = os.path.join(dst, "sys", "setparams")
    os.makedirs(os.path.dirname(tool), exist_ok=True)
    p = subprocess.run([cxx, "-fopenmp", "-o", tool, os.path.join(src, "sys", "setparams.cpp")],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return ["sys/setparams.cpp does not compile: " + (p.stderr.strip().splitlines() or
                                                          ["?"])[-1]]
    for name, folder, _, _ in SUITES["npb"]["programs"]:
        d = os.path.join(dst, folder)
        if not os.path.isdir(d):
            continue
        p = subprocess.run([tool, name.lower(), cls], cwd=d, capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(os.path.join(d, "npbparams.hpp")):
            problems.append("setparams %s %s: %s" % (name, cls, (p.stdout + p.stderr).strip()))
    return problems


def copy_sources(src, dst):
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        rel = os.path.relpath(dirpath, src)
        for f in filenames:
            if f.endswith(SOURCE_EXT) or f in ("Makefile", "makefile"):
                p = os.path.join(dirpath, f)
                if os.path.getsize(p) > 4 << 20:
                    continue
                os.makedirs(os.path.join(dst, rel), exist_ok=True)
                shutil.copyfile(p, os.path.join(dst, rel, f))


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)


def include_closure(units, incdirs):
    """Files of the work tree a unit reaches through #include (quoted or angled)."""
    seen = set()
    pending = list(units)
    while pending:
        f = os.path.realpath(pending.pop())
        if f in seen or not os.path.exists(f):
            continue
        seen.add(f)
        try:
            with open(f, errors="replace") as h:
                text = h.read()
        except OSError:
            continue
        for inc in INCLUDE.findall(text):
            for d in [os.path.dirname(f)] + incdirs:
                p = os.path.join(d, inc)
                if os.path.exists(p):
                    pending.append(p)
                    break
    return seen


# ---------------------------------------------------------------------------------------------
# Causes of refusals
# ---------------------------------------------------------------------------------------------

def classify(reason, loop_text, private=()):
    """A cause class for a refusal, from its first reason's kind and message and the loop's
    text; private: the names each thread of the OpenMP original has its own copy of
    (thread_private_names). Heuristic: docs/testing.md gives the hand-checked class of each
    loop."""
    msg = reason.get("message", "")
    kind = reason.get("kind", "")
    names = re.findall(r"'([A-Za-z_]\w*)'", msg)
    if (kind == "array-dependence" and names and names[0] in private and
            "the subscripts do not depend on the loop variable" in msg):
        return ("per-thread scratch array (private in the OpenMP original: a private clause, "
                "or a local of its region or of an orphaned omp for's function)")
    if kind == "carried-scalar" and "must be a local variable of the function" in msg:
        return "reduction variable not a local (static or global)"
    if kind == "not-in-main-file":
        return "loop in an included header"
    if kind == "template":
        return "loop in a template"
    if kind == "nested":
        return "nested in another converted loop"
    if kind == "carried-scalar":
        if names and re.search(r"\b%s\s*=\s*(true|false|1|0)\s*;" % re.escape(names[0]),
                               loop_text):
            return "conditional flag"
        return "index variable declared before the loop"
    if kind in ("unsupported-call", "unsupported-construct") and re.search(
            r"calls|dynamic allocation|stream I/O", msg):
        return "callee in another translation unit or C library call"
    if kind in ("array-dependence", "non-affine-write", "unbounded-access") and re.search(
            r"for\s*\([^;]*;[^;]*\b(std::min|min|MIN|fmin)\s*\(|for\s*\([^;]*\b(std::max|MAX)\s*\(",
            loop_text):
        return "min/?: clamped bound (tiled or blocked loop)"
    if re.search(r"through '[^']*\]\s*\[|->me\[", msg):
        return "row-pointer arrays (T**)"
    if re.search(r"extent is unknown|whose extent the analysis cannot determine|"
                 r"which the analysis cannot follow", msg):
        return "gather read with unknown extent"
    if re.search(r"cannot prove the accesses disjoint|not affine in the loop variables", msg):
        return "symbolic-stride / flattened / wavefront subscripts"
    if re.search(r"iterations .* touch the same element|dependence distance|every iteration "
                 r"touches the same", msg):
        return "proven dependence (the exact test's witness)"
    if kind == "macro" or "macro" in msg:
        return "macro-spelled type"
    return "other: " + kind


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------

def rewrite_supports(binary, option):
    p = subprocess.run([binary, "--help-hidden"], capture_output=True, text=True)
    return option in p.stdout + p.stderr


def run_unit(job):
    binary, progdir, unit, flags, report, outdir, log = job
    cmd = [binary, unit, "--report=" + report]
    if outdir:
        cmd += ["--out-dir=" + outdir, "--project-root=" + progdir]
    else:
        cmd += ["-o", os.path.join(os.path.dirname(report),
                                   os.path.basename(unit) + ".clustrix.out")]
    cmd += ["--"] + COMMON_FLAGS + flags
    try:
        p = subprocess.run(cmd, cwd=progdir, capture_output=True, text=True, timeout=600)
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, out = 124, "timed out after 600 s"
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n" + out)
    records = []
    if os.path.exists(report):
        with open(report) as f:
            try:
                records = json.load(f).get("loops", [])
            except ValueError:
                pass
    return rc, out, records


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for s in SUITES:
        ap.add_argument("--" + s, metavar="DIR", help="source tree of " + SUITES[s]["title"])
    ap.add_argument("--source", action="append", default=[], metavar="SUITE=DIR",
                    help="same as --SUITE DIR (suites: %s)" % ", ".join(SUITES))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="Clustrix build folder (default: the repository's build/)")
    ap.add_argument("--work", help="work folder (default: a temporary one, removed)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", nargs="*", help="programs by name (suite/name or name)")
    ap.add_argument("--json", help="write every loop and decision to FILE")
    ap.add_argument("--markdown", help="also write the tables to FILE")
    args = ap.parse_args()

    given = {}
    for s in SUITES:
        if getattr(args, s):
            given[s] = getattr(args, s)
    for spec in args.source:
        if "=" not in spec or spec.split("=", 1)[0] not in SUITES:
            sys.stderr.write("reach: --source takes SUITE=DIR with SUITE one of %s\n" %
                             ", ".join(SUITES))
            sys.exit(2)
        k, v = spec.split("=", 1)
        given[k] = v
    if not given:
        ap.print_usage(sys.stderr)
        sys.stderr.write("reach: name at least one suite's source folder\n")
        sys.exit(2)
    binary = os.path.join(os.path.abspath(args.build), "bin", "clustrix-rewrite")
    if not os.access(binary, os.X_OK):
        sys.stderr.write("reach: no clustrix-rewrite in %s/bin (build it, or --build DIR)\n" %
                         args.build)
        sys.exit(2)
    roots = {}
    for s, d in given.items():
        try:
            roots[s] = suite_root(s, d)
        except SystemExit as e:
            sys.stderr.write(str(e) + "\n")
            sys.exit(2)
    outdir_ok = rewrite_supports(binary, "out-dir")
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="clx-reach-")
    os.makedirs(work, exist_ok=True)

    # Copy and convert every suite's tree.
    conversions = {}   # realpath -> loops
    jobs = []
    progs = []
    for s in SUITES:
        if s not in roots:
            continue
        dst = os.path.join(work, s)
        shutil.rmtree(dst, ignore_errors=True)
        copy_sources(roots[s], dst)
        if SUITES[s].get("prepare"):
            for problem in SUITES[s]["prepare"](roots[s], dst):
                sys.stderr.write("reach: %s: %s\n" % (s, problem))
        for dirpath, _, filenames in os.walk(dst):
            for f in filenames:
                if not f.endswith(SOURCE_EXT):
                    continue
                p = os.path.join(dirpath, f)
                with open(p, errors="surrogateescape") as h:
                    text = h.read()
                if "omp" not in text.lower():
                    continue
                new, loops = convert(text)
                if loops:
                    conversions[os.path.realpath(p)] = loops
                if new != text:
                    with open(p, "w", errors="surrogateescape") as h:
                        h.write(new)
        for name, folder, units, flags in programs_of(s, roots[s]):
            full = s + "/" + name
            if args.only and not (full in args.only or name in args.only):
                continue
            progdir = os.path.join(dst, folder)
            incdirs = [os.path.normpath(os.path.join(progdir, f[2:])) for f in flags
                       if f.startswith("-I")]
            units_abs = [os.path.join(progdir, u) for u in units]
            missing = [u for u in units_abs if not os.path.exists(u)]
            prog = {"suite": s, "program": name, "folder": folder, "units": units,
                    "flags": flags, "missing": [os.path.relpath(m, dst) for m in missing],
                    "files": sorted(include_closure(units_abs, incdirs)), "results": []}
            progs.append(prog)
            rdir = os.path.join(work, "reports", s, name.replace("/", "_"))
            os.makedirs(rdir, exist_ok=True)
            for u in units:
                if not os.path.exists(os.path.join(progdir, u)):
                    continue
                base = u.replace("/", "_")
                rep = os.path.join(rdir, base + ".json")
                if os.path.exists(rep):
                    os.remove(rep)
                out = os.path.join(rdir, "out-" + base) if outdir_ok else None
                jobs.append((prog, u, (binary, progdir, u, flags, rep, out,
                                       os.path.join(rdir, base + ".log"))))

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [(prog, u, ex.submit(run_unit, job)) for prog, u, job in jobs]
        for prog, u, fut in futs:
            rc, out, records = fut.result()
            prog["results"].append({"unit": u, "rc": rc, "records": records,
                                    "errors": [l for l in out.splitlines() if ": error:" in l][:5]})

    # Match decisions with conversions.
    failed_units = []
    counted = {}   # (suite, file, line) -> the program that counts the loop
    for prog in progs:
        progdir = os.path.join(work, prog["suite"], prog["folder"])
        decisions = {}
        for res in prog["results"]:
            if res["rc"] != 0 and not res["records"]:
                if prog["suite"] + "/" + prog["program"] in KNOWN_BROKEN:
                    prog["broken"] = KNOWN_BROKEN[prog["suite"] + "/" + prog["program"]]
                else:
                    failed_units.append((prog, res))
            for rec in res["records"]:
                f = rec.get("file", "")
                f = os.path.realpath(f if os.path.isabs(f) else os.path.join(progdir, f))
                decisions.setdefault((f, rec.get("line")), []).append(rec)
        loops = []
        for f in prog["files"]:
            for lp in conversions.get(f, []):
                e = {k: v for k, v in lp.items() if k not in ("_text", "_private")}
                e["file"] = os.path.relpath(f, os.path.join(work, prog["suite"]))
                recs = decisions.pop((f, lp["for_line"]), [])
                key = (prog["suite"], f, lp["for_line"])
                if key in counted:
                    e["status"] = "counted in " + counted[key]
                    loops.append(e)
                    continue
                counted[key] = prog["program"]
                if not lp["converted"]:
                    e["status"] = "not converted"
                elif not recs:
                    e["status"] = "not compiled"
                else:
                    refused = [r for r in recs if r.get("decision") != "accepted"]
                    e["status"] = "refused" if refused else "accepted"
                    e["instantiations"] = [r.get("instantiation") for r in recs
                                           if r.get("instantiation")]
                    if refused:
                        r = refused[0]
                        e["reasons"] = r.get("reasons", [])
                        e["refused_instantiations"] = [x.get("instantiation") for x in refused
                                                       if x.get("instantiation")]
                        e["cause"] = (classify(e["reasons"][0], lp["_text"], lp["_private"])
                                      if e["reasons"]
                                      else "other")
                loops.append(e)
        prog["loops"] = loops
        prog["unmatched_records"] = ["%s:%s" % (os.path.relpath(k[0], work), k[1])
                                     for k in decisions]
        for key in ("converted", "accepted", "refused", "not converted", "not compiled"):
            prog[key] = sum(1 for l in loops if l["status"] == key)
        shared = sorted({l["status"][len("counted in "):] for l in loops
                         if l["status"].startswith("counted in ")})
        prog["shared"] = sum(1 for l in loops if l["status"].startswith("counted in "))
        prog["shared_with"] = shared
        prog["loops_n"] = prog["accepted"] + prog["refused"]

    # Output.
    binrev = ""
    p = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                       text=True)
    if p.returncode == 0:
        binrev = p.stdout.strip()
    lines = ["## Reach on real OpenMP code (%s, %s, clustrix-rewrite of %s)\n" % (
        datetime.date.today().isoformat(), "checkout " + binrev if binrev else "",
        os.path.abspath(args.build)),
        "| suite | program | loops | accepted | refused | not converted | not compiled |",
        "|---|---|---|---|---|---|---|"]
    tot = {"loops": 0, "accepted": 0, "refused": 0, "nc": 0, "ncomp": 0}
    per_suite = {}
    for prog in progs:
        note = ""
        bad = [r for r in prog["results"] if r["rc"] != 0 and not r["records"]]
        if prog.get("broken"):
            note = " (not counted: %s)" % prog["broken"]
        elif prog["missing"]:
            note = " (missing: %s)" % ", ".join(prog["missing"])
        elif bad:
            note = " (**unit failed**: %s)" % ", ".join(r["unit"] for r in bad)
        if prog["shared"]:
            note += " (+%d loops of a header counted in %s)" % (prog["shared"],
                                                               ", ".join(prog["shared_with"]))
        lines.append("| %s | %s%s | %d | %d | %d | %d | %d |" % (
            prog["suite"], prog["program"], note, prog["loops_n"], prog["accepted"],
            prog["refused"], prog["not converted"], prog["not compiled"]))
        ps = per_suite.setdefault(prog["suite"], [0, 0, 0, 0])
        ps[0] += 1
        ps[1] += prog["loops_n"]
        ps[2] += prog["accepted"]
        ps[3] += prog["refused"]
        tot["loops"] += prog["loops_n"]
        tot["accepted"] += prog["accepted"]
        tot["refused"] += prog["refused"]
        tot["nc"] += prog["not converted"]
        tot["ncomp"] += prog["not compiled"]
    lines.append("| **all** | %d programs | %d | %d | %d | %d | %d |" % (
        len(progs), tot["loops"], tot["accepted"], tot["refused"], tot["nc"], tot["ncomp"]))
    lines.append("")
    for s, (n, l, a, r) in per_suite.items():
        lines.append("- %s: %d programs, %d loops, %d accepted (%.1f %%)" % (
            SUITES[s]["title"], n, l, a, 100.0 * a / l if l else 0.0))
    pct = 100.0 * tot["accepted"] / tot["loops"] if tot["loops"] else 0.0
    lines.append("\n**Total: %d of %d converted loops accepted (%.1f %%)**, %d refused; %d "
                 "worksharing loops not converted, %d converted loops in code no unit compiles.\n"
                 % (tot["accepted"], tot["loops"], pct, tot["refused"], tot["nc"], tot["ncomp"]))
    by_cause = {}
    for prog in progs:
        for l in prog["loops"]:
            if l["status"] == "refused":
                by_cause.setdefault(l["cause"], []).append((prog, l))
    lines.append("### Refusals by cause (classified from the first reason's message)\n")
    for cause, items in sorted(by_cause.items(), key=lambda x: (-len(x[1]), x[0])):
        lines.append("#### %s (%d)\n" % (cause, len(items)))
        for prog, l in items:
            r = l["reasons"][0] if l.get("reasons") else {}
            inst = (" [instantiations refused: %s]" % ", ".join(l["refused_instantiations"])
                    if l.get("refused_instantiations") else "")
            lines.append("- %s/%s `%s:%d` (%s): %s%s" % (
                prog["suite"], prog["program"], l["file"], l["for_line"], r.get("kind", "?"),
                r.get("message", "(no reason)"), inst))
            for extra in l.get("reasons", [])[1:3]:
                lines.append("  - also %s: %s" % (extra.get("kind"), extra.get("message")))
        lines.append("")
    ncl = [(p, l) for p in progs for l in p["loops"] if l["status"] == "not converted"]
    if ncl:
        lines.append("### Worksharing loops not converted\n")
        for prog, l in ncl:
            lines.append("- %s/%s `%s:%d` `%s`: %s" % (prog["suite"], prog["program"],
                                                       l["file"], l["pragma_line"], l["pragma"],
                                                       l["reason"]))
        lines.append("")
    ncomp = [(p, l) for p in progs for l in p["loops"] if l["status"] == "not compiled"]
    if ncomp:
        lines.append("### Converted loops no unit compiles\n")
        for prog, l in ncomp:
            lines.append("- %s/%s `%s:%d`" % (prog["suite"], prog["program"], l["file"],
                                             l["for_line"]))
        lines.append("")
    if failed_units:
        lines.append("### Units that failed\n")
        for prog, res in failed_units:
            lines.append("- %s/%s %s (exit %d): %s" % (prog["suite"], prog["program"],
                                                       res["unit"], res["rc"],
                                                       " | ".join(res["errors"]) or "see log"))
        lines.append("")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": datetime.date.today().isoformat(), "checkout": binrev,
                       "build": os.path.abspath(args.build), "out_dir_supported": outdir_ok,
                       "total": tot, "percent": pct,
                       "programs": [dict([(k, v) for k, v in p.items() if k != "results"] + [
                           ("unit_results", [{"unit": r["unit"], "rc": r["rc"],
                                              "errors": r["errors"]} for r in p["results"]])])
                                    for p in progs]}, f, indent=1)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("work folder: %s (reports and logs under %s/reports)" % (work, work))
    sys.exit(1 if failed_units else 0)


if __name__ == "__main__":
    main()
