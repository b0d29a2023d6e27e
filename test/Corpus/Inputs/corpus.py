#!/usr/bin/env python3
"""Classic kernels corpus: what Clustrix proves against what an expert proves.

Every kernel in kernels/ is a small C89-style program (PolyBench-like), in C (.c) and in C++
(.cpp). Each loop an OpenMP programmer would parallelize carries [[cluster::gpu_parallel]],
and some genuinely sequential loops carry it too, as negative cases. The line before each
annotation is a marker comment:

    /* loop NAME: parallel|sequential [(why)][; omp: OPENMP CLAUSES] */

NAME is unique in its file; the OpenMP clauses are those an expert adds to
`#pragma omp parallel for` (private inner counters and temporaries, reductions the attribute
does not name). The attribute's own reduce and collapse clauses are translated.

Two checks, each optional:

  evidence  The written verdict, checked without Clustrix. A variant of the program is built
            with OpenMP in which each annotated loop can run as written, in reverse iteration
            order (CORPUS_REVERSE=L), or as `#pragma omp parallel for` (CORPUS_OMP=L), one loop
            at a time, chosen at run time. A loop whose reversed run and whose OpenMP runs
            (OMP_NUM_THREADS 2, 3, 5, 8, several times) all print the serial output is
            parallel; otherwise sequential. A loop with a floating-point reduce clause is
            compared within a relative tolerance (1e-9), every other loop exactly. A verdict
            that the evidence contradicts is a disagreement.

  clustrix  Each kernel built through clustrix++ with --clustrix-report: which loops were
            accepted, and the program run on cpu:1, 3, 4 and 7 with the runtime's thresholds
            lifted, its output compared with the serial build's (within the tolerance where an
            accepted loop has a floating-point reduce clause). A loop counts as parallel or
            sequential by its evidence when --evidence ran, else as written. Wrong: a
            sequential loop accepted, or an output that differs. Every refused parallel loop is
            listed with all its reasons (--details), grouped by the kind of the first.
            C files go through `clustrix++ -std=c99`; while clustrix++ cannot compile C, the C
            kernels are reported as not yet supported instead of failing the run (--require-c
            makes that a failure).

The exit status is 0 only when there is no disagreement, no wrongly accepted loop, no wrong
output, no failure to build or run, and each measured acceptance rate is at or above its
--min-accept-* threshold.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, 'kernels')
DEVICE_COUNTS = (1, 3, 4, 7)
THREAD_COUNTS = (2, 3, 5, 8)
RTOL = 1e-9
ATOL = 1e-12
CLEARED_ENV = ('CLUSTRIX_DEVICES', 'CLUSTRIX_CONFIG', 'CLUSTRIX_FAULT', 'CLUSTRIX_SCHEDULE',
               'CLUSTRIX_CHUNK_SIZE', 'CLUSTRIX_AUTO_GPU_PARALLEL', 'CLUSTRIX_LOG',
               'CLUSTRIX_MAX_GPU_PARALLEL_JOBS', 'CLUSTRIX_LOG_LEVEL', 'OMP_NUM_THREADS',
               'CORPUS_REVERSE', 'CORPUS_OMP')
LANGS = {'cpp': 'C++', 'c': 'C', 'c-as-cxx': 'C compiled as C++ (preview)'}
LANG_OF = {'c-as-cxx': 'c'}


# ---------------------------------------------------------------------------------------------
# Reading a kernel: markers, attributes, loop headers and bodies
# ---------------------------------------------------------------------------------------------

MARKER = re.compile(r'/\*\s*loop\s+([A-Za-z_][\w]*)\s*:\s*(parallel|sequential)\b(.*?)\*/',
                    re.S)
ATTR = re.compile(r'\[\[\s*cluster::gpu_parallel\b')


class Loop:
    """One annotated loop of a kernel, as written in its file."""

    def __init__(self, kernel, name, verdict, note, omp, clauses, line):
        self.kernel = kernel
        self.name = name                 # kernel.tag
        self.verdict = verdict           # 'parallel' or 'sequential', as written
        self.note = note
        self.omp = omp                   # extra OpenMP clauses from the marker
        self.clauses = clauses           # the attribute's clause text
        self.line = line                 # line of the 'for' keyword
        self.collapse = 1
        m = re.search(r'collapse\s*\(\s*(\d+)\s*\)', clauses)
        if m:
            self.collapse = int(m.group(1))
        self.reductions = re.findall(r'reduce\s*\(\s*([^:\s]+)\s*:\s*([^)]*)\)', clauses)
        self.float_reduce = bool(self.reductions)

    def omp_clauses(self):
        parts = []
        for op, names in self.reductions:
            parts.append('reduction(%s: %s)' % (op, names.strip()))
        if self.collapse > 1:
            parts.append('collapse(%d)' % self.collapse)
        if self.omp:
            parts.append(self.omp)
        return ' '.join(parts)


def skip_space(text, pos):
    """Skips blanks and comments."""
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
        elif text.startswith('/*', pos):
            pos = text.index('*/', pos) + 2
        elif text.startswith('//', pos):
            pos = text.index('\n', pos)
        else:
            break
    return pos


def match_close(text, pos):
    """pos is at an opening bracket; returns the position after its partner."""
    pairs = {'(': ')', '[': ']', '{': '}'}
    stack = []
    i = pos
    while i < len(text):
        ch = text[i]
        if text.startswith('/*', i):
            i = text.index('*/', i) + 2
            continue
        if text.startswith('//', i):
            i = text.index('\n', i)
            continue
        if ch in '"\'':
            j = i + 1
            while text[j] != ch:
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            continue
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch in ')]}':
            if not stack or stack.pop() != ch:
                raise ValueError('unbalanced %r at offset %d' % (ch, i))
            if not stack:
                return i + 1
        i += 1
    raise ValueError('unbalanced bracket from offset %d' % pos)


def statement_end(text, pos):
    """Returns the position after the statement that starts at pos (after blanks)."""
    pos = skip_space(text, pos)
    if text[pos] == '{':
        return match_close(text, pos)
    if text.startswith('[[', pos):
        return statement_end(text, match_close(text, pos))
    m = re.match(r'(for|while|if|switch)\b', text[pos:])
    if m:
        p = skip_space(text, pos + len(m.group(1)))
        end = statement_end(text, match_close(text, p))
        if m.group(1) == 'if':
            q = skip_space(text, end)
            if re.match(r'else\b', text[q:]):
                end = statement_end(text, q + 4)
        return end
    if re.match(r'do\b', text[pos:]):
        end = statement_end(text, pos + 2)
        q = skip_space(text, end)
        q = match_close(text, skip_space(text, q + 5))
        return text.index(';', q) + 1
    i = pos
    while text[i] != ';':
        if text[i] in '([{':
            i = match_close(text, i)
        else:
            i += 1
    return i + 1


class ForStmt:
    """A 'for' statement: where its header and body are."""

    def __init__(self, text, pos):
        assert text.startswith('for', pos)
        self.start = pos
        self.open = skip_space(text, pos + 3)
        self.close = match_close(text, self.open)        # after ')'
        self.header = text[self.open + 1:self.close - 1]
        self.end = statement_end(text, self.close)
        self.body = (self.close, self.end)

    def inner_for(self, text):
        """The 'for' statement that is the whole body (perfect nesting), or None."""
        p = skip_space(text, self.close)
        if text[p] == '{':
            q = skip_space(text, p + 1)
            if text.startswith('for', q) and skip_space(text, statement_end(text, q)) == \
                    self.end - 1:
                return ForStmt(text, q)
            return None
        if re.match(r'for\b', text[p:]):
            return ForStmt(text, p)
        return None


def split_header(header):
    parts, depth, cur = [], 0, ''
    for ch in header:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == ';' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    parts.append(cur.strip())
    if len(parts) != 3:
        raise ValueError('not a for header: %r' % header)
    return parts


def reverse_header(header):
    """The header that runs the same iterations in the opposite order."""
    init, cond, incr = split_header(header)
    m = re.fullmatch(r'(?:(?:unsigned\s+)?(?:int|long|long long|size_t)\s+)?(\w+)\s*=\s*(.+)',
                     init, re.S)
    if not m:
        raise ValueError('cannot reverse init %r' % init)
    var, start = m.group(1), m.group(2).strip()
    m = re.fullmatch(re.escape(var) + r'\s*(<=|<|>=|>)\s*(.+)', cond, re.S)
    if not m:
        raise ValueError('cannot reverse condition %r' % cond)
    op, bound = m.group(1), m.group(2).strip()
    v = re.escape(var)
    if re.fullmatch(r'(%s\+\+|\+\+%s)' % (v, v), incr):
        step = 1
    elif re.fullmatch(r'(%s--|--%s)' % (v, v), incr):
        step = -1
    else:
        m = re.fullmatch(r'%s\s*(\+=|-=)\s*(\d+)' % v, incr)
        if not m:
            raise ValueError('cannot reverse increment %r' % incr)
        step = int(m.group(2)) * (1 if m.group(1) == '+=' else -1)
    if step > 0 and op in ('<', '<='):
        last = '(%s) - 1' % bound if op == '<' else '(%s)' % bound
        if step == 1:
            return '%s = %s; %s >= (%s); %s--' % (var, last, var, start, var)
        return ('%s = %s >= (%s) ? (%s) + ((%s - (%s)) / %d) * %d : (%s) - 1; %s >= (%s); '
                '%s -= %d' % (var, last, start, start, last, start, step, step, start, var,
                              start, var, step))
    if step < 0 and op in ('>', '>='):
        last = '(%s) + 1' % bound if op == '>' else '(%s)' % bound
        if step == -1:
            return '%s = %s; %s <= (%s); %s++' % (var, last, var, start, var)
        s = -step
        return ('%s = %s <= (%s) ? (%s) - (((%s) - %s) / %d) * %d : (%s) + 1; %s <= (%s); '
                '%s += %d' % (var, last, start, start, start, last, s, s, start, var, start,
                              var, s))
    raise ValueError('cannot reverse %r' % header)


class Kernel:
    """One source file of the corpus and its annotated loops."""

    def __init__(self, path):
        self.path = path
        self.file = os.path.basename(path)
        self.stem, ext = os.path.splitext(self.file)
        self.lang = ext[1:]
        self.text = open(path).read()
        self.loops = []
        self.sites = []          # (marker end, attribute start, attribute end, for position)
        self.errors = []
        for m in MARKER.finditer(self.text):
            tag, verdict, rest = m.group(1), m.group(2), m.group(3)
            note, omp = rest, ''
            if ';' in rest:
                note, tail = rest.split(';', 1)
                om = re.match(r'\s*omp:\s*(.*)', tail, re.S)
                if not om:
                    self.errors.append('marker %s: expected "omp:" after ";"' % tag)
                omp = om.group(1).strip() if om else ''
            note = note.strip().strip('()').strip()
            a = skip_space(self.text, m.end())
            am = ATTR.match(self.text, a)
            if not am:
                self.errors.append('marker %s is not followed by [[cluster::gpu_parallel]]' % tag)
                continue
            aend = match_close(self.text, a)
            clauses = self.text[a:aend]
            f = skip_space(self.text, aend)
            if not self.text.startswith('for', f):
                self.errors.append('marker %s: the attribute is not followed by a for loop' % tag)
                continue
            line = self.text.count('\n', 0, f) + 1
            self.loops.append(Loop(self, '%s.%s' % (self.stem, tag), verdict, note, omp,
                                   clauses, line))
            self.sites.append((m.end(), a, aend, f))
        names = [l.name for l in self.loops]
        for n in set(names):
            if names.count(n) > 1:
                self.errors.append('loop name %s is used twice' % n)
        unmarked = len(ATTR.findall(self.text)) - len(self.loops)
        if unmarked:
            self.errors.append('%d annotated loops have no marker' % unmarked)

    def variant(self):
        """The evidence variant: every annotated loop runs as written, reversed or under OpenMP
        according to CORPUS_REVERSE / CORPUS_OMP (the loop's number in the file)."""
        text = self.text
        index = {site[3]: n for n, site in enumerate(self.sites)}
        attrs = {site[1]: site[2] for site in self.sites}

        def emit(lo, hi):
            """Text of [lo, hi) with attributes dropped and annotated loops replaced."""
            out, p = [], lo
            while p < hi:
                nexts = [q for q in list(index) + list(attrs) if p <= q < hi]
                if not nexts:
                    out.append(text[p:hi])
                    break
                q = min(nexts)
                out.append(text[p:q])
                if q in attrs:
                    p = attrs[q]
                    continue
                n = index[q]
                loop = self.loops[n]
                f = ForStmt(text, q)
                out.append(replace(f, n, loop))
                p = f.end
            return ''.join(out)

        def reversed_nest(f, depth):
            inner = f.inner_for(text) if depth > 1 else None
            head = 'for (%s)' % reverse_header(f.header)
            if inner is None:
                return head + emit(f.close, f.end)
            return head + emit(f.close, inner.start) + reversed_nest(inner, depth - 1) + \
                emit(inner.end, f.end)

        def replace(f, n, loop):
            fwd = 'for' + emit(f.start + 3, f.end)
            return ('if (corpus_reverse == %d) {\n%s\n} else if (corpus_omp == %d) {\n'
                    '#pragma omp parallel for %s\n%s\n} else {\n%s\n}'
                    % (n, reversed_nest(f, loop.collapse), n, loop.omp_clauses(), fwd, fwd))

        prelude = ('#include <stdlib.h>\n'
                   'static int corpus_reverse = -1, corpus_omp = -1;\n'
                   '__attribute__((constructor)) static void corpus_modes(void) {\n'
                   '  const char *s = getenv("CORPUS_REVERSE");\n'
                   '  if (s) corpus_reverse = atoi(s);\n'
                   '  s = getenv("CORPUS_OMP");\n'
                   '  if (s) corpus_omp = atoi(s);\n'
                   '}\n'
                   '#line 1 "%s"\n' % self.path)
        return prelude + emit(0, len(text))


# ---------------------------------------------------------------------------------------------
# Building, running, comparing
# ---------------------------------------------------------------------------------------------

def run(cmd, env=None, timeout=120):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                           timeout=timeout)
        return p.returncode, p.stdout.decode('utf-8', 'replace'), \
            p.stderr.decode('utf-8', 'replace')
    except subprocess.TimeoutExpired:
        return 'timeout', '', 'timed out after %d s' % timeout


