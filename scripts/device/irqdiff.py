#!/usr/bin/env python3
"""The machine's interrupts between two copies of /proc/interrupts, a line each of the busiest.

Usage: irqdiff.py BEFORE AFTER [PICTURES]

Each line: the interrupt's name, its count over the interval, how many CPUs took it, and, given
PICTURES (what the interval decoded), its count a picture. Issue 38 (row ipi47): how many
inter-processor interrupts (CAL, TLB) a decoded picture costs the wall against NVDECODE; in a
virtual machine each is an exit to the host on every CPU it reaches.
"""
import sys


def parse(text):
    """{interrupt's name: [count per CPU]} from /proc/interrupts' text."""
    lines = text.splitlines()
    if not lines:
        return {}
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


def report(a, b, pictures=0, top=8, per_cpu=False):
    """Prints the top interrupts from a to b (parse's): count, CPUs, and a picture or by CPU."""
    rows = []
    for k, v in b.items():
        d = [y - x for x, y in zip(a.get(k, [0] * len(v)), v)]
        rows.append((sum(d), k, d))
    rows.sort(reverse=True)
    for total, k, d in rows[:top]:
        extra = ' %8.2f a picture' % (total / pictures) if pictures else ''
        if per_cpu:
            extra += '  ' + ' '.join('%d:%d' % (i, x) for i, x in enumerate(d) if x)
        print('  %-44s %9d on %2d CPUs%s' % (k, total, sum(1 for x in d if x), extra))


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    a, b = (parse(open(p).read()) for p in argv[:2])
    report(a, b, int(argv[2]) if len(argv) == 3 else 0)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
