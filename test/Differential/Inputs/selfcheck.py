#!/usr/bin/env python3
"""Checks the generator's own guarantees, on which the differential tester's verdicts rest:

  1. a program's text does not depend on the batch it is generated in;
  2. --only-loop K changes nothing but attributes (so a reduced reproducer is the same program);
  3. the programs are free of undefined behaviour and out-of-bounds accesses: built serially with
     AddressSanitizer and UndefinedBehaviorSanitizer (traps on the first report), they run to the
     end.

Usage: selfcheck.py --cxx CLANG++ --work DIR [--seed S] [--count N]
Prints one line per failed check and "selfcheck: ok" when all pass.
"""

import argparse
import json
import os
import re
import subprocess
import sys

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gen.py')


def gen(work, name, seed, first, count, only_loop=None):
    src = os.path.join(work, name + '.cpp')
    man = os.path.join(work, name + '.json')
    cmd = [sys.executable, GEN, '--seed', seed, '--first', str(first), '--count', str(count),
           '-o', src, '--manifest', man]
    if only_loop is not None:
        cmd += ['--only-loop', str(only_loop)]
    subprocess.run(cmd, check=True)
    with open(src) as f, open(man) as m:
        return f.read().split('\n'), json.load(m)['programs']


ATTRIBUTE = re.compile(r'^\s*(\[\[(cluster::|using cluster:).*\]\]|p\d+_PAR\d+)\s*$')


def without_attributes(lines):
    out = []
    for line in lines:
        if ATTRIBUTE.match(line) or re.match(r'#define p\d+_PAR\d+ ', line):
            continue
        # Each output includes its own header (one.h, alone.h).
        line = re.sub(r'^#include "\w+\.h"$', '#include "<header>"', line)
        out.append(re.sub(r'^\[\[cluster::gpu_parallel[^\]]*\]\] static', 'static', line))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cxx', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--seed', default='7')
    ap.add_argument('--count', type=int, default=24)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures = []

    batch, programs = gen(args.work, 'batch', args.seed, 0, args.count)
    for p in programs[::5]:
        k = p['program']
        mine = batch[p['first_line'] - 1:p['last_line']]
        alone, ps = gen(args.work, 'alone', args.seed, k, 1)
        if alone[ps[0]['first_line'] - 1:ps[0]['last_line']] != mine:
            failures.append('program %d differs when generated alone' % k)
        for l in p['loops']:
            n = int(l['marker'].rsplit('.', 1)[1])
            one, _ = gen(args.work, 'one', args.seed, k, 1, only_loop=n)
            if without_attributes(one) != without_attributes(alone):
                failures.append('program %d with --only-loop %d differs beyond attributes'
                                % (k, n))
            # The loops that keep an attribute: on the line before, or on their function.
            kept = [nxt for line, nxt in zip(one, one[1:] + ['']) if '// loop p' in nxt and
                    ATTRIBUTE.match(line)]
            kept += [one[at] for at in range(len(one)) if '// loop p' in one[at] and
                     any(x.startswith('[[cluster::gpu_parallel') for x in one[max(0, at - 3):at])]
            if any(not x.endswith('// loop p%d.%d' % (k, n)) for x in kept):
                failures.append('program %d with --only-loop %d annotates another loop'
                                % (k, n))

    exe = os.path.join(args.work, 'sanitized')
    src = os.path.join(args.work, 'batch.cpp')
    p = subprocess.run([args.cxx, '-std=c++17', '-O1', '-g', '-Wno-unknown-attributes',
                        '-fsanitize=address,undefined', '-fno-sanitize-recover=all', src, '-o',
                        exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        failures.append('the batch does not compile:\n' + p.stdout.decode()[-3000:])
    else:
        r = subprocess.run([exe], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode != 0:
            failures.append('the sanitized serial build failed:\n' + r.stderr.decode()[-3000:])
    for f in failures:
        print('selfcheck: FAIL: ' + f)
    print('selfcheck: ok' if not failures else 'selfcheck: %d failures' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
