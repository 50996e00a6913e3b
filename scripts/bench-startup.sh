#!/usr/bin/env bash
# Start-up of ycbcrplay on this machine: time to the first picture (-stats first_frame_ms and the
# startup_ms phases) and process wall time, headless and untimed, for several builds or settings
# side by side, RUNS interleaved rounds, medians.
# Usage: scripts/bench-startup.sh [RUNS] [BEFORE_BINARY] CLIP...
#   BEFORE_BINARY (optional, a path ending in ycbcrplay*): an older build to compare with, run with
#   no -cache flag (it has none). The current bin/ycbcrplay runs three ways: -cache off (nothing
#   kept), cold (an empty cache folder each round), warm (a cache folder the first round filled).
# Each run plays -frames ${FRAMES:-10}.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}; shift
before=""
if [[ ${1:-} == *ycbcrplay* ]]; then before=$1; shift; fi
FRAMES=${FRAMES:-10}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$tmp/runs.jsonl
warm=$tmp/warm
one() { # label, clip, binary, args...
	local label=$1 clip=$2 bin=$3; shift 3
	local t0 t1 js
	t0=$(date +%s.%N)
	js=$("$bin" -headless -untimed -stats -frames "$FRAMES" "$@" "$clip" 2>/dev/null)
	t1=$(date +%s.%N)
	echo "{\"label\":\"$label\",\"clip\":\"$(basename "$clip")\",\"wall_s\":$(awk "BEGIN{print $t1-$t0}"),\"stats\":$js}" >>"$out"
}
for clip in "$@"; do # the warm folder gets its first fill outside the timed rounds
	bin/ycbcrplay -headless -untimed -frames 1 -cache "$warm" "$clip" >/dev/null 2>&1
done
for ((r = 1; r <= RUNS; r++)); do
	for clip in "$@"; do
		[ -n "$before" ] && one before "$clip" "$before"
		one off "$clip" bin/ycbcrplay -cache off
		rm -rf "$tmp/cold"; one cold "$clip" bin/ycbcrplay -cache "$tmp/cold"
		one warm "$clip" bin/ycbcrplay -cache "$warm"
	done
done
python3 - "$out" "$RUNS" "$FRAMES" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
med = statistics.median
print(f"medians of {sys.argv[2]} interleaved rounds, -frames {sys.argv[3]}; ms")
phases = ["instance", "device", "renderer", "output", "first_draw", "probe", "pipelines", "first_frame"]
print(f"{'clip':16} {'run':7} {'wall':>7} " + " ".join(f"{p:>11}" for p in phases) + "  conversion_reason")
for clip in dict.fromkeys(r['clip'] for r in runs):
    for label in dict.fromkeys(r['label'] for r in runs):
        rs = [r for r in runs if r['clip'] == clip and r['label'] == label]
        st = [r['stats'] for r in rs]
        cols = []
        for p in phases:
            if p == "first_frame":
                vals = [s['first_frame_ms'] for s in st]
            elif all('startup_ms' in s for s in st):
                vals = [s['startup_ms'][p] for s in st]
            else:
                vals = None
            cols.append(f"{med(vals):11.1f}" if vals else f"{'-':>11}")
        print(f"{clip:16} {label:7} {1000*med(r['wall_s'] for r in rs):7.0f} " + " ".join(cols) + f"  {st[-1]['conversion_reason']}")
PY
