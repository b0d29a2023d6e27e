#!/usr/bin/env python3
"""Differential tester of the OpenMP race check (openmp=check): its verdicts against the truth.

Each random program keeps buffers in heap blocks, points two or three pointers into them,
and runs a time-step loop whose `#pragma omp parallel for` body writes through one pointer
and reads through others (subscripts `i + c`, `i + k`). Between steps the program swaps
pointers, aliases one to another, moves one, changes the integer k, or does so under a
condition the compiler cannot know (`argc > t`). The truth comes from the same program built
with -DTRUTH, run with 1 to 6 arguments (a loop may end at `n = argc + c`): at each arrival, every iteration's accesses are recorded and two
iterations touching one element where either writes it is a race (an access outside every
block is undefined behaviour; such programs count apart and are not compared).

The race check is run on each program as a part and as a whole program. A race it reports must
be a race of the program; a proof must hold in every arrival; unknown is allowed. Any other
answer, or a crash of the compiler, fails the run; the program is kept in --keep.

Usage: racecheck.py --plugin clustrix.so --clang clang [--seed S] [--count N] [--keep DIR]
The last line printed is
  racecheck: N programs, W wrong verdicts, C crashes
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TRUTH_HELPERS = r'''#ifdef TRUTH
static char *blk[2];
static long blksz[2];
static int nblk;
/* The element an address names, as block * 1000 + index; 0 where it is in no block. */
static int where(void *p, long *idx) {
  for (int b = 0; b < nblk; b++) {
    long d = (char *)p - blk[b];
    if (d >= 0 && d < blksz[b]) {
      *idx = b * 1000 + d / 8;
      return 1;
    }
  }
  return 0;
}
static int firstI[2000], multi[2000], written[2000];
static void touch(void *p, int i, int w, int *oob) {
  long x;
  if (!where(p, &x)) {
    *oob = 1;
    return;
  }
  if (firstI[x] < 0)
    firstI[x] = i;
  else if (firstI[x] != i)
    multi[x] = 1;
  written[x] |= w;
}
#endif
'''


def generate(rng):
    """One program, as C source."""
    nb = rng.randint(1, 2)
    sizes = [rng.choice([20, 40, 64]) for _ in range(nb)]
    npt = rng.randint(2, 3)
    out = ['#include <stdio.h>', '#include <stdlib.h>', TRUTH_HELPERS,
           'int main(int argc, char **argv) {']
    for b in range(nb):
        out.append(f'  double *b{b} = malloc({sizes[b]} * sizeof(double));')
        # A gap after each block, so that an access past its end is in no block.
        out.append(f'#ifdef TRUTH\n  blk[{b}] = (char *)b{b}; blksz[{b}] = {sizes[b]} * 8; '
                   f'nblk = {b + 1}; (void)malloc(8192);\n#endif')
    for p in range(npt):
        b = rng.randrange(nb)
        out.append(f'  double *p{p} = b{b} + {rng.randint(0, sizes[b] // 2)};')
    out.append(f'  int k = {rng.randint(0, 3)};')
    steps = rng.randint(1, 4)
    lo = rng.randint(0, 3)
    hi = lo + rng.randint(2, 12)
    if rng.random() < 0.3:
        # A bound the compiler cannot know: the truth runs with several argument counts.
        out.append(f'  int n = argc + {lo + rng.randint(0, 6)};')
        hi = 'n'
    w, r1, r2 = rng.randrange(npt), rng.randrange(npt), rng.randrange(npt)
    a = rng.choice(['0', '1', 'k', '-1'])
    b_ = rng.choice(['0', '1', '2', 'k'])
    c = rng.choice(['0', '-1', '3'])
    out.append(f'  for (int t = 0; t < {steps}; t++) {{')
    out.append('#ifdef TRUTH')
    out.append('    for (int z = 0; z < 2000; z++) firstI[z] = -1, multi[z] = 0, written[z] = 0;')
    out.append('    int race = 0, oob = 0;')
    out.append(f'    for (int i = {lo}; i < {hi}; i++) {{')
    out.append(f'      touch(&p{r1}[i + {b_}], i, 0, &oob);')
    out.append(f'      touch(&p{r2}[i + {c}], i, 0, &oob);')
    out.append(f'      touch(&p{w}[i + {a}], i, 1, &oob);')
    out.append('    }')
    out.append('    for (int z = 0; z < 2000; z++) if (multi[z] && written[z]) race = 1;')
    out.append('    printf("%s\\n", oob ? "OOB" : race ? "RACE" : "FREE");')
    out.append('#else')
    out.append('#pragma omp parallel for')
    out.append(f'    for (int i = {lo}; i < {hi}; i++)')
    out.append(f'      p{w}[i + {a}] = p{r1}[i + {b_}] + p{r2}[i + {c}];')
    out.append('#endif')
    for _ in range(rng.randint(0, 3)):
        x, y = rng.sample(range(npt), 2)
        op = rng.choice(['swap', 'alias', 'move', 'k', 'when', 'input'])
        if op == 'swap':
            out.append(f'    {{ double *tmp = p{x}; p{x} = p{y}; p{y} = tmp; }}')
        elif op == 'alias':
            out.append(f'    p{x} = p{y};')
        elif op == 'move':
            out.append(f'    p{x} = p{y} + {rng.randint(0, 8)};')
        elif op == 'k':
            out.append(f'    k = {rng.choice(["1 - k", "k + 1", "2", "t", "t - t"])};')
        elif op == 'when':
            out.append(f'    if (t == {rng.randint(0, 2)}) p{x} = b{rng.randrange(nb)};')
        else:
            out.append(f'    if (argc > t) p{x} = p{y};')
    out.append('  }')
    out.append('  return 0;')
    out.append('}')
    return '\n'.join(out) + '\n'


VERDICT = re.compile(r'worksharing loops: (\d+) with a race, (\d+) race-free')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--plugin', required=True, help='clustrix.so')
    ap.add_argument('--clang', default='clang-19', help='the C compiler')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=100)
    ap.add_argument('--keep', help='folder for the programs with a wrong verdict or a crash')
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix='racecheck.')
    tally = {}
    wrong = crashes = 0
    try:
        for n in range(args.count):
            src = generate(random.Random(args.seed * 1000003 + n))
            path = os.path.join(work, 'p.c')
            with open(path, 'w') as f:
                f.write(src)
            exe = os.path.join(work, 'truth')
            built = subprocess.run([args.clang, '-DTRUTH', '-w', '-O0', path, '-o', exe],
                                   capture_output=True, text=True)
            if built.returncode:
                sys.exit(f'racecheck: program {n} does not build: {built.stderr[:400]}')
            def run_truth(argcs):
                ran = []
                for argc in argcs:
                    ran += subprocess.run([exe] + ['x'] * (argc - 1), capture_output=True,
                                          text=True, timeout=30).stdout.split()
                return 'ub' if 'OOB' in ran else 'race' if 'RACE' in ran else 'race-free'
            truth = run_truth(range(1, 7))
            bound = re.search(r'int n = argc \+ (\d+);', src)
            for whole in ('off', 'on'):
                r = subprocess.run([args.clang, '-fplugin=' + args.plugin,
                                    '-fplugin-arg-clustrix-openmp=check',
                                    '-fplugin-arg-clustrix-whole-program=' + whole,
                                    '-fsyntax-only', '-w', path],
                                   capture_output=True, text=True, timeout=120)
                m = VERDICT.search(r.stderr)
                bad = None
                if r.returncode or not m:
                    crashes += 1
                    bad = 'crash'
                    verdict = 'crash'
                else:
                    verdict = ('race' if m.group(1) == '1' else
                               'race-free' if m.group(2) == '1' else 'unknown')
                    # A race whose witness names the bound n, a free value: the program run at
                    # that n (the argument count that gives it) is the truth for it.
                    witness = re.search(r'with n = (\d+)', r.stderr)
                    if verdict == 'race' and truth != 'race' and bound and witness:
                        argc = int(witness.group(1)) - int(bound.group(1))
                        if 1 <= argc <= 500:
                            truth = run_truth([argc])
                    if verdict != 'unknown' and truth != 'ub' and verdict != truth:
                        wrong += 1
                        bad = 'wrong'
                tally[(truth, verdict)] = tally.get((truth, verdict), 0) + 1
                if bad:
                    print(f'racecheck: program {n} (seed {args.seed}, whole-program={whole}): '
                          f'{bad}: the program is {truth}, the check says {verdict}')
                    print(r.stderr[-1500:])
                    if args.keep:
                        os.makedirs(args.keep, exist_ok=True)
                        shutil.copy(path, os.path.join(args.keep, f'{bad}-{args.seed}-{n}.c'))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for (truth, verdict), count in sorted(tally.items()):
        print(f'  program {truth}, check {verdict}: {count}')
    print(f'racecheck: {args.count} programs, {wrong} wrong verdicts, {crashes} crashes')
    return 1 if wrong or crashes else 0


if __name__ == '__main__':
    sys.exit(main())