def compare(expected, actual, tolerant):
    """None when equal (within the tolerance if tolerant), else the first difference."""
    if expected == actual:
        return None
    el, al = expected.splitlines(), actual.splitlines()
    if len(el) != len(al):
        return '%d lines instead of %d' % (len(al), len(el))
    for n, (e, a) in enumerate(zip(el, al)):
        if e == a:
            continue
        et, at = e.split(), a.split()
        bad = not tolerant or len(et) != len(at)
        if not bad:
            for x, y in zip(et, at):
                if x == y:
                    continue
                try:
                    fx, fy = float(x), float(y)
                except ValueError:
                    bad = True
                    break
                if abs(fx - fy) > RTOL * max(abs(fx), abs(fy)) + ATOL:
                    bad = True
                    break
        if bad:
            return 'line %d: expected "%s", got "%s"' % (n + 1, short(e), short(a))
    return None


def short(s, n=90):
    return s if len(s) <= n else s[:n] + '...'


class Tools:
    def __init__(self, args):
        self.cc = args.cc
        self.cxx = args.cxx
        self.clustrix = args.clustrix_cxx
        self.opt = args.opt
        self.reps = args.omp_reps
        self.work = args.work
        self.env = {k: v for k, v in os.environ.items() if k not in CLEARED_ENV}
        self.expected = {}

    def compile_cmd(self, k, src, exe, extra=()):
        if k.lang == 'c':
            return [self.cc, '-std=c99', self.opt, '-Wno-unknown-attributes',
                    '-Wno-c23-extensions', '-I', KERNELS] + list(extra) + [src, '-o', exe,
                                                                             '-lm']
        return [self.cxx, '-std=c++17', self.opt, '-Wno-unknown-attributes', '-I',
                KERNELS] + list(extra) + [src, '-o', exe]

    def folder(self, k):
        d = os.path.join(self.work, k.file)
        os.makedirs(d, exist_ok=True)
        return d

    def serial(self, k):
        """Builds and runs the program as written, without Clustrix: the expected output."""
        if k.path in self.expected:
            return self.expected[k.path]
        exe = os.path.join(self.folder(k), 'serial')
        st, out, err = run(self.compile_cmd(k, k.path, exe))
        if st != 0:
            raise RuntimeError('serial build of %s failed:\n%s' % (k.file, err))
        st, out, err = run([exe], env=self.env)
        if st != 0:
            raise RuntimeError('serial run of %s failed (%s):\n%s' % (k.file, st, err))
        if re.search(r'\b(nan|inf)\b', out, re.I):
            raise RuntimeError('%s prints a NaN or an infinity' % k.file)
        self.expected[k.path] = out
        return out


