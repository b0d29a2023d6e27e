#!/usr/bin/env python3
"""A stand-in for clustrix++ that is wrong on purpose, to show that the corpus catches it.

Called as corpus.py calls clustrix++. It builds the program with plain clang++ and writes a
report that accepts every annotated loop, except those whose marker note says FAKE-REFUSE (refused
with the message "fake refusal" at the loop's first body line). With CLUSTRIX_DEVICES=cpu:7 the
program prints one line too many at exit.
"""
import json
import os
import re
import subprocess
import sys

args = sys.argv[1:]
cxx = os.environ.get('FAKE_CXX', 'clang++')
report = None
src = None
passed = []
for a in args:
    if a.startswith('--clustrix-report='):
        report = a.split('=', 1)[1]
    elif a.startswith('--clustrix-'):
        continue
    else:
        passed.append(a)
        if re.search(r'\.(c|cpp)$', a):
            src = a
text = open(src).read()
loops = []
lines = text.split('\n')
for n, line in enumerate(lines):
    if '[[cluster::gpu_parallel' in line:
        refuse = 'FAKE-REFUSE' in lines[n - 1]
        for_line = n + 2
        loops.append({'file': src, 'line': for_line, 'column': 3,
                      'decision': 'refused' if refuse else 'accepted',
                      'reasons': [{'kind': 'fake-kind', 'message': 'fake refusal',
                                   'line': for_line + 1, 'column': 5}] if refuse else [],
                      'reductions': [], 'privates': []})
with open(report, 'w') as f:
    json.dump({'clustrix_report': 1, 'loops': loops}, f)
extra = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fake-clustrix', 'extra.h')
sys.exit(subprocess.call([cxx, '-std=c++17', '-Wno-unknown-attributes', '-include', extra] +
                         passed))
