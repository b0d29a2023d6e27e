#!/usr/bin/env python3
"""Differential tester: random loop programs, serial against Clustrix.

Generates programs with gen.py in batches (one translation unit per batch, many programs each),
builds every batch twice -- serially with plain clang++ and through clustrix++ -- runs the serial
build once and the Clustrix build on 1, 3, 4 and 7 CPU workers with the runtime's thresholds
lifted, and compares the outputs program by program. Counts:

  mismatch          a program whose output differs from the serial output (on any device count)
  crash             the compiler or the program died (signal, non-zero exit, time limit)
  compile failure   clustrix++ rejected a program that plain clang++ compiles, or (--nvrtc)
                    the real NVRTC rejected a kernel of its batch: on a GPU its chunks would
                    fail and re-run on CPU workers, which no emulated run shows

Every failing program is written to the --keep folder as a single-program reproducer, reduced
to the one annotated loop that fails on its own when there is one. The last line printed is
  difftest: N programs, M mismatches, C crashes, F compile failures
and the exit status is 0 only when all three counts are 0.
"""

import argparse
import collections
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, 'gen.py')
DEVICE_COUNTS = (1, 3, 4, 7)
RUN_ENV = {'CLUSTRIX_SERIAL_THRESHOLD': '0', 'CLUSTRIX_MIN_ITERS_PER_DEVICE': '1',
           'CLUSTRIX_LOG': 'info'}
# Set by the driver so that nothing from the caller's environment changes how loops run.
CLEARED_ENV = ('CLUSTRIX_DEVICES', 'CLUSTRIX_CONFIG', 'CLUSTRIX_FAULT', 'CLUSTRIX_SCHEDULE',
               'CLUSTRIX_CHUNK_SIZE', 'CLUSTRIX_AUTO_GPU_PARALLEL', 'CLUSTRIX_MAX_GPU_PARALLEL_JOBS',
               'CLUSTRIX_LOG_LEVEL')
CRASH_MARKERS = ('PLEASE submit a bug report', 'Stack dump:', 'Segmentation fault',
                 'Assertion', 'UNREACHABLE')


class Config:
    def __init__(self, args):
        self.seed = args.seed
        self.cxx = args.cxx
        self.clustrix = args.clustrix_cxx
        self.opt = args.opt
        self.timeout = args.timeout
        self.keep = args.keep
        self.devices = args.devices
        self.emulated_gpus = args.emulated_gpus
        if self.emulated_gpus:
            os.environ['DIFFTEST_GPU_FORMS'] = '1'  # gen.py: nothing takes a batch off the GPU
        # gen.py: programs may read errno after a domain error where the builds keep math errno.
        keeps_errno = not any(f in self.opt.split() for f in ('-fno-math-errno', '-ffast-math'))
        os.environ['DIFFTEST_MATH_ERRNO'] = '1' if keeps_errno else '0'
        self.openmp = args.openmp
        self.nvrtc = args.nvrtc
        self.reduce = not args.no_reduce
        # Checks the generator: the serial build traps on undefined behaviour or a bad access.
        self.sanitize = ['-fsanitize=address,undefined', '-fno-sanitize-recover=all'] \
            if args.sanitize else []
        self.env = {k: v for k, v in os.environ.items() if k not in CLEARED_ENV}
        self.env.update(RUN_ENV)
        self.lock = threading.Lock()

    def label(self, n):
        """How a run with device count n is named in reports: 'cpu:4', '4 emulated GPUs'."""
        devices = self.devices.format(n=n)
        return '%s on %d emulated GPUs' % (devices, n) if self.emulated_gpus else devices


