#!/usr/bin/env python3
"""test-summary.py: the end of `make test`, from the go test -json events of every run
(scripts/test.sh writes one file per run, KIND-PACKAGE.json): each run's time, the skipped tests
with the reason each gave, the failures with their output, and a closing line
"N passed, N failed" over the top-level tests of every run. Exit status 1 if anything failed.

Usage: scripts/test-summary.py FILE.json...
"""
import json
import os
import re
import sys

runs = []  # (name, package, elapsed, failed)
kinds = {}  # run -> plain, race, plain-fuzz, plain-sound
tests = {}  # (run, package, test) -> action
outputs = {}  # (run, package, test or "") -> [lines]
for path in sys.argv[1:]:
    run = os.path.basename(path)[: -len(".json")]
    pkg, elapsed, status = None, None, None
    with open(path, errors="replace") as f:
        for line in f:
            try:
                ev = json.loads(line)
            except ValueError:  # not an event: a line the binary printed outside the protocol
                outputs.setdefault((run, pkg or "?", ""), []).append(line)
                continue
            pkg = ev.get("Package", pkg)
            test, action = ev.get("Test"), ev.get("Action")
            if action == "output":
                outputs.setdefault((run, pkg, test or ""), []).append(ev.get("Output", ""))
            elif action in ("pass", "fail", "skip"):
                if test:
                    tests[(run, pkg, test)] = action
                else:
                    elapsed, status = ev.get("Elapsed"), action
    if status is None:  # the binary ended without a verdict: crashed or killed
        status = "fail"
    pkg = pkg or run
    runs.append((run, pkg, elapsed, status == "fail"))
    kinds[run] = run[: len(run) - len(pkg.replace("/", "_")) - 1]


def cpu_seconds(run):
    """The run's CPU seconds (user + system, its X server's included) from scripts/test.sh's
    cpu/RUN file beside the json folder ("WALL CPU"), or None."""
    try:
        with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[1]))), "cpu", run)) as f:
            return float(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None


print("Time per run (wall s, go test's own; CPU s, user + system; plain: the package's tests,")
print("race: under -race, fuzz: the corpora, sound: the sound tests):")
for run, pkg, elapsed, failed in sorted(runs, key=lambda r: -(r[2] or 0)):
    c = cpu_seconds(run)
    print(f"  {elapsed if elapsed is not None else float('nan'):7.1f} {c if c is not None else float('nan'):7.0f}  {kinds[run]:11} {pkg}{'  FAILED' if failed else ''}")

skip_line = re.compile(r"^\s+\S+\.go:\d+: (.*)$")
skipped = [(r, p, t) for (r, p, t), a in sorted(tests.items()) if a == "skip"]
print(f"\nSkipped ({len(skipped)} tests and subtests):")
for r, p, t in skipped:
    reason = [m.group(1) for l in outputs.get((r, p, t), []) if (m := skip_line.match(l.rstrip("\n")))]
    print(f"  {p} {t} [{kinds[r]}]: {' / '.join(reason) or '(no reason given)'}")

failed_tests = [(r, p, t) for (r, p, t), a in sorted(tests.items()) if a == "fail"]
failed_runs = [(r, p) for r, p, _, f in runs if f]
if failed_runs:
    print("\nFailures:")
    for r, p in failed_runs:
        ft = [t for (rr, pp, t) in failed_tests if rr == r and pp == p]
        print(f"--- {r}: {', '.join(ft) if ft else 'no test failed: the binary crashed, timed out or did not build'}")
        for t in [t for t in ft if "/" not in t] or [""]:
            print("".join(outputs.get((r, p, t), [])[-40:]), end="")
        if not ft:
            print("".join(outputs.get((r, p, ""), [])[-40:]), end="")

top = [a for (r, p, t), a in tests.items() if "/" not in t]
print(f"\nruns: {sum(1 for *_, f in runs if not f)} ok, {len(failed_runs)} failed (a run is one package's binary: plain, race, fuzz corpora or sound)")
print(f"{top.count('pass')} passed, {top.count('fail')} failed (top-level tests, counted once per run; {top.count('skip')} skipped)")
sys.exit(1 if failed_runs or "fail" in top else 0)