def evidence(tools, k):
    """Runs every annotated loop of k reversed and under OpenMP; returns a result dict."""
    res = {'file': k.file, 'lang': k.lang, 'loops': [], 'errors': list(k.errors)}
    try:
        expected = tools.serial(k)
        d = tools.folder(k)
        src = os.path.join(d, 'variant.' + k.lang)
        with open(src, 'w') as f:
            f.write(k.variant())
        exe = os.path.join(d, 'variant')
        st, out, err = run(tools.compile_cmd(k, src, exe, ['-fopenmp']))
        if st != 0:
            raise RuntimeError('variant build of %s failed:\n%s' % (k.file, err))
        st, out, err = run([exe], env=tools.env)
        if st != 0 or out != expected:
            raise RuntimeError('the variant of %s, run as written, does not print the serial '
                               'output' % k.file)
    except (RuntimeError, ValueError) as e:
        res['errors'].append(str(e))
        return res
    for n, loop in enumerate(k.loops):
        env = dict(tools.env, CORPUS_REVERSE=str(n))
        st, out, err = run([exe], env=env)
        diffs = []
        rev = 'exit %s' % st if st != 0 else compare(expected, out, loop.float_reduce)
        if rev:
            diffs.append('reversed: ' + rev)
        omp_bad = 0
        first_omp = None
        for rep in range(tools.reps):
            for t in THREAD_COUNTS:
                env = dict(tools.env, CORPUS_OMP=str(n), OMP_NUM_THREADS=str(t))
                st, out, err = run([exe], env=env)
                why = 'exit %s' % st if st != 0 else compare(expected, out, loop.float_reduce)
                if why:
                    omp_bad += 1
                    if first_omp is None:
                        first_omp = 'OpenMP, %d threads: %s' % (t, why)
        if first_omp:
            diffs.append('%s (%d of %d runs differ)' % (first_omp, omp_bad,
                                                       tools.reps * len(THREAD_COUNTS)))
        found = 'sequential' if diffs else 'parallel'
        res['loops'].append({'name': loop.name, 'file': k.file, 'line': loop.line,
                             'verdict': loop.verdict, 'evidence': found, 'why': diffs,
                             'agrees': found == loop.verdict})
    return res