def run(cmd, timeout, env=None, cwd=None):
    """Runs cmd; returns (status, stdout, stderr) where status is the exit code, a negative
    signal number, or 'timeout'."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           env=env, cwd=cwd)
        return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8',
                                                                                  'replace')
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b'').decode('utf-8', 'replace')
        err = (e.stderr or b'').decode('utf-8', 'replace')
        return 'timeout', out, err


def generate(cfg, folder, first, count, only_loop=None, skip=()):
    src = os.path.join(folder, 'prog.cpp')
    man = os.path.join(folder, 'manifest.json')
    cmd = [sys.executable, GEN, '--seed', str(cfg.seed), '--first', str(first), '--count',
           str(count), '-o', src, '--manifest', man]
    if only_loop is not None:
        cmd += ['--only-loop', str(only_loop)]
    if skip:
        cmd += ['--skip', ','.join(str(s) for s in skip)]
    st, _, err = run(cmd, 300)
    if st != 0:
        raise RuntimeError('gen.py failed: %s\n%s' % (' '.join(cmd), err))
    if cfg.openmp:
        spell_as_openmp(src)
        spell_as_openmp(os.path.join(folder, 'prog.h'))
    with open(man) as f:
        return src, json.load(f)['programs']


ANNOTATION_LINE = re.compile(r'^(\s*)\[\[cluster::gpu_parallel(?:\((.*)\))?\]\]\s*$')


def omp_clauses(text):
    """The OpenMP clauses that mean an annotation's clauses, or None where one has no
    OpenMP spelling (extent, enable, devices, min_iters)."""
    out = []
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(text + ','):
        if ch == ',' and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        depth += {'(': 1, ')': -1}.get(ch, 0)
    for c in filter(None, parts):
        m = re.match(r'reduce\(\s*([^:]+?)\s*:\s*(.*)\)$', c)
        if m:
            out.append('reduction(%s: %s)' % (m.group(1), m.group(2)))
        elif re.match(r'collapse\(\s*\d+\s*\)$', c):
            out.append(c)
        elif re.match(r'schedule\(\s*dynamic\s*(,\s*\d+\s*)?\)$', c):
            out.append(c)
        elif re.match(r'schedule\(\s*block\s*\)$', c):
            out.append('schedule(static)')
        elif re.match(r'schedule\(\s*cyclic\s*\)$', c):
            out.append('schedule(static, 1)')
        elif re.match(r'schedule\(\s*cyclic\s*,\s*\d+\s*\)$', c):
            out.append(c.replace('cyclic', 'static'))
        else:
            return None
    return out


def spell_as_openmp(path):
    """--openmp: each annotation on a line of its own that OpenMP can say becomes
    `#pragma omp parallel for` on that line (the front door turns it back)."""
    if not os.path.exists(path):
        return
    with open(path) as f:
        lines = f.read().split('\n')
    for i, line in enumerate(lines):
        m = ANNOTATION_LINE.match(line)
        if not m:
            continue
        clauses = omp_clauses(m.group(2) or '')
        if clauses is not None:
            lines[i] = m.group(1) + ' '.join(['#pragma omp parallel for'] + clauses)
    with open(path, 'w') as f:
        f.write('\n'.join(lines))


def serial_cmd(cfg, src, exe):
    return [cfg.cxx, '-std=c++17'] + cfg.opt.split() + ['-Wno-unknown-attributes'] + \
        cfg.sanitize + [src, '-o', exe]


def clustrix_cmd(cfg, src, exe, report):
    door = ['--clustrix-openmp=on'] if cfg.openmp else []
    return [cfg.clustrix] + cfg.opt.split() + ['--clustrix-remarks=off',
                                              '--clustrix-report=' + report] + door + [src, '-o', exe]


def nvrtc_failure(cfg, folder, src, first):
    """A compile Failure when the real NVRTC (cfg.nvrtc, a library path) rejects a kernel that
    clustrix-rewrite writes for the batch, else None."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                                    'Rewrite', 'Inputs'))
    from nvrtc_compile import first_rejection
    rewrite = os.path.join(os.path.dirname(cfg.clustrix), 'clustrix-rewrite')
    kdir = os.path.join(folder, 'kernels')
    shutil.rmtree(kdir, ignore_errors=True)
    st, _, err = run([rewrite, '--remarks=off', '--refusals=ignore', src, '-o',
                      os.path.join(folder, 'rewritten.cpp'), '--kernels-dir=' + kdir, '--',
                      '-std=c++17'] + cfg.opt.split() + ['-Wno-unknown-attributes'], 600)
    if st != 0:
        return Failure('compile', first, 'clustrix-rewrite failed where clustrix++ did not:\n'
                       + err[-3000:])
    _, bad = first_rejection(cfg.nvrtc, kdir)
    if not bad:
        return None
    f = Failure('compile', first, 'NVRTC rejected kernel %s:\n%s' % (bad[0], bad[1][-3000:]))
    f.path = save_batch(cfg, folder, first)  # the kernels with it
    return f


def compile_status(st, err):
    """'ok', 'crash' or 'fail' for a compiler run."""
    if st == 0:
        return 'ok'
    if st == 'timeout' or (isinstance(st, int) and st < 0) or any(m in err for m in
                                                                    CRASH_MARKERS):
        return 'crash'
    return 'fail'


