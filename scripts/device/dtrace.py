#!/usr/bin/env python3
"""Reads a decode trace (YCBCRKIT_DECODE_TRACE=FILE, internal/avx/dtrace.c) and says where the
decode queues' time went.

Usage: dtrace.py [-seconds] FILE...

Each line is one decoding: the queue its batch went to, the CPU clock around its submission, GPU
timestamps before its coding scope began and after it ended. Per queue (an engine each, when the
queues' decodings overlap in time): busy (inside coding scopes), and the gaps between one decoding's
end and the next one's start, split into
  starved  the next decoding was not submitted yet (the CPU side had nothing for the queue), and
  held     it was submitted, and had not started: its semaphore waits, the barriers FFmpeg records
           before the scope, the engine's switch between decodings.
The CPU and GPU clocks are tied by the smallest (GPU start - CPU submission) seen: a decoding that
found its queue idle starts about when it was submitted. Starved is then a lower bound. Held gaps
are split at the decoding's first command (before it: its batch's semaphore operations and the
engine between batches; after: FFmpeg's barriers), and each stream's turnaround is given: from a
decoding's end to the submission of its next but one. -seconds adds a line a second of the trace:
the decodings begun, the queues' busy share, and each stream's longest pause between two
submissions (a second in which every stream paused at once is the CPU side's, or the wall's; one
stream's, its decoder's)."""
import sys
from statistics import median


def load(path):
    period, rows = 1.0, []
    for line in open(path):
        if line.startswith("#"):
            for kv in line[1:].split():
                k, _, v = kv.partition("=")
                if k == "period_ns":
                    period = float(v)
            continue
        if line.startswith("slot"):
            continue
        f = line.strip().split(",")
        s, q, st, c0, c1, b, e = f[:7]
        if int(b) < 0 or int(e) < 0:
            continue
        r = {"q": q, "stream": int(st), "c0": int(c0), "c1": int(c1), "b": int(b) * period, "e": int(e) * period}
        if len(f) >= 11:  # the first command's timestamp, the CPU's recording, the batch's semaphores
            a = int(f[7])
            r.update({"a": a * period if 0 <= a <= int(b) else int(b) * period, "rec": int(f[8]),
                      "waits": int(f[9]), "signals": int(f[10])})
        rows.append(r)
    return rows


def q(l, f):
    return l[int(f * (len(l) - 1))] / 1e3 if l else 0.0


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def report(path):
    """Prints path's figures; returns its decodings, each with "ready": its submission on the GPU's
    clock."""
    rows = load(path)
    if not rows:
        print(f"{path}: no decodings with timestamps")
        return rows
    off = min(r.get("a", r["b"]) - r["c0"] for r in rows)
    for r in rows:
        r["ready"] = r["c0"] + off
    t0, t1 = min(r["b"] for r in rows), max(r["e"] for r in rows)
    queues = sorted({r["q"] for r in rows})
    print(f"{path}: {len(rows)} decodings over {(t1 - t0) / 1e6:.1f} ms, {len(queues)} queues, "
          f"{len({r['stream'] for r in rows})} streams")
    print(f"{'queue':>14} {'decodings':>9} {'streams':>7} {'busy%':>6} {'held%':>6} {'starved%':>8} "
          f"{'dec us':>7} {'held us (median, p90)':>22} {'overlap':>7}")
    tot = {"busy": 0, "held": 0, "starved": 0, "span": 0}
    held_all = []
    for qu in queues:
        js = sorted((r for r in rows if r["q"] == qu), key=lambda r: r["b"])
        busy = sum(r["e"] - r["b"] for r in js)
        span = js[-1]["e"] - js[0]["b"]
        held = starved = 0.0
        holds, overlap = [], 0
        for a, b in zip(js, js[1:]):
            gap = b["b"] - a["e"]
            if gap < 0:
                overlap += 1
                continue
            s = min(gap, max(0.0, b["ready"] - a["e"]))
            starved += s
            held += gap - s
            if s == 0:
                holds.append(gap)
        held_all += holds
        holds.sort()
        print(f"{qu:>14} {len(js):>9} {len({r['stream'] for r in js}):>7} {pct(busy, span):6.1f} {pct(held, span):6.1f} "
              f"{pct(starved, span):8.1f} {median(r['e'] - r['b'] for r in js) / 1e3:7.0f} "
              f"{(median(holds) if holds else 0) / 1e3:>13.1f}, {q(holds, .9):6.1f} {overlap:>7}")
        tot["busy"] += busy
        tot["held"] += held
        tot["starved"] += starved
        tot["span"] += span
    # How many queues decode at once: more than one at a time means the queues are separate engines.
    ev = sorted([(r["b"], 1) for r in rows] + [(r["e"], -1) for r in rows])
    cur, last, hist = 0, ev[0][0], {}
    for t, d in ev:
        hist[cur] = hist.get(cur, 0) + (t - last)
        cur, last = cur + d, t
    conc = sum(k * v for k, v in hist.items()) / (t1 - t0)
    print(f"{'all':>14} {len(rows):>9} {'':>7} {pct(tot['busy'], tot['span']):6.1f} {pct(tot['held'], tot['span']):6.1f} "
          f"{pct(tot['starved'], tot['span']):8.1f}   held gaps: {len(held_all)}, "
          f"median {(median(held_all) if held_all else 0) / 1e3:.1f} us; "
          f"decodings at once: mean {conc:.2f}, max {max(k for k in hist if hist[k] > 0)}")
    # Held gaps by size: a tight mode is a cost every decoding pays; a long tail is waiting.
    edges = [5e3, 10e3, 20e3, 50e3, 100e3, 200e3, 500e3, 1e6, float("inf")]
    counts, sums, lo = [], [], 0
    for hi in edges:
        g = [x for x in held_all if lo <= x < hi]
        counts.append(len(g))
        sums.append(sum(g))
        lo = hi
    total = sum(sums) or 1
    print("held gaps (us):", "  ".join(f"<{e / 1e3:g}: {c} ({pct(s, total):.0f}% of held time)"
                                        for e, c, s in zip(edges, counts, sums)))
    if "a" in rows[0]:
        split(rows)
        turnaround(rows)
    # Submission to start: how long a submitted decoding waited in its queue.
    lat = sorted(r["b"] - r["ready"] for r in rows)
    print(f"submitted to started (us): median {median(lat) / 1e3:.0f}, p90 {q(lat, .9):.0f}, "
          f"max {lat[-1] / 1e3:.0f}")
    return rows