def clustrix(tools, k, c_support, c_as_cxx):
    """Builds k through clustrix++, reads the report, runs on every device count. A C kernel,
    while clustrix++ cannot compile C, is only measured with c_as_cxx, compiled as C++ (a
    preview, reported apart)."""
    res = {'file': k.file, 'lang': k.lang, 'loops': [], 'errors': list(k.errors),
           'outputs': [], 'supported': True}
    preview = False
    if k.lang == 'c' and c_support is not True:
        res['supported'] = False
        res['unsupported'] = c_support
        res['annotated'] = len(k.loops)
        if not c_as_cxx:
            return res
        preview = res['preview'] = True
    try:
        expected = tools.serial(k)
    except RuntimeError as e:
        res['errors'].append(str(e))
        return res
    d = tools.folder(k)
    exe = os.path.join(d, 'clustrix')
    report = os.path.join(d, 'report.json')
    cmd = [tools.clustrix, tools.opt, '--clustrix-remarks=off', '--clustrix-refusals=ignore',
           '--clustrix-report=' + report, '-I', KERNELS]
    if preview:
        cmd += ['-x', 'c++', '-std=c++17', '-Drestrict=__restrict']
    elif k.lang == 'c':
        cmd += ['-std=c99']
    cmd += [k.path, '-o', exe]
    if k.lang == 'c':
        cmd += ['-lm']
    if os.path.exists(report):
        os.remove(report)
    st, out, err = run(cmd, timeout=300)
    if st != 0 and preview:
        lines = [l for l in err.splitlines() if 'error:' in l] or ['exit %s' % st]
        res['not_cxx'] = lines[0].strip()
        return res
    if st != 0:
        res['errors'].append('clustrix++ failed on %s (%s):\n%s' % (k.file, st, err.strip()))
        return res
    try:
        decisions = json.load(open(report))['loops']
    except (OSError, ValueError, KeyError) as e:
        res['errors'].append('no report for %s: %s' % (k.file, e))
        return res
    by_line = {}
    for dec in decisions:
        if os.path.basename(dec.get('file', '')) == k.file:
            by_line[dec['line']] = dec
    tolerant = False
    for loop in k.loops:
        dec = by_line.get(loop.line)
        if dec is None:
            res['errors'].append('the report has no decision for %s (line %d)'
                                 % (loop.name, loop.line))
            continue
        accepted = dec['decision'] == 'accepted'
        if accepted and any(r.get('clause') for r in dec.get('reductions', [])):
            tolerant = True
        res['loops'].append({'name': loop.name, 'file': k.file, 'line': loop.line,
                             'verdict': loop.verdict, 'accepted': accepted, 'reasons': dec.get('reasons', []),
                             'privates': dec.get('privates', [])})
    for n in DEVICE_COUNTS:
        env = dict(tools.env, CLUSTRIX_DEVICES='cpu:%d' % n, CLUSTRIX_SERIAL_THRESHOLD='0',
                   CLUSTRIX_MIN_ITERS_PER_DEVICE='1')
        st, out, err = run([exe], env=env)
        why = 'exit %s: %s' % (st, short(err.strip(), 300)) if st != 0 else \
            compare(expected, out, tolerant)
        res['outputs'].append({'devices': n, 'ok': why is None, 'why': why})
    return res