def split_output(text):
    """Output lines grouped by program number (the 'pK.' that starts each line)."""
    groups = collections.defaultdict(list)
    for line in text.splitlines():
        m = re.match(r'p(\d+)\.', line)
        if m:
            groups[int(m.group(1))].append(line)
    return groups


APPROX = re.compile(r'^(\S+ \S+) ~(\S+)$')


def same_lines(expected, got):
    """Equal, except that values printed with '~' (floating-point reductions the user allowed
    to reassociate) need only agree to a relative 1e-9 (plus 1e-6 absolute)."""
    if len(expected) != len(got):
        return False
    for a, b in zip(expected, got):
        if a == b:
            continue
        ma, mb = APPROX.match(a), APPROX.match(b)
        if not (ma and mb and ma.group(1) == mb.group(1)):
            return False
        x, y = float(ma.group(2)), float(mb.group(2))
        if not (math.isfinite(x) and math.isfinite(y)):
            return False
        if abs(x - y) > 1e-9 * max(abs(x), abs(y)) + 1e-6:
            return False
    return True


def first_loop_differing(expected, got):
    """The loop after which the outputs first differ ('pK.L ...' names loop L): every object is
    printed after every loop, so it is the loop that went wrong."""
    for a, b in zip(expected + [''], got + ['']):
        if not same_lines([a], [b]):
            m = re.match(r'p\d+\.(\d+) ', a) or re.match(r'p\d+\.(\d+) ', b)
            return int(m.group(1)) if m else None
    return None


def first_difference(expected, got):
    for n, (a, b) in enumerate(zip(expected, got)):
        if not same_lines([a], [b]):
            return 'line %d: expected "%s", got "%s"' % (n + 1, a, b)
    if len(expected) != len(got):
        return 'expected %d lines, got %d' % (len(expected), len(got))
    return ''


class Failure:
    def __init__(self, kind, program, detail, devices=None):
        self.kind, self.program, self.detail, self.devices = kind, program, detail, devices
        self.loop = None          # manifest entry of the loop that fails alone, when found
        self.suspect = None       # number of the loop after which the outputs first differ
        self.path = None


class BatchResult:
    def __init__(self):
        self.programs = 0
        self.failures = []
        self.decisions = collections.Counter()     # accepted / refused
        self.reasons = collections.Counter()       # refusal kinds
        self.shapes = collections.Counter()        # (shape, decision)
        self.wide = collections.Counter()          # device count -> executions that went wide
        self.serial = collections.Counter()        # device count -> executions kept serial
        self.gpu = collections.Counter()           # device count -> wide runs with a GPU lane
        self.generator_errors = []


# A wide run whose devices include a GPU: "parallel on 3 devices (cuda0, cuda1, cpu0)".
GPU_RUN = re.compile(r': parallel on \d+ devices \([^)]*cuda')


def count_runs(res, n, log):
    res.wide[n] += log.count(': parallel on ')
    res.gpu[n] += len(GPU_RUN.findall(log))
    res.serial[n] += len(re.findall(r'^clustrix: \S+: serial', log, re.M))


def device_env(cfg, n):
    env = dict(cfg.env)
    env['CLUSTRIX_DEVICES'] = cfg.devices.format(n=n)
    if cfg.emulated_gpus:
        env['CLUSTRIX_EMU_GPUS'] = str(n)
        # Stale host copies poisoned: host code that reads one without a synchronization
        # computes a wrong result rather than an old one that may happen to be right.
        env.setdefault('CLUSTRIX_RESIDENCY_CHECK', 'true')
    return env


def run_program(cfg, exe, n, only=None):
    cmd = [exe] + ([str(only)] if only is not None else [])
    return run(cmd, cfg.timeout, env=device_env(cfg, n))


