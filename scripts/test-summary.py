#!/usr/bin/env python3
"""test-summary.py: the end of `make test`, from the go test -json events of every run
(scripts/test.sh writes one file per run, KIND-PACKAGE.json): each run's time, the skipped tests
with the reason each gave and where each runs instead (scripts/expected-skips.tsv), the sampler
path's "not offered" cases (the device lacks a siting or format: logged by the tests, counted
here), the failures with their output, and a closing line "N passed, N failed" over the top-level
tests of every run. Exit status 1 if anything failed, if a skip is not on the expected list, or
if a run scripts/test.sh started (its "started" file beside the json folder) wrote no results:
no file, or no test's verdict in it (an X server that did not start, a -run pattern that matches
nothing).

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
    if not os.path.exists(path):  # the shell's pattern, unmatched: no run wrote results
        continue
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


logdir = os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[1]))) if len(sys.argv) > 1 else "."
try:
    with open(os.path.join(logdir, "started")) as f:
        started = [l.strip() for l in f if l.strip()]
except OSError:
    started = []
with_results = {r for (r, p, t) in tests}
silent = [r for r in dict.fromkeys(started) if r not in with_results]

expected = {}  # (package, test) -> (why, where)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected-skips.tsv")) as f:
    for line in f:
        if line.strip() and not line.startswith("#"):
            pkg, test, why, where = line.rstrip("\n").split("\t")
            expected[(pkg, test)] = (why, where)
module = "github.com/ycbcrkit/ycbcrkit"


def short(pkg):
    return pkg[len(module) + 1:] if pkg.startswith(module + "/") else pkg


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
unexpected = []
print(f"\nSkipped ({len(skipped)} tests and subtests; expected: scripts/expected-skips.tsv):")
for r, p, t in skipped:
    reason = [m.group(1) for l in outputs.get((r, p, t), []) if (m := skip_line.match(l.rstrip("\n")))]
    print(f"  {p} {t} [{kinds[r]}]: {' / '.join(reason) or '(no reason given)'}")
    e = expected.get((short(p), t.split("/")[0]))
    if e:
        print(f"      expected: {e[0]}; runs instead: {e[1]}")
    else:
        print("      NOT ON THE EXPECTED LIST: a skip counts as a failure unless listed, with where it runs instead")
        unexpected.append((r, p, t))

# The sampler path's cases the device does not offer (a siting, a format): the tests log them with
# this phrase and go on with the shader path; they are no pass of the sampler path.
offered_line = re.compile(r"^\s+\S+\.go:\d+: (.*sampler path not offered.*)$")
not_offered = [(r, p, t, m.group(1)) for (r, p, t), lines in sorted(outputs.items()) for l in lines
               if (m := offered_line.match(l.rstrip("\n")))]
print(f"\nNot offered by this device on the sampler path ({len(not_offered)} cases, checked on the shader path only;"
      " NVIDIA offers them: scripts/device/run.sh tests, pictures):")
for r, p, t, why in not_offered:
    print(f"  {short(p)} {t} [{kinds[r]}]: {why}")
if silent:
    print(f"\nRuns that wrote no results ({len(silent)}: started, but no test verdict; its log, if any, is in json/):")
    for r in silent:
        print(f"  {r}")

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
if unexpected:
    print(f"{len(unexpected)} skips not on scripts/expected-skips.tsv: failed")
if silent:
    print(f"{len(silent)} runs wrote no results: failed")
sys.exit(1 if failed_runs or "fail" in top or unexpected or silent else 0)