def probe_c_support(tools):
    """True when clustrix++ compiles an annotated C file, else the reason it does not."""
    d = os.path.join(tools.work, 'c-probe')
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, 'probe.c')
    with open(src, 'w') as f:
        f.write('static double a[16];\nint main(void)\n{\n  int i;\n'
                '  [[cluster::gpu_parallel]]\n  for (i = 0; i < 16; i++)\n'
                '    a[i] = 2.0 * i;\n  return a[3] == 6.0 ? 0 : 1;\n}\n')
    report = os.path.join(d, 'report.json')
    st, out, err = run([tools.clustrix, '-std=c99', '--clustrix-remarks=off',
                        '--clustrix-report=' + report, src, '-o', os.path.join(d, 'probe')])
    if st != 0:
        lines = [l for l in err.splitlines() if 'error' in l] or err.splitlines() or ['?']
        return 'clustrix++ -std=c99 cannot compile C: ' + lines[0].strip()
    try:
        if not json.load(open(report))['loops']:
            return 'clustrix++ compiles C but reports no loop'
    except (OSError, ValueError, KeyError):
        return 'clustrix++ compiles C but writes no report'
    return True


# ---------------------------------------------------------------------------------------------
# Summaries
# ---------------------------------------------------------------------------------------------

def pct(a, b):
    return 100.0 * a / b if b else 100.0