def test_batch(cfg, work, first, count):
    """Builds, runs and compares programs first..first+count-1. Returns a BatchResult."""
    res = BatchResult()
    res.programs = count
    folder = os.path.join(work, 'b%d' % first)
    os.makedirs(folder, exist_ok=True)
    skip = []
    src, programs = generate(cfg, folder, first, count)
    serial = os.path.join(folder, 'serial')
    clx = os.path.join(folder, 'clustrix')
    report = os.path.join(folder, 'report.json')
    st, _, err = run(serial_cmd(cfg, src, serial), 600)
    if st != 0:
        # The generator must only write valid programs: find which ones are not.
        for p in programs:
            one = os.path.join(folder, 'g%d' % p['program'])
            os.makedirs(one, exist_ok=True)
            s1, _ = generate(cfg, one, p['program'], 1)
            st1, _, err1 = run(serial_cmd(cfg, s1, os.path.join(one, 'serial')), 300)
            if st1 != 0:
                res.generator_errors.append((p['program'], err1[-3000:]))
                res.programs -= 1
                skip.append(p['program'])
        if not skip:
            res.generator_errors.append((first, err[-3000:]))
            return res
        src, programs = generate(cfg, folder, first, count, skip=skip)
        st, _, err = run(serial_cmd(cfg, src, serial), 600)
        if st != 0:
            res.generator_errors.append((first, err[-3000:]))
            return res
    st, _, err = run(clustrix_cmd(cfg, src, clx, report), 600)
    status = compile_status(st, err)
    if status != 'ok':
        # Find the programs clustrix++ cannot build on their own, then build the rest.
        bad = []
        for p in programs:
            f = single_compile_failure(cfg, folder, p)
            if f:
                res.failures.append(f)
                bad.append(p['program'])
        if not bad:
            res.failures.append(Failure('crash' if status == 'crash' else 'compile',
                                        first, 'the batch fails only as a whole:\n' + err[-4000:]))
            res.failures[-1].path = save_batch(cfg, folder, first)
            return res
        skip += bad
        src, programs = generate(cfg, folder, first, count, skip=skip)
        if not programs:
            return res
        st = run(serial_cmd(cfg, src, serial), 600)[0]
        st2, _, err2 = run(clustrix_cmd(cfg, src, clx, report), 600)
        if st != 0 or compile_status(st2, err2) != 'ok':
            res.failures.append(Failure('compile', first, 'the batch without its failing '
                                        'programs still fails:\n' + err2[-4000:]))
            res.failures[-1].path = save_batch(cfg, folder, first)
            return res
    accepted = count_decisions(res, programs, report)
    if cfg.nvrtc:
        f = nvrtc_failure(cfg, folder, src, first)
        if f:
            res.failures.append(f)

    st, expected_text, err = run([serial], cfg.timeout)
    if st != 0:
        res.generator_errors.append((first, 'the serial build exited with %s:\n%s'
                                     % (st, err[-2000:])))
        return res
    expected = split_output(expected_text)
    failed = {}
    for n in DEVICE_COUNTS:
        st, text, log = run_program(cfg, clx, n)
        count_runs(res, n, log)
        got = split_output(text)
        crashed = st != 0
        for p in programs:
            k = p['program']
            if k in failed:
                continue
            if crashed:
                # Which program died: run each one that did not print all of its output.
                if same_lines(expected[k], got.get(k, [])):
                    continue
                st1, text1, log1 = run_program(cfg, clx, n, only=k)
                count_runs(res, n, log1)
                if st1 != 0:
                    failed[k] = Failure('crash', k, 'exited with %s on %s\n%s'
                                        % (st1, cfg.label(n), log1[-2000:]), n)
                    continue
                got_k = split_output(text1).get(k, [])
            else:
                got_k = got.get(k, [])
            if not same_lines(expected[k], got_k):
                failed[k] = Failure('mismatch', k, '%s: %s' % (
                    cfg.label(n), first_difference(expected[k], got_k)), n)
                failed[k].suspect = first_loop_differing(expected[k], got_k)
    by_number = {p['program']: p for p in programs}
    for k, f in sorted(failed.items()):
        if cfg.reduce:
            reduce_failure(cfg, folder, by_number[k], f, expected[k], accepted)
        else:
            save_whole(cfg, folder, by_number[k], f, expected[k])
        res.failures.append(f)
    if not cfg.keep_work:
        shutil.rmtree(folder, ignore_errors=True)
    return res


def count_decisions(res, programs, report):
    """Adds the report's decisions to res; returns the lines of the accepted loops."""
    try:
        with open(report) as f:
            loops = json.load(f)['loops']
    except (OSError, ValueError):
        return set()
    by_line = {where(l): l for l in loops}
    for p in programs:
        for l in p['loops']:
            rec = by_line.get(where(l))
            if rec is None:
                continue
            res.decisions[rec['decision']] += 1
            res.shapes[(l['shape'], rec['decision'])] += 1
            for reason in rec['reasons']:
                res.reasons[reason['kind']] += 1
    return {where(l) for l in loops if l['decision'] == 'accepted'}


