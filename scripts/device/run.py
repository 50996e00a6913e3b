#!/usr/bin/env python3
"""Runs rows of scripts/device/runs.json on the GPU machine and prints one summary table.

Usage (from the checkout's root, after scripts/device/run.sh's set-up): run.py [-n] RUN...
  -n       print each command (placeholders filled, variables not) and the paths the runs carry
  OLD=DIR  a carried folder with an earlier build's programs: every measured step whose command
           names $Y runs with that build too, interleaved, and passes only at >= 0.97 of its fps
  ROUNDS=N every measured step N rounds (a quick look)

A run is a list of steps. A step's command runs under bash in the checkout's root with B (this
build's binaries), Y (the programs under test: B, or OLD), C, HC, RC (clips), L (logs), OUT, T (half
the cores), under a limit (s). Steps without rounds run once, in order; then the measured ones
(rounds) in interleaved rounds, beside nvidia-smi dmon. "over" repeats a step for every combination
of its values ({name} in step and cmd; "glob:PATTERN..." lists files); "procs" runs N copies at once
and adds their frames; "rc" is the exit status that passes (default 0), "refuse" also passes a clean
refusal (exit 1, one last error: line, no trace). Any validation message fails a step. A step
{"use": ROW, "steps": [NAME...]} stands for those steps of another run (a set-up several share)."""
import itertools, glob, json, os, re, shutil, signal, statistics, subprocess, sys, time

R = os.getcwd()
OUT = os.environ.get("OUT", "/tmp/out")
L = os.path.join(OUT, "logs")
VALIDATION = re.compile(r"VUID-|UNASSIGNED-|SYNC-HAZARD|validation message\(s\)")
REFUSAL_VUID = re.compile(r"^error: .*VUID-[A-Za-z0-9-]*\)")  # a refusal citing a VUID as its reason
med = statistics.median


def uses(steps, runs):
    """steps with each {"use": ROW, "steps": [NAME...]} replaced by those steps of run ROW."""
    for st in steps:
        if "use" in st:
            yield from (u for u in uses(runs[st["use"]]["steps"], runs) if u["step"] in st["steps"])
        else:
            yield st


def expand(step):
    """One step per combination of its "over" values, with {name} filled in."""
    over = step.get("over", {})
    vals = {k: sorted(p for g in v[5:].split() for p in glob.glob(g)) if isinstance(v, str) and v.startswith("glob:")
            else v for k, v in over.items()}
    for combo in itertools.product(*vals.values()):
        sub = dict(zip(vals, map(str, combo)))
        fill = lambda s: re.sub(r"\{(\w+)\}", lambda m: sub.get(m[1], m[0]), s)
        yield dict(step, step=fill(step["step"]), cmd=fill(step["cmd"]), vs=fill(step.get("vs", "")),
                   procs=int(fill(str(step.get("procs", 1)))))


