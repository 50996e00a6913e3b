#!/usr/bin/env python3
"""The machine's interrupts between two copies of /proc/interrupts, a line each of the busiest.

Usage: irqdiff.py BEFORE AFTER [PICTURES]

Each line: the interrupt's name, its count over the interval, how many CPUs took it, and, given
PICTURES (what the interval decoded), its count a picture. Issue 38 (row ipi47): how many
inter-processor interrupts (CAL, TLB) a decoded picture costs the wall against NVDECODE; in a
virtual machine each is an exit to the host on every CPU it reaches.
"""
import sys


def read(path):
    lines = open(path).read().splitlines()
    n = len(lines[0].split())
    out = {}
    for line in lines[1:]:
        irq, _, rest = line.partition(':')
        f = rest.split()
        counts = []
        for x in f[:n]:
            if not x.isdigit():
                break
            counts.append(int(x))
        name = (irq.strip() + ' ' + ' '.join(f[len(counts):]))[:44]
        out[name] = counts
    return out


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    a, b = read(argv[0]), read(argv[1])
    pictures = int(argv[2]) if len(argv) == 3 else 0
    rows = []
    for k, v in b.items():
        u = a.get(k, [0] * len(v))
        d = [y - x for x, y in zip(u, v)]
        rows.append((sum(d), k, sum(1 for x in d if x)))
    rows.sort(reverse=True)
    for total, k, cpus in rows[:8]:
        per = ' %8.2f a picture' % (total / pictures) if pictures else ''
        print('  %-44s %9d on %2d CPUs%s' % (k, total, cpus, per))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