def where(loop):
    """A loop's place, for a manifest entry and a report record alike: its file's name (the
    program, or the batch's header) and its line."""
    return (os.path.basename(loop.get('file', 'prog.cpp')), loop['line'])


def single_compile_failure(cfg, folder, p):
    """A Failure when clustrix++ cannot build program p alone, else None."""
    one = os.path.join(folder, 'c%d' % p['program'])
    os.makedirs(one, exist_ok=True)
    src, _ = generate(cfg, one, p['program'], 1)
    st, _, err = run(clustrix_cmd(cfg, src, os.path.join(one, 'clustrix'),
                                  os.path.join(one, 'report.json')), 600)
    status = compile_status(st, err)
    if status == 'ok':
        return None
    f = Failure('crash' if status == 'crash' else 'compile', p['program'], err[-4000:])
    # Which annotated loop breaks the build on its own?
    for i, l in enumerate(p['loops']):
        d = os.path.join(one, 'loop%d' % i)
        os.makedirs(d, exist_ok=True)
        s1, m1 = generate(cfg, d, p['program'], 1, only_loop=loop_number(l))
        st1, _, err1 = run(clustrix_cmd(cfg, s1, os.path.join(d, 'clustrix'),
                                        os.path.join(d, 'report.json')), 600)
        if compile_status(st1, err1) != 'ok':
            f.loop, f.detail = l, err1[-4000:]
            save_reproducer(cfg, f, d, m1[0], None, {})
            return f
    save_reproducer(cfg, f, one, p, None, {})
    return f


def loop_number(l):
    return int(l['marker'].rsplit('.', 1)[1])


def reduce_failure(cfg, folder, p, f, expected, accepted):
    """Looks for one accepted loop of program p that fails alone (trying each a few times, as a
    race need not show every time), and saves a reproducer."""
    base = os.path.join(folder, 'r%d' % p['program'])
    os.makedirs(base, exist_ok=True)
    # The suspect first: most of the time it is the one.
    for l in sorted(p['loops'], key=lambda l: loop_number(l) != f.suspect):
        if where(l) not in accepted:
            continue
        d = os.path.join(base, 'loop%d' % loop_number(l))
        os.makedirs(d, exist_ok=True)
        src, m = generate(cfg, d, p['program'], 1, only_loop=loop_number(l))
        exe, serial = os.path.join(d, 'clustrix'), os.path.join(d, 'serial')
        if run(clustrix_cmd(cfg, src, exe, os.path.join(d, 'report.json')), 600)[0] != 0 or \
                run(serial_cmd(cfg, src, serial), 600)[0] != 0:
            continue
        exp = split_output(run([serial], cfg.timeout)[1]).get(p['program'], [])
        for _ in range(5):
            outs = {}
            for n in DEVICE_COUNTS:
                st, text, log = run_program(cfg, exe, n)
                outs[n] = (st, text, log)
                got = split_output(text).get(p['program'], [])
                if f.loop is not l and (st != 0 or not same_lines(exp, got)):
                    f.loop = l
                    f.detail = '%s: %s' % (cfg.label(n), 'exited with %s' % st if st != 0
                                               else first_difference(exp, got))
            if f.loop is l:
                save_reproducer(cfg, f, d, m[0], exp, outs)
                return
    save_whole(cfg, folder, p, f, expected)


def save_whole(cfg, folder, p, f, expected):
    """Saves program p alone, every loop annotated, as the reproducer of f."""
    d = os.path.join(folder, 'r%d' % p['program'], 'all')
    os.makedirs(d, exist_ok=True)
    src, m = generate(cfg, d, p['program'], 1)
    exe = os.path.join(d, 'clustrix')
    run(clustrix_cmd(cfg, src, exe, os.path.join(d, 'report.json')), 600)
    outs = {n: run_program(cfg, exe, n) for n in DEVICE_COUNTS}
    save_reproducer(cfg, f, d, m[0], expected, outs)