def dmon_start():
    if not shutil.which("nvidia-smi"):
        return None
    return subprocess.Popen(["nvidia-smi", "dmon", "-s", "u", "-d", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)


def dmon_stop(p):
    """The largest sm% and dec% nvidia-smi dmon read while the step ran (the table's), and every dec%
    sample, one a second (runs.jsonl's dec_samples: the largest is a peak, their run the use)."""
    if not p:
        return None, None, []
    p.terminate()
    rows = [l.split() for l in p.communicate()[0].splitlines() if l.split() and l.split()[0].isdigit()]
    vals = lambda i: [int(r[i]) for r in rows if len(r) > i and r[i].isdigit()]
    return max(vals(1), default=None), max(vals(4), default=None), vals(4)


def parse(out, err):
    """Figures of one process: its last JSON line (-stats) or ffmpeg's -benchmark and stats lines."""
    js = next((json.loads(l) for l in reversed(out.splitlines()) if l.startswith("{")), {})
    f = {"frames": js.get("frames_decoded", js.get("frames")), "rss": js.get("peak_rss_mb"),
         "gpu": js.get("gpu_memory_mb"), "cpu": js.get("cpu_s", js.get("cpu_seconds"))}
    if f["frames"] is None and (m := re.findall(r"frame=\s*(\d+)", err)):
        f["frames"] = int(m[-1])
    if f["rss"] is None and (m := re.search(r"maxrss=(\d+)KiB", err)):
        f["rss"] = int(m[1]) / 1024
    if f["cpu"] is None and (m := re.search(r"utime=([\d.]+)s stime=([\d.]+)s", err)):
        f["cpu"] = float(m[1]) + float(m[2])
    notes = [f"{k} {js[k]:.0f}" if isinstance(js[k], float) else f"{k} {js[k]}"
             for k in ("path", "hwdec_route", "variant", "min_stream_fps") if js.get(k)]
    if "per_stream" in js:
        notes.append(f"dropped {sum(s.get('dropped', 0) for s in js['per_stream'])}")
        # The streams' own rates added: what the decoders deliver while all run (fps above ends
        # with the slowest stream).
        notes.append(f"sum of rates {sum(s.get('fps', 0) for s in js['per_stream']):.0f}")
    t = {k: len(re.findall(rf"^\s*--- {k}", out, re.M)) for k in ("PASS", "FAIL", "SKIP")}
    if sum(t.values()):
        notes.insert(0, f"{t['PASS']} passed {t['FAIL']} failed {t['SKIP']} skipped")
    return f, notes


def execute(run, st, build, rnd, dry):
    env = dict(os.environ, R=R, OUT=OUT, L=L, B=f"{R}/.gpu/nowindow", C=f"{R}/.gpu/clips",
               HC=f"{R}/.gpu/hwclips", RC=f"{R}/.gpu/relclips", T=str(max(1, os.cpu_count() // 2)))
    env["Y"] = os.path.join(R, os.environ["OLD"]) if build == "old" else env["B"]
    procs, limit = st.get("procs", 1), st.get("limit", 120)
    if dry:
        print(f"{run}/{st['step']}" + (f" [{build} r{rnd}]" if rnd else "") + (f" x{procs}" if procs > 1 else ""),
              f"\n    {st['cmd']}")
        return None
    base = os.path.join(L, re.sub(r"[^\w.-]", "_", f"{run}.{st['step']}.{build}.{rnd}"))
    dm = dmon_start() if rnd else None
    t0, ps = time.time(), []
    for i in range(procs):
        o, e = open(f"{base}.{i}.out", "w"), open(f"{base}.{i}.err", "w")
        ps.append(subprocess.Popen(["bash", "-c", st["cmd"]], cwd=R, env=env, stdout=o, stderr=e, start_new_session=True))
    rcs = []
    for p in ps:
        try:
            rcs.append(p.wait(timeout=max(1, t0 + limit - time.time())))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rcs.append(137)
    wall = time.time() - t0
    sm, dec, decs = dmon_stop(dm)
    rec = {"run": run, "step": st["step"], "build": build, "round": rnd, "wall_s": wall, "sm": sm, "dec": dec,
           "dec_samples": decs, "frames": 0, "rss": None, "gpu": None, "cpu": 0, "vs": st.get("vs", "")}
    verdicts, notes = [], []
    for i, rc in enumerate(rcs):
        out, err = (open(f"{base}.{i}.{x}", errors="replace").read() for x in ("out", "err"))
        f, notes = parse(out, err)
        rec["frames"] += f["frames"] or 0
        rec["cpu"] += f["cpu"] or 0
        rec["rss"] = max(filter(None, [rec["rss"], f["rss"]]), default=None)
        rec["gpu"] = max(filter(None, [rec["gpu"], f["gpu"]]), default=None)
        vm = sum(1 for l in err.splitlines() if VALIDATION.search(l) and not REFUSAL_VUID.match(l))
        errs = [l for l in err.splitlines() if l.startswith("error: ")]
        last = (err.strip().splitlines() or [""])[-1]
        if vm:
            verdicts.append("FAIL")
            notes.insert(0, f"{vm} validation lines")
        elif rc == st.get("rc", 0):
            verdicts.append("ok")
        elif st.get("refuse") and rc == 1 and len(errs) == 1 and last.startswith("error: ") and \
                not re.search(r"^(panic|goroutine |fatal error)", err, re.M):
            verdicts.append("refused")
            notes.insert(0, last[:90])
        else:
            verdicts.append("FAIL")
            notes.insert(0, f"rc {rc}: {last[:90]}")
    rec["verdict"] = next((v for v in ("FAIL", "refused") if v in verdicts), "ok")
    rec["note"] = "; ".join(notes)
    with open(os.path.join(OUT, "runs.jsonl"), "a") as o:
        o.write(json.dumps(rec) + "\n")
    print(f"  {run}/{st['step']} {build} r{rnd}: {rec['verdict']} {wall:.1f} s {rec['note'][:100]}", file=sys.stderr)
    return rec


def summary(recs):
    """One line per step: verdict, medians over its rounds, fps against its reference and OLD's."""
    fps = lambda rs: med(r["frames"] / r["wall_s"] for r in rs) if rs and all(r["frames"] for r in rs) else None
    keys = list(dict.fromkeys((r["run"], r["step"]) for r in recs))
    by = {k: [r for r in recs if (r["run"], r["step"]) == k and r["build"] == "new"] for k in keys}
    old = {k: [r for r in recs if (r["run"], r["step"]) == k and r["build"] == "old"] for k in keys}
    num = lambda v, f: format(v, f) if v is not None else "-".rjust(int(re.match(r"\d+", f)[0]))
    print(f"{'run/step':44} {'verdict':7} {'n':>2} {'wall s':>7} {'frames':>7} {'fps':>8} {'vs ref':>6} "
          f"{'new/old':>7} {'rss MB':>6} {'gpu MB':>6} {'sm%':>3} {'dec%':>4}  note")
    bad = False
    many = {n for n in {k[0] for k in keys} if sum(k[0] == n for k in keys) > 30}
    for k in keys:
        rs = by[k]
        if not rs or (k[0] in many and all(r["verdict"] == "ok" for r in rs)):
            continue
        f, verdict = fps(rs), next((v for v in ("FAIL", "refused") if any(r["verdict"] == v for r in rs)), "ok")
        ref = fps(by.get((k[0], rs[0]["vs"]), [])) if rs[0]["vs"] else None
        ab = f / fps(old[k]) if f and fps(old[k]) else None
        if ab is not None and ab < 0.97 and verdict == "ok":
            verdict = "SLOWER"
        bad |= verdict in ("FAIL", "SLOWER")
        g = lambda x: max((r[x] for r in rs if r[x] is not None), default=None)
        print(f"{'/'.join(k)[-44:]:44} {verdict:7} {len(rs):2d} {med(r['wall_s'] for r in rs):7.2f} {num(rs[0]['frames'] or None, '7d')} "
              f"{num(f, '8.1f')} {num(f / ref if f and ref else None, '6.3f')} {num(ab, '7.3f')} {num(g('rss'), '6.0f')} "
              f"{num(g('gpu'), '6.0f')} {num(g('sm'), '3d')} {num(g('dec'), '4d')}  {rs[-1]['note'][:110]}")
    for n in sorted(many):
        ok = [k for k in keys if k[0] == n and by[k] and all(r["verdict"] == "ok" for r in by[k])]
        print(f"{n}: {len(ok)} more steps ok (runs.jsonl lists them)")
    return bad


def main(argv):
    dry = argv[:1] == ["-n"]
    names = argv[1:] if dry else argv
    runs = {r["name"]: r for r in json.load(open(os.environ.get("RUNS", os.path.join(os.path.dirname(__file__), "runs.json"))))["runs"]}
    if not names or any(n not in runs for n in names):
        sys.exit(f"error: name runs of scripts/device/runs.json: {' '.join(runs)}")
    ab = ["new"] + (["old"] if os.environ.get("OLD") else [])
    if dry:
        old = [os.environ["OLD"].rstrip("/") + ".tar.xz"] if len(ab) > 1 else []  # build.sh old: .gpu/old.tar.xz
        print("carry:", " ".join(dict.fromkeys(c for n in names for c in runs[n]["carry"] + old)))
    os.makedirs(L, exist_ok=True)
    recs = []
    for n in names:
        run = runs[n]
        print(f"== {n}: {run['passes']}", file=sys.stderr)
        steps = [s for st in uses(run["steps"], runs) for s in expand(st)]
        for st in (s for s in steps if not s.get("rounds")):
            recs.append(execute(n, st, "new", 0, dry))
        measured = [s for s in steps if s.get("rounds")]
        rounds = lambda s: int(os.environ.get("ROUNDS", s["rounds"]))
        for rnd in range(1, max(map(rounds, measured), default=0) + 1):
            for st in (s for s in measured if rounds(s) >= rnd):
                for build in ab if "$Y" in st["cmd"] else ["new"]:
                    recs.append(execute(n, st, build, rnd, dry))
    if not dry:
        sys.exit(1 if summary(recs) else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