def summarize_evidence(results, lang, out):
    rs = [r for r in results if r['lang'] == lang]
    loops = [l for r in rs for l in r['loops']]
    par = sum(1 for l in loops if l['verdict'] == 'parallel')
    seq = len(loops) - par
    bad = [l for l in loops if not l['agrees']]
    errors = [(r['file'], e) for r in rs for e in r['errors']]
    for l in bad:
        out.append('DISAGREEMENT %s (line %d): written %s, evidence says %s: %s'
                   % (l['name'], l['line'], l['verdict'], l['evidence'],
                      '; '.join(l['why']) or 'reversed and OpenMP runs equal the serial run'))
    for f, e in errors:
        out.append('ERROR %s: %s' % (f, e))
    out.append('evidence %s: %d kernels, %d parallel and %d sequential loops, %d disagreements, '
               '%d errors' % (LANGS[lang], len(rs), par, seq, len(bad), len(errors)))
    return len(bad) + len(errors)


def summarize_clustrix(results, lang, threshold, out, details, checked):
    """Prints the C++ or C measurement; returns (failures, totals). checked maps a loop's
    name to the verdict its evidence gave (when --evidence ran), else the written one is used."""
    rs = [r for r in results if r['lang'] == lang]
    name = LANGS[lang]
    if rs and not any(r['supported'] for r in rs):
        out.append('clustrix %s: not yet supported (%s); %d kernels, %d annotated loops waiting'
                   % (name, rs[0]['unsupported'], len(rs),
                      sum(r['annotated'] for r in rs)))
        if not any(r.get('preview') for r in rs):
            return 0, None
        skipped = [r for r in rs if 'not_cxx' in r]
        for r in skipped:
            out.append('preview: %s does not compile as C++: %s' % (r['file'], r['not_cxx']))
        rs = [dict(r, lang='c-as-cxx', supported=True) for r in rs if 'not_cxx' not in r]
        f, _ = summarize_clustrix(rs, 'c-as-cxx', None, out, details, checked)
        return f, None
    loops = [l for r in rs for l in r['loops']]
    for l in loops:
        l['checked'] = checked.get((LANG_OF.get(lang, lang), l['name']), l['verdict'])
    par = [l for l in loops if l['checked'] == 'parallel']
    seq = [l for l in loops if l['checked'] == 'sequential']
    acc = [l for l in par if l['accepted']]
    wrong = [l for l in seq if l['accepted']]
    wrong_out = [(r['file'], o) for r in rs for o in r['outputs'] if not o['ok']]
    errors = [(r['file'], e) for r in rs for e in r['errors']]
    if details:
        out.append('%s per kernel (parallel loops accepted, sequential loops accepted, output):'
                   % name)
        for r in rs:
            p = [l for l in r['loops'] if l['checked'] == 'parallel']
            s = [l for l in r['loops'] if l['checked'] == 'sequential']
            o = 'ok' if r['outputs'] and all(x['ok'] for x in r['outputs']) else \
                ('DIFFERS' if r['outputs'] else 'not run')
            refused = [l['name'].split('.', 1)[1] for l in p if not l['accepted']]
            out.append('  %-20s %2d/%-2d  %d/%d  %-7s%s'
                       % (r['file'], sum(1 for l in p if l['accepted']), len(p),
                          sum(1 for l in s if l['accepted']), len(s), o,
                          ('  refused: ' + ', '.join(refused)) if refused else ''))
    for l in wrong:
        out.append('WRONGLY ACCEPTED %s (%s:%d): a sequential loop'
                   % (l['name'], l['file'], l['line']))
    for f, o in wrong_out:
        out.append('WRONG OUTPUT %s on cpu:%d: %s' % (f, o['devices'], o['why']))
    for f, e in errors:
        out.append('ERROR %s: %s' % (f, e))
    rate = pct(len(acc), len(par))
    if details:
        kinds = collections.OrderedDict()
        for l in sorted(par, key=lambda l: l['name']):
            if l['accepted']:
                continue
            kind = l['reasons'][0]['kind'] if l['reasons'] else '(no reason)'
            kinds.setdefault(kind, []).append(l)
        if kinds:
            out.append('%s refused parallel loops (%d), by the kind of the first reason:'
                       % (name, len(par) - len(acc)))
        for kind, ls in sorted(kinds.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            out.append('  %s (%d)' % (kind, len(ls)))
            for l in ls:
                first = True
                for r in l['reasons'] or [{'message': ''}]:
                    at = ' [line %d]' % r['line'] if r.get('line') else ''
                    if first:
                        out.append('    %-24s %-20s %s%s' % (l['name'], '%s:%d' % (l['file'],
                                                                                 l['line']),
                                                             r['message'], at))
                        first = False
                    else:
                        out.append('    %-24s %-20s also %s: %s%s' % ('', '', r['kind'],
                                                                     r['message'], at))
    nwrong = len(wrong) + len(wrong_out)
    out.append('clustrix %s: %d kernels, %d parallel loops, %d accepted (%.1f %%), %d wrong '
               '(%d sequential loops accepted of %d, %d wrong outputs), %d errors'
               % (name, len(rs), len(par), len(acc), rate, nwrong, len(wrong), len(seq),
                  len(wrong_out), len(errors)))
    failures = nwrong + len(errors)
    if threshold is not None and rate + 1e-9 < threshold:
        out.append('REGRESSION %s: acceptance %.1f %% is below the threshold %.1f %%'
                   % (name, rate, threshold))
        failures += 1
    return failures, (len(par), len(acc), nwrong, len(errors))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--evidence', action='store_true', help='check the written verdicts')
    ap.add_argument('--clustrix', action='store_true', help='measure Clustrix on the corpus')
    ap.add_argument('--lang', default='cpp,c', help='cpp, c or both (default cpp,c)')
    ap.add_argument('--kernels', default=KERNELS,
                    help='folder of the kernels (default: the corpus); corpus.h is always found')
    ap.add_argument('--only', nargs='*', default=[], help='kernel names (file stems)')
    ap.add_argument('--cc', default='clang-19')
    ap.add_argument('--cxx', default='clang++-19')
    ap.add_argument('--clustrix-cxx', default=None)
    ap.add_argument('--opt', default='-O1')
    ap.add_argument('--omp-reps', type=int, default=3, help='runs per OpenMP thread count')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--min-accept-cpp', type=float, default=None)
    ap.add_argument('--min-accept-c', type=float, default=None)
    ap.add_argument('--c-as-cxx', action='store_true',
                    help='while clustrix++ cannot compile C, measure the C kernels compiled as '
                    'C++ (-x c++ -Drestrict=__restrict), reported apart as a preview')
    ap.add_argument('--require-c', action='store_true',
                    help='fail, instead of reporting the C kernels as not yet supported, when '
                    'clustrix++ cannot compile C')
    ap.add_argument('--work', default=None, help='build folder (default: a temporary one)')
    ap.add_argument('--json', default=None, help='write every result to this file')
    ap.add_argument('--details', action='store_true',
                    help='per-kernel table and the refusal reasons of the parallel loops')
    args = ap.parse_args()
    if not args.evidence and not args.clustrix:
        ap.error('give --evidence, --clustrix or both')
    if args.clustrix and not args.clustrix_cxx:
        ap.error('--clustrix needs --clustrix-cxx')
    langs = [l for l in args.lang.split(',') if l]
    for l in langs:
        if l not in ('cpp', 'c'):
            ap.error('unknown language %r' % l)
    keep = args.work is not None
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(prefix='corpus-'))
    os.makedirs(args.work, exist_ok=True)
    tools = Tools(args)

    kernels = []
    for f in sorted(os.listdir(args.kernels)):
        stem, ext = os.path.splitext(f)
        if ext[1:] in langs and (not args.only or stem in args.only):
            kernels.append(Kernel(os.path.join(args.kernels, f)))
    start = time.time()
    out = []
    failures = 0
    results = {}
    checked = {}
    disagreements = evidence_errors = 0
    totals = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        # The serial builds first, once per kernel, shared by both checks.
        list(pool.map(lambda k: _safe_serial(tools, k), kernels))
        if args.evidence:
            results['evidence'] = list(pool.map(lambda k: evidence(tools, k), kernels))
            for r in results['evidence']:
                for l in r['loops']:
                    checked[(r['lang'], l['name'])] = l['evidence']
            for lang in langs:
                failures += summarize_evidence(results['evidence'], lang, out)
            disagreements = sum(1 for r in results['evidence'] for l in r['loops']
                                if not l['agrees'])
            evidence_errors = sum(len(r['errors']) for r in results['evidence'])
        if args.clustrix:
            c_support = probe_c_support(tools) if 'c' in langs else None
            results['clustrix'] = list(pool.map(
                lambda k: clustrix(tools, k, c_support, args.c_as_cxx), kernels))
            for lang in langs:
                threshold = args.min_accept_cpp if lang == 'cpp' else args.min_accept_c
                f, t = summarize_clustrix(results['clustrix'], lang, threshold, out,
                                          args.details, checked)
                if t is None and args.require_c:
                    out.append('ERROR: --require-c, and the C kernels could not be measured')
                    f += 1
                failures += f
                totals.append((lang, t))
    measured = [t for _, t in totals if t is not None]
    waiting = [LANGS[l] for l, t in totals if t is None]
    if measured:
        par, acc, wrong, errors = [sum(x) for x in zip(*measured)]
        out.append('corpus: %d parallel loops, %d accepted (%.1f %%), %d wrong, %d '
                   'disagreements, %d errors%s'
                   % (par, acc, pct(acc, par), wrong, disagreements, errors + evidence_errors,
                      ('; %s not yet measured' % ' and '.join(waiting)) if waiting else ''))
    for line in out:
        print(line)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=1, sort_keys=True)
    if failures and not keep:
        print('builds and reports kept in %s' % args.work)
    elif not keep:
        shutil.rmtree(args.work, ignore_errors=True)
    print('corpus: %s in %.0f s' % ('PASS' if failures == 0 else 'FAIL', time.time() - start))
    return 0 if failures == 0 else 1


def _safe_serial(tools, k):
    try:
        tools.serial(k)
    except RuntimeError:
        pass  # reported again, with the message, by the check that needs it


if __name__ == '__main__':
    sys.exit(main())
