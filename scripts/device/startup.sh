#!/bin/bash
# Device run: whole-run throughput of single plays, start-up included (issue 12's last goal:
# ycbcrplay -headless -untimed ≥ 0.95 × the same build's ffmpeg -f null, same decoder threads).
# Per clip, RUNS rounds (default 10), each: ffmpeg, then ycbcrplay three ways:
#   cache   the default: the pipeline cache and the remembered conversion variant in
#           $XDG_CACHE_HOME/ycbcrkit, emptied before the clip's first round (round 1 cold, then warm)
#   off     -cache off: nothing kept by the player (the variant probe in each run; the driver's own
#           shader cache, below, still warm)
#   noahead the default cache, -decode-ahead 0: the decoder stops 3 frames in until the first picture
# Wall time is from process start to exit for every tool. $YP_ARGS adds arguments to every ycbcrplay
# run (YP_ARGS="-hwdec vulkan" for hardware decoding).
# Prepare here: scripts/device/build.sh. Run there with .gl, .gpu/decode.tar.xz and .gpu/clips carried:
#   bash scripts/device/startup.sh [RUNS]
# First, the pipeline cache test on the device (gpu.test: does the driver keep pipelines in its
# cache, and does a seeded cache hold them), validation layer on.
# Output ($OUT): summary.txt (ratios and start-up phases), startup.jsonl (every run), gpu.txt,
# pipecache.txt.
set -u
RUNS=${1:-10}
root=$PWD
tar -C .gpu -xJf .gpu/decode.tar.xz
B=$root/.gpu/nowindow
. scripts/device/setup.sh "$B/ycbcrplay"
T=$(($(nproc) / 2)) # ycbcrplay's default: half the cores decode
(cd gpu && "$B/gpu.test" -test.run 'TestPipelineCache' -test.v -test.count=1 >"$OUT/pipecache.txt" 2>&1; echo "rc=$?" >>"$OUT/pipecache.txt")
grep -E "stores|^(--- |ok|FAIL|PASS|rc=)" "$OUT/pipecache.txt"
export XDG_CACHE_HOME=$root/.gpu/xdg
# NVIDIA's driver keeps a disk cache of its own (GLCache): put it there too, so that emptying
# $XDG_CACHE_HOME before a clip makes its first run cold for the driver as well.
export __GL_SHADER_DISK_CACHE_PATH=$XDG_CACHE_HOME/nvidia
now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
log=$OUT/startup.jsonl
: >"$log"
player() { # label, clip, round, args...
	local label=$1 clip=$2 r=$3; shift 3
	local t0 t1 js rc
	t0=$(now)
	js=$("$B/ycbcrplay" -headless -untimed -stats -threads "$T" ${YP_ARGS:-} "$@" ".gpu/clips/$clip.mkv" 2>"$OUT/yp.err")
	rc=$?
	t1=$(now)
	echo "{\"tool\":\"$label\",\"clip\":\"$clip\",\"run\":$r,\"rc\":$rc,\"wall_s\":$(calc "$t1 - $t0"),\"stats\":${js:-null}}" >>"$log"
	[ $rc = 0 ] || { echo "ycbcrplay $label $clip: rc=$rc"; cat "$OUT/yp.err"; }
}
for clip in h264-1080p hevc-1080p h264-2160p hevc-2160p hevc10-2160p; do
	rm -rf "$XDG_CACHE_HOME" && mkdir -p "$__GL_SHADER_DISK_CACHE_PATH"
	for ((r = 1; r <= RUNS; r++)); do
		t0=$(now)
		"$B/ffmpeg" -hide_banner -nostdin -nostats -threads "$T" -i ".gpu/clips/$clip.mkv" -f null - 2>"$OUT/ff.err"
		rc=$?
		t1=$(now)
		echo "{\"tool\":\"ffmpeg\",\"clip\":\"$clip\",\"run\":$r,\"rc\":$rc,\"wall_s\":$(calc "$t1 - $t0")}" >>"$log"
		player cache "$clip" "$r"
		player off "$clip" "$r" -cache off
		player noahead "$clip" "$r" -decode-ahead 0
	done
done
rm -f "$OUT/ff.err" "$OUT/yp.err"
python3 - "$log" "$T" >"$OUT/summary.txt" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
med = statistics.median
n = max(r['run'] for r in runs)
print(f"decoder threads: {sys.argv[2]} (both tools); single plays; wall time from process start to exit;")
print(f"ratio: ffmpeg's median wall time over the player's (whole-run throughput); cold: round 1 of 'cache' (empty cache), warm: median of rounds 2-{n}")
print("RSS: peak resident MB (getrusage); ahead: decoded frames waiting at the first picture; shut: shutdown_ms; then startup_ms phases (medians)")
phases = ["before_play", "open_input", "instance", "device", "pipeline_cache", "renderer", "first_decoded", "wait_decoded", "output", "first_draw", "probe", "pipelines", "first_frame"]
print(f"{'clip':13} {'run':12} {'frames':>6} {'wall s':>7} {'fps':>7} {'ratio':>6} {'RSS MB':>6} {'ahead':>5} {'shut':>5} " + " ".join(f"{p[:11]:>11}" for p in phases) + "  conversion_reason")
for clip in dict.fromkeys(r['clip'] for r in runs):
    ff = [r['wall_s'] for r in runs if r['clip'] == clip and r['tool'] == 'ffmpeg' and r['rc'] == 0]
    if not ff:
        print(f"{clip:13} ffmpeg failed"); continue
    ffw = med(ff)
    rows = [("ffmpeg", None)]
    for tool in ("cache", "off", "noahead"):
        ok = [r for r in runs if r['clip'] == clip and r['tool'] == tool and r['rc'] == 0 and r['stats']]
        if tool == "cache":
            rows += [("cache cold", [r for r in ok if r['run'] == 1]), ("cache warm", [r for r in ok if r['run'] > 1])]
        else:
            rows.append((tool, ok))
    for label, rs in rows:
        if rs is None:
            print(f"{clip:13} {label:12} {'':>6} {ffw:7.3f}"); continue
        if not rs:
            if label != "cache warm" or n > 1:
                print(f"{clip:13} {label:12} failed")
            continue
        k = rs[0]['stats']['frames_decoded']
        w = med(r['wall_s'] for r in rs)
        st = [r['stats'] for r in rs]
        cols = " ".join(f"{med(s['startup_ms'].get(p, s.get('first_frame_ms', 0)) for s in st):11.1f}" for p in phases)
        print(f"{clip:13} {label:12} {k:6d} {w:7.3f} {k/w:7.1f} {ffw/w:6.3f} {med(s['peak_rss_mb'] for s in st):6.0f} {med(s['decoded_ahead_frames'] for s in st):5.0f} "
              f"{med(s['shutdown_ms'] for s in st):5.0f} {cols}  {st[-1]['conversion_reason']}")
PY
cat "$OUT/summary.txt"
