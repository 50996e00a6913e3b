#!/usr/bin/env python3
"""Reads one ycbcrwall -stats line (the file's last JSON line) of a timed run and prints its figures
against issue 38's targets; exits 1 when one is missed.

Usage: wallcheck.py STATS.json MIN_FPS MAX_DROPPED MAX_STREAM_DROPPED
  e.g. wallcheck.py wall.json 59 0.01 0.02    (16 streams: 59 0.001 0.02)"""
import json, sys

path, min_fps, max_drop, max_stream = sys.argv[1], *map(float, sys.argv[2:5])
st = json.loads([l for l in open(path) if l.startswith("{")][-1])
ps = st["per_stream"]
why = [sum(s.get(f"dropped_late_{k}", 0) for s in ps) for k in ("decode", "display", "conversion")]
gaps = [s.get("play_gap_ms", 0) for s in ps if s.get("play_restarts")]
sp = lambda k: "/".join(f"{st[k][q]:.1f}" for q in ("p50", "p99", "max")) if st.get(k) else "-"
missed = [m for m, bad in (("fps", st["min_stream_fps"] < min_fps), ("dropped", st["dropped_share"] > max_drop),
                           ("stream dropped", st["max_stream_dropped_share"] > max_stream)) if bad]
print(f"{st['streams']} streams, {st['fps']:.0f} fps: slowest {st['min_stream_fps']:.1f} fps (>= {min_fps:g}), "
      f"dropped {100 * st['dropped_share']:.2f} % (<= {100 * max_drop:g}), worst stream "
      f"{100 * st['max_stream_dropped_share']:.2f} % (<= {100 * max_stream:g}); late decode/display/conversion "
      f"{why[0]}/{why[1]}/{why[2]}; step ms p50/p99/max {sp('step_ms')}, gap {sp('step_gap_ms')}, "
      f"late steps {st.get('late_steps', 0)} at {st.get('late_steps_at_s', [])} s; play gaps ms {max(gaps, default=0):.0f} at most; "
      f"cpu ms/picture {st['cpu_ms_per_picture']:.2f}, gpu MB {st['gpu_memory_mb']:.0f}; "
      f"scheduler latency ms {sp('sched_latency_ms')}, gc pauses ms {sp('gc_pause_ms')}: "
      + ("targets met" if not missed else "missed: " + ", ".join(missed)))
if st.get("slow_step_thread_ms"):
    t = st["slow_step_thread_ms"]
    print(f"steps over a period: {t['steps']:.0f}, {t['wall']:.0f} ms: on the CPU {t['on_cpu']:.0f}, waiting for one "
          f"{t['runqueue']:.0f}, asleep {t['asleep']:.0f}; by phase " +
          ", ".join(f"{k} {v:.0f}" for k, v in sorted(st.get("slow_step_phase_ms", {}).items())))
if st.get("asleep_ms"):
    print("asleep in steps (ms, phase and call): " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(st["asleep_ms"].items(), key=lambda kv: -kv[1])))
sys.exit(1 if missed else 0)
