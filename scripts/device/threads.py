#!/usr/bin/env python3
"""Where a process's threads ran while it ran: a line a second, then each busy thread's totals.

Usage: threads.py [-name COMM] PID

Samples /proc every 0.5 s until PID exits (Linux: /proc/PID/task/*/schedstat, stat, status and
/proc/stat). A line a second: the machine's CPUs busy and stolen (a virtual machine's host took
them), then the thread named COMM (default ycbcrwall-step: ycbcrwall's display loop names its
thread so): its share of the second on a CPU and waiting on a run queue, the switches it did not
ask for (preemptions), the CPUs it was seen on and how busy their SMT siblings were; then the
busiest other thread. At the end, the 12 busiest threads over the run. Issue 38's slow untimed
walls (rows fair47, threads47): is the display loop's thread slower on the CPU, waiting for one,
or asleep?
"""
import os
import sys
import time

import irqdiff  # beside this file


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def cpu_times():
    """{cpu: (busy, steal, total, irq)} in ticks from /proc/stat, 'all' for the first line (irq:
    hard and soft interrupts, part of busy)."""
    out = {}
    for line in (read('/proc/stat') or '').splitlines():
        if not line.startswith('cpu'):
            break
        name, *v = line.split()
        v = [int(x) for x in v[:8]] + [0] * (8 - len(v[:8]))
        user, nice, system, idle, iowait, irq, softirq, steal = v
        total = sum(v)
        out['all' if name == 'cpu' else int(name[3:])] = (total - idle - iowait - steal, steal, total, irq + softirq)
    return out


def siblings(cpu):
    s = read('/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list' % cpu) or ''
    cpus = set()
    for part in s.strip().split(','):
        if '-' in part:
            a, b = part.split('-')
            cpus.update(range(int(a), int(b) + 1))
        elif part:
            cpus.add(int(part))
    cpus.discard(cpu)
    return cpus


def threads(pid):
    """{tid: dict(comm, run, wait (ns), nvcsw, vcsw, cpu)} of pid's threads now."""
    out = {}
    try:
        tids = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return None
    for t in tids:
        base = '/proc/%d/task/%s/' % (pid, t)
        ss, st, status = read(base + 'schedstat'), read(base + 'stat'), read(base + 'status')
        if not ss or not st or not status:
            continue
        run, wait = (int(x) for x in ss.split()[:2])
        comm = st[st.index('(') + 1:st.rindex(')')]
        fields = st[st.rindex(')') + 2:].split()
        cpu = int(fields[36])  # stat's field 39, counted from state (field 3)
        sw = {}
        for line in status.splitlines():
            k, _, v = line.partition(':')
            if k in ('voluntary_ctxt_switches', 'nonvoluntary_ctxt_switches'):
                sw[k] = int(v)
        out[int(t)] = dict(comm=comm, run=run, wait=wait, cpu=cpu,
                           vcsw=sw.get('voluntary_ctxt_switches', 0),
                           nvcsw=sw.get('nonvoluntary_ctxt_switches', 0))
    return out


def main(argv):
    name = 'ycbcrwall-step'
    if len(argv) >= 2 and argv[0] == '-name':
        name, argv = argv[1], argv[2:]
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    pid = int(argv[0])
    model = next((l.split(':', 1)[1].strip() for l in (read('/proc/cpuinfo') or '').splitlines()
                  if l.startswith('model name')), '?')
    ncpu = os.cpu_count()
    print('threads.py: pid %d, %d CPUs (%s), cpu0 siblings %s' % (pid, ncpu, model, sorted(siblings(0)) or 'none'))
    irq0 = irqdiff.parse(read('/proc/interrupts') or '')
    first, prev = {}, {}
    samples = []  # (t, cpu times, threads)
    t0 = time.monotonic()
    while True:
        th = threads(pid)
        if th is None:
            break
        samples.append((time.monotonic() - t0, cpu_times(), th))
        for tid, v in th.items():
            first.setdefault(tid, v)
            prev[tid] = v
        time.sleep(0.5)
    if len(samples) < 3:
        print('threads.py: the process ran under a second')
        return 0
    irq1 = irqdiff.parse(read('/proc/interrupts') or '')
    print('  s  busy%  steal%  | step thread: cpu%  runq%  preempt/s  cpus (their siblings busy%) irq% of its CPU  | busiest other: comm cpu%')
    for i in range(2, len(samples), 2):
        (ta, ca, tha), (tb, cb, thb) = samples[i - 2], samples[i]
        dt = tb - ta
        all_a, all_b = ca.get('all'), cb.get('all')
        tot = (all_b[2] - all_a[2]) or 1
        busy, steal = 100.0 * (all_b[0] - all_a[0]) / tot, 100.0 * (all_b[1] - all_a[1]) / tot
        step = [tid for tid, v in thb.items() if v['comm'] == name and tid in tha]
        line = '%3d  %5.1f  %6.1f  |' % (round(ta), busy, steal)
        if step:
            a, b = tha[step[0]], thb[step[0]]
            cpus = sorted({samples[i - 1][2].get(step[0], a)['cpu'], b['cpu']})
            sib = []
            for c in cpus:
                for s in sorted(siblings(c)):
                    if s in ca and s in cb:
                        d = (cb[s][2] - ca[s][2]) or 1
                        sib.append('%d:%d' % (s, round(100.0 * (cb[s][0] - ca[s][0]) / d)))
            c = b['cpu']
            irq = 100.0 * (cb[c][3] - ca[c][3]) / ((cb[c][2] - ca[c][2]) or 1) if c in ca and c in cb else -1
            line += ' %5.1f  %5.1f  %7.0f  %s (%s) %.1f' % (
                (b['run'] - a['run']) / dt / 1e7, (b['wait'] - a['wait']) / dt / 1e7,
                (b['nvcsw'] - a['nvcsw']) / dt, ','.join(str(c) for c in cpus), ' '.join(sib) or '-', irq)
        else:
            line += ' (no thread named %s)' % name
        others = [(thb[t]['run'] - tha[t]['run'], t) for t in thb if t in tha and t not in step]
        if others:
            run, t = max(others)
            line += '  |  %s/%d %.0f' % (thb[t]['comm'], t, run / dt / 1e7)
        print(line)
    span = samples[-1][0] - samples[0][0]
    rows = []
    for tid, last in prev.items():
        f = first[tid]
        rows.append((last['run'] - f['run'], tid, last, f))
    rows.sort(reverse=True)
    print('busiest threads over %.1f s: tid comm  cpu ms  runqueue ms  preemptions  voluntary switches' % span)
    for run, tid, last, f in rows[:12]:
        print('  %7d %-16s %8.0f %8.0f %8d %9d' % (tid, last['comm'], run / 1e6, (last['wait'] - f['wait']) / 1e6,
                                                  last['nvcsw'] - f['nvcsw'], last['vcsw'] - f['vcsw']))
    print('interrupts over the run (the 6 most): name  count  CPUs  per CPU (cpu:count)')
    irqdiff.report(irq0, irq1, top=6, per_cpu=True)
    last = samples[-1][1]
    f0 = samples[0][1]
    print('irq%% per CPU over the run: %s' % ' '.join(
        '%d:%.1f' % (c, 100.0 * (last[c][3] - f0[c][3]) / ((last[c][2] - f0[c][2]) or 1))
        for c in sorted(k for k in last if k != 'all' and k in f0)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