def save_reproducer(cfg, f, d, entry, expected, outs):
    """Copies the single-program source and what happened into KEEP/<kind>-s<seed>-p<k>/."""
    dest = os.path.join(cfg.keep, '%s-s%s-p%d' % (f.kind, cfg.seed, f.program))
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    shutil.copy(os.path.join(d, 'prog.cpp'), os.path.join(dest, 'prog.cpp'))
    if os.path.exists(os.path.join(d, 'prog.h')):
        shutil.copy(os.path.join(d, 'prog.h'), os.path.join(dest, 'prog.h'))
    decisions = []
    try:
        with open(os.path.join(d, 'report.json')) as fr:
            loops = json.load(fr)['loops']
        decisions = [l for l in loops if where(l) in {where(x) for x in entry['loops']}]
    except (OSError, ValueError):
        pass
    with open(os.path.join(dest, 'decisions.json'), 'w') as fw:
        json.dump(decisions, fw, indent=1, sort_keys=True)
    if expected is not None:
        with open(os.path.join(dest, 'expected.txt'), 'w') as fw:
            fw.write('\n'.join(expected) + '\n')
    for n, (st, text, log) in sorted(outs.items()):
        with open(os.path.join(dest, 'cpu%d.txt' % n), 'w') as fw:
            fw.write('exit status: %s\n%s\n--- stderr ---\n%s' % (st, text, log))
    flags = ' '.join(RUN_ENV[k] and '%s=%s' % (k, RUN_ENV[k]) for k in sorted(RUN_ENV))
    with open(os.path.join(dest, 'README.txt'), 'w') as fw:
        fw.write('difftest %s: seed %s, program %d\n' % (f.kind, cfg.seed, f.program))
        if f.loop:
            fw.write('fails with only this loop annotated: %s (line %d), shape %s\n'
                     'tags: %s\n' % (f.loop['marker'], entry_line(entry, f.loop), f.loop['shape'],
                                     ', '.join(f.loop['tags'])))
        fw.write('\n%s\n\nReproduce:\n' % f.detail)
        fw.write('  %s -std=c++17 %s -Wno-unknown-attributes prog.cpp -o serial && ./serial\n'
                 % (cfg.cxx, cfg.opt))
        fw.write('  %s %s --clustrix-remarks=off prog.cpp -o clustrix\n' % (cfg.clustrix, cfg.opt))
        emulated = ('CLUSTRIX_EMU_GPUS=4 CLUSTRIX_RESIDENCY_CHECK=true CLUSTRIX_CUDA_LIBRARY=%s '
                    'CLUSTRIX_NVRTC_LIBRARY=%s ' % (
            cfg.env.get('CLUSTRIX_CUDA_LIBRARY', '?'), cfg.env.get('CLUSTRIX_NVRTC_LIBRARY', '?'))
            if cfg.emulated_gpus else '')
        fw.write('  %sCLUSTRIX_DEVICES=%s %s ./clustrix\n' % (emulated, cfg.devices.format(n=4),
                                                             flags))
        fw.write('Add -DDT_FULL to both builds to print every element.\n')
    f.path = dest


def entry_line(entry, loop):
    for l in entry['loops']:
        if l['marker'] == loop['marker']:
            return l['line']
    return loop['line']


