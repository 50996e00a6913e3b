#!/usr/bin/env python3
"""cprof.py BINARY PROFILE [N]: a Go CPU profile taken with -cpuprofile (internal/cgoprof) read down
to C: each location in BINARY's own C code (FFmpeg, the toolkit's C) named from BINARY's symbol
table (`nm`; pprof names only Go code there), a shared library's as library+offset. Prints the N
(default 30) top functions by own samples and by samples under them, and the top Go->C call sites.
BINARY: the same build unstripped (go build without -ldflags=-s: the code's addresses are the same)."""
import bisect, collections, subprocess, sys

binary, prof = sys.argv[1], sys.argv[2]
top = int(sys.argv[3]) if len(sys.argv) > 3 else 30
raw = subprocess.run(["go", "tool", "pprof", "-raw", binary, prof], capture_output=True, text=True, check=True).stdout
syms = []
for l in subprocess.run(["nm", "-C", "--defined-only", binary], capture_output=True, text=True).stdout.splitlines():
    f = l.split(None, 2)
    if len(f) == 3 and f[1] in "tTwW":
        syms.append((int(f[0], 16), f[2]))
syms.sort()
addrs = [a for a, _ in syms]
maps, locs, samples, section = {}, {}, [], None
for l in raw.splitlines():
    if l in ("Samples:", "Locations", "Mappings"):
        section = l
        continue
    if section == "Mappings" and ":" in l:
        i, rest = l.split(":", 1)
        f = rest.split()
        lo, hi, off = (int(x, 16) for x in f[0].split("/"))
        maps[i.strip()] = (lo, off, f[1].rsplit("/", 1)[-1])
    elif section == "Locations" and ":" in l:
        i, rest = l.split(":", 1)
        f = rest.split()
        locs[i.strip()] = (int(f[0], 16), f[1][2:], f[2] if len(f) > 2 and not f[2].startswith((":", "s=")) else "")
    elif section == "Samples:" and ":" in l and l.strip()[0].isdigit():
        n, stack = l.split(":", 1)
        samples.append((int(n.split()[0]), stack.split()))

def name(loc):
    a, m, fn = locs[loc]
    if fn and not fn.startswith("_cgo_"):
        return fn
    lo, off, file = maps.get(m, (0, 0, "?"))
    if m == "1":
        i = bisect.bisect_right(addrs, a) - 1
        return syms[i][1] if i >= 0 else hex(a)
    return f"{file}+{a - lo + off:#x}"

flat, cum, sites, total = collections.Counter(), collections.Counter(), collections.Counter(), 0
for n, stack in samples:
    names = [name(x) for x in stack]
    total += n
    flat[names[0]] += n
    for x in set(names):
        cum[x] += n
    go = next((x for x in names if "_Cfunc_" in x), None)  # the Go side's call into C
    own = next((x for x, s in zip(names, stack) if locs[s][1] == "1" and not locs[s][2]), None)
    if go:
        via = f" -> {own}" if own and own != names[0] else ""
        sites[go.split("_Cfunc_")[-1] + via + " -> " + names[0]] += n
print(f"{total} samples")
for title, c in (("own", flat), ("under", cum), ("C call -> innermost C function of the binary -> leaf", sites)):
    print(f"\n{title}:")
    for k, n in c.most_common(top):
        print(f"{n:7d} {100 * n / total:5.1f}%  {k}")