def split(rows):
    """A held gap in two: the previous decoding's end to this one's first command (its batch's
    semaphore waits, the previous one's signals, the engine between batches), and its first command
    to its coding scope (the barriers FFmpeg records first); by the batch's waits."""
    edge, bars, by = [], [], {}
    for qu in {r["q"] for r in rows}:
        js = sorted((r for r in rows if r["q"] == qu), key=lambda r: r["b"])
        for a, b in zip(js, js[1:]):
            if b["ready"] > a["e"] or b["b"] < a["e"]:
                continue  # starved or overlapping: not a held gap
            g = b["a"] - a["e"]
            edge.append(g)
            bars.append(b["b"] - b["a"])
            by.setdefault((b["waits"], a["signals"]), []).append(g)
    edge.sort(), bars.sort()
    print(f"held gap parts (us): end to first command median {q(edge, .5):.1f} p90 {q(edge, .9):.1f}; "
          f"first command to scope median {q(bars, .5):.1f} p90 {q(bars, .9):.1f}")
    print("end to first command by (waits of the batch, signals of the one before): " + "  ".join(
        f"{k}: {median(v) / 1e3:.1f} us x{len(v)}" for k, v in sorted(by.items()) if len(v) >= 50))


def turnaround(rows):
    """A stream has two decodings in flight (FFmpeg's two execution contexts), so its decoding n+2
    is submitted once n is done: from n's end on the GPU to n+2's recording and submission."""
    rec, sub, tot = [], [], []
    by = {}
    for r in rows:
        by.setdefault(r["stream"], []).append(r)
    for js in by.values():
        js.sort(key=lambda r: r["c0"])
        for a, b in zip(js, js[2:]):
            end_cpu = a["e"] - (a["ready"] - a["c0"])  # n's end on the CPU clock
            tot.append(b["c0"] - end_cpu)
            rec.append(b["rec"] - end_cpu)
            sub.append(b["c0"] - b["rec"])
    for name, l in (("n's end to n+2's submission", tot), ("n's end to n+2's recording", rec),
                    ("recording to submission", sub)):
        l.sort()
        print(f"  {name} (us): x{len(l)} p10 {q(l, .1):.0f} p50 {q(l, .5):.0f} p90 {q(l, .9):.0f} p99 {q(l, .99):.0f}")


def seconds(rows):
    """Per second of GPU time: decodings begun, the busy share of all queues, and the streams'
    pauses between submissions (their median and longest, in ms, and the longest's stream)."""
    queues = {r["q"] for r in rows}
    t0 = min(r["b"] for r in rows)
    n = int((max(r["e"] for r in rows) - t0) // 1e9) + 1
    busy, begun = [0.0] * n, [0] * n
    for r in rows:
        begun[int((r["b"] - t0) // 1e9)] += 1
        a, b = r["b"] - t0, r["e"] - t0
        while a < b:
            k = int(a // 1e9)
            edge = min(b, (k + 1) * 1e9)
            busy[k] += edge - a
            a = edge
    pauses = [{} for _ in range(n)]
    by = {}
    for r in rows:
        by.setdefault(r["stream"], []).append(r["ready"] - t0)
    for st, ts in by.items():
        ts.sort()
        for a, b in zip(ts, ts[1:]):
            k = int(max(a, 0) // 1e9)
            if k < n:
                pauses[k][st] = max(pauses[k].get(st, 0.0), b - a)
    print(f"{'second':>6} {'begun':>6} {'busy%':>6} {'pause ms: median':>17} {'longest':>8} {'stream':>6}")
    for k in range(n):
        ps = sorted(pauses[k].values())
        worst = max(pauses[k], key=pauses[k].get) if ps else -1
        print(f"{k:>6} {begun[k]:>6} {pct(busy[k], 1e9 * len(queues)):6.1f} {q(ps, .5) / 1e3:17.2f} "
              f"{(ps[-1] / 1e6 if ps else 0):8.2f} {worst:>6}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-seconds"]
    if not args:
        sys.exit(__doc__)
    for p in args:
        rows = report(p)
        if rows and "-seconds" in sys.argv[1:]:
            seconds(rows)