def save_batch(cfg, folder, first):
    dest = os.path.join(cfg.keep, 'batch-s%s-b%d' % (cfg.seed, first))
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(folder, dest)
    return dest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--count', type=int, default=100, help='programs to test (default 100)')
    ap.add_argument('--seed', default='1', help='seed of the random programs (default 1)')
    ap.add_argument('--first', type=int, default=0, help='number of the first program')
    ap.add_argument('--batch', type=int, default=50, help='programs per translation unit')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1,
                    help='batches built and run at once (default: one per CPU)')
    ap.add_argument('--keep', help='folder for reproducers (default: a new temporary folder)')
    ap.add_argument('--keep-work', action='store_true', help='keep every batch\'s files')
    ap.add_argument('--clustrix-cxx', required=True, help='the clustrix++ wrapper')
    ap.add_argument('--cxx', default='clang++-19', help='the serial compiler')
    ap.add_argument('--opt', default='-O1',
                    help='flags of both builds, split at spaces (default -O1)')
    ap.add_argument('--devices', default='cpu:{n}',
                    help='CLUSTRIX_DEVICES for the runs, {n} the count (default cpu:{n})')
    ap.add_argument('--openmp', action='store_true',
                    help='spell the annotations that OpenMP can say as `#pragma omp parallel '
                         'for` and build through the OpenMP front door (--clustrix-openmp=on)')
    ap.add_argument('--emulated-gpus', action='store_true',
                    help='run on {n} emulated GPUs (CLUSTRIX_EMU_GPUS; the caller points '
                         'CLUSTRIX_CUDA_LIBRARY and CLUSTRIX_NVRTC_LIBRARY at the emulator), '
                         'with --devices cuda or cuda,cpu:2')
    ap.add_argument('--nvrtc', metavar='LIBRARY',
                    help='also compile every kernel of each batch with this real NVRTC library '
                         '(libnvrtc.so) for sm_90, and count a rejected kernel as a compile '
                         'failure')
    ap.add_argument('--timeout', type=int, default=60, help='seconds per program run')
    ap.add_argument('--sanitize', action='store_true',
                    help='build the serial programs with ASan and UBSan (checks the generator)')
    ap.add_argument('--no-reduce', action='store_true',
                    help='save failing programs whole, without looking for the failing loop')
    ap.add_argument('--quiet', action='store_true', help='print the summary only')
    args = ap.parse_args()
    if not args.keep:
        args.keep = tempfile.mkdtemp(prefix='difftest-')
    os.makedirs(args.keep, exist_ok=True)
    cfg = Config(args)
    cfg.keep_work = args.keep_work
    work = os.path.join(args.keep, 'work')
    os.makedirs(work, exist_ok=True)

    start = time.time()
    total = BatchResult()
    firsts = list(range(args.first, args.first + args.count, args.batch))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(test_batch, cfg, work, b, min(args.batch,
                                                             args.first + args.count - b)): b
                   for b in firsts}
        for fut in concurrent.futures.as_completed(futures):
            b = futures[fut]
            r = fut.result()
            total.programs += r.programs
            total.failures += r.failures
            total.decisions.update(r.decisions)
            total.reasons.update(r.reasons)
            total.shapes.update(r.shapes)
            total.wide.update(r.wide)
            total.serial.update(r.serial)
            total.gpu.update(r.gpu)
            total.generator_errors += r.generator_errors
            if not args.quiet:
                print('batch %d: %d programs, %d failures (%.0f s)' % (
                    b, r.programs, len(r.failures), time.time() - start), flush=True)
                for f in r.failures:
                    print('  %s in program %d%s: %s' % (
                        f.kind, f.program, ' (%s, %s)' % (f.loop['marker'], f.loop['shape'])
                        if f.loop else '', f.detail.strip().splitlines()[0] if f.detail.strip()
                        else ''), flush=True)
    if not args.keep_work:
        shutil.rmtree(work, ignore_errors=True)

    counts = collections.Counter(f.kind for f in total.failures)
    acc, ref = total.decisions['accepted'], total.decisions['refused']
    print('seed %s, programs %d..%d, %d per batch, %.0f s' % (
        args.seed, args.first, args.first + args.count - 1, args.batch, time.time() - start))
    print('loops: %d accepted, %d refused (%.0f%% accepted)' % (
        acc, ref, 100.0 * acc / max(1, acc + ref)))
    if total.reasons:
        print('refusal reasons: ' + ', '.join('%s %d' % kv for kv in total.reasons.most_common()))
    print('loop runs that went wide: ' + ', '.join(
        '%s %d of %d' % (cfg.label(n), total.wide[n], total.wide[n] + total.serial[n])
        for n in DEVICE_COUNTS))
    if cfg.emulated_gpus:
        print('wide runs with a GPU among their devices: ' + ', '.join(
            '%s %d of %d' % (cfg.label(n), total.gpu[n], total.wide[n]) for n in DEVICE_COUNTS))
    if total.failures:
        by_shape = collections.Counter(
            (f.kind, f.loop['shape'] if f.loop else '?') for f in total.failures)
        print('failures by shape: ' + ', '.join('%s %s %d' % (k, s, c) for (k, s), c in
                                                sorted(by_shape.items())))
        print('reproducers in %s' % args.keep)
    for prog, err in total.generator_errors:
        print('GENERATOR ERROR (a bug in gen.py, not in Clustrix) at program %d:\n%s' % (prog,
                                                                                          err))
    print('difftest: %d programs, %d mismatches, %d crashes, %d compile failures' % (
        total.programs, counts['mismatch'], counts['crash'], counts['compile']))
    if not total.failures and not total.generator_errors and not os.listdir(args.keep):
        shutil.rmtree(args.keep, ignore_errors=True)
    return 1 if total.failures or total.generator_errors else 0


if __name__ == '__main__':
    sys.exit(main())
