#!/bin/bash
# Device run: whole-run throughput of single plays, start-up and shutdown included (issue 12's last
# goal: ycbcrplay -headless -untimed ≥ 0.95 × the same build's ffmpeg -f null). Like with like:
#   ffmpeg       ffmpeg -threads T -i CLIP -f null -                       software, T decoder threads
#   sw           ycbcrplay -hwdec no -threads T                             software, the same T
#   sw-teardown  the same with -teardown: the device, instance and decoder destroyed at exit (the
#                default leaves them to the OS once the GPU is idle and the pipeline cache written)
#   ffmpeg-hw    ffmpeg -threads 1 -hwaccel vulkan -hwaccel_output_format vulkan -i CLIP -f null -
#   hw           ycbcrplay -hwdec vulkan (Vulkan Video decodes on one thread, as ffmpeg-hw)
# on the 5 s (1080p) and 2 s (2160p) clips, and on LONG clips: the same clips looped LOOPS times
# here with ffmpeg -stream_loop (-c copy), so that the ratio at realistic lengths is measured beside
# the short one. The player's cache ($XDG_CACHE_HOME/ycbcrkit, and NVIDIA's own shader cache) is
# emptied before each clip; one cold sw and one cold hw run (-frames 30, logged as run 0) fill it,
# then RUNS rounds (LRUNS for long clips) of the five, interleaved, all warm.
# Wall time is from process start to exit for every tool; every command runs under timeout -s KILL.
# No new run starts after DEADLINE seconds (default 225), so the run stays within ~240 s.
# Prepare here: scripts/device/build.sh. Run there with .gl, .gpu/decode.tar.xz and .gpu/clips carried:
#   bash scripts/device/startup.sh [RUNS]        (RUNS default 3; LRUNS 2, LOOPS 10,
#   CLIPS and LONG lists of clip names: see below)
# First, the pipeline cache test on the device (gpu.test, validation layer on).
# Output ($OUT): summary.txt, startup.jsonl (every run), gpu.txt, pipecache.txt.
set -u
SECONDS=0
RUNS=${1:-3}
LRUNS=${LRUNS:-2}
LOOPS=${LOOPS:-10}
DEADLINE=${DEADLINE:-225}
CLIPS=${CLIPS:-"h264-1080p hevc-1080p h264-2160p hevc-2160p hevc10-2160p"}
LONG=${LONG:-"h264-1080p hevc-1080p"}
root=$PWD
tar -C .gpu -xJf .gpu/decode.tar.xz
B=$root/.gpu/nowindow
. scripts/device/setup.sh "$B/ycbcrplay"
T=$(($(nproc) / 2)) # ycbcrplay's default: half the cores decode
(cd gpu && timeout -s KILL 60 "$B/gpu.test" -test.run 'TestPipelineCache' -test.v -test.count=1 >"$OUT/pipecache.txt" 2>&1; echo "rc=$?" >>"$OUT/pipecache.txt")
grep -E "stores|^(--- |ok|FAIL|PASS|rc=)" "$OUT/pipecache.txt"
export XDG_CACHE_HOME=$root/.gpu/xdg
# NVIDIA's driver keeps a disk cache of its own (GLCache): put it there too, so that emptying
# $XDG_CACHE_HOME before a clip makes its first run cold for the driver as well.
export __GL_SHADER_DISK_CACHE_PATH=$XDG_CACHE_HOME/nvidia
now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
log=$OUT/startup.jsonl
: >"$log"
late() { [ "$SECONDS" -ge "$DEADLINE" ] && { echo "deadline ${DEADLINE}s reached: $*" | tee -a "$OUT/summary.err"; return 0; }; return 1; }
# one: label, clip file, length (short|long), round, limit s, command...
one() {
	local label=$1 f=$2 len=$3 r=$4 lim=$5; shift 5
	local t0 t1 js rc
	t0=$(now)
	js=$(timeout -s KILL "$lim" "$@" 2>"$OUT/run.err")
	rc=$?
	t1=$(now)
	[ "${label#ffmpeg}" != "$label" ] && js=""
	echo "{\"tool\":\"$label\",\"clip\":\"$(basename "$f" .mkv)\",\"len\":\"$len\",\"run\":$r,\"rc\":$rc,\"wall_s\":$(calc "$t1 - $t0"),\"stats\":${js:-null}}" >>"$log"
	[ $rc = 0 ] || { echo "$label $f round $r: rc=$rc"; tail -5 "$OUT/run.err"; }
}
yp=("$B/ycbcrplay" -headless -untimed -stats) # arrays, not functions: timeout runs programs only
ff=("$B/ffmpeg" -hide_banner -nostdin -nostats -loglevel error)
round() { # clip file, length, round, limit
	local f=$1 len=$2 r=$3 lim=$4
	one ffmpeg "$f" "$len" "$r" "$lim" "${ff[@]}" -threads "$T" -i "$f" -f null -
	one sw "$f" "$len" "$r" "$lim" "${yp[@]}" -hwdec no -threads "$T" "$f"
	one sw-teardown "$f" "$len" "$r" "$lim" "${yp[@]}" -hwdec no -threads "$T" -teardown "$f"
	one ffmpeg-hw "$f" "$len" "$r" "$lim" "${ff[@]}" -threads 1 -hwaccel vulkan -hwaccel_output_format vulkan -i "$f" -f null -
	one hw "$f" "$len" "$r" "$lim" "${yp[@]}" -hwdec vulkan "$f"
}
play() { # clip file, length, rounds, limit
	local f=$1 len=$2 n=$3 lim=$4 r
	rm -rf "$XDG_CACHE_HOME" && mkdir -p "$__GL_SHADER_DISK_CACHE_PATH"
	late "$f $len" && return
	one sw "$f" "$len" 0 "$lim" "${yp[@]}" -hwdec no -threads "$T" -frames 30 "$f"
	one hw "$f" "$len" 0 "$lim" "${yp[@]}" -hwdec vulkan -frames 30 "$f"
	for ((r = 1; r <= n; r++)); do
		late "$f $len round $r" && return
		round "$f" "$len" "$r" "$lim"
	done
}
for clip in $CLIPS; do
	play ".gpu/clips/$clip.mkv" short "$RUNS" 60
done
mkdir -p .gpu/long
for clip in $LONG; do
	late "looping $clip" && break
	timeout -s KILL 60 "$B/ffmpeg" -hide_banner -nostdin -loglevel error -stream_loop $((LOOPS - 1)) \
		-i ".gpu/clips/$clip.mkv" -c copy -y ".gpu/long/$clip-x$LOOPS.mkv" || { echo "looping $clip failed"; continue; }
	play ".gpu/long/$clip-x$LOOPS.mkv" long "$LRUNS" 120
done
rm -f "$OUT/run.err"
python3 - "$log" "$T" >"$OUT/summary.txt" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
med = statistics.median
print(f"decoder threads: software {sys.argv[2]} (both tools), hardware 1 (both); single plays, warm cache (rounds >= 1);")
print("wall: process start to exit (median); ratio: the matching ffmpeg's median wall over the tool's (sw rows: ffmpeg; hw: ffmpeg-hw);")
print("play fps: frames / (playback wall_s - first_frame): the rate once the first picture is up; ms: medians of startup_ms,")
print("shutdown_ms and shutdown_phases_ms (stop = stop_decoding, not in shut; src = closing the decoder; wait = vkDeviceWaitIdle;")
print("pc = pipeline cache write-back; dev/inst = vkDestroyDevice/Instance); cpu: CPU ms per frame; RSS: peak MB")
hdr = f"{'clip':22} {'tool':11} {'n':>2} {'frames':>6} {'wall s':>7} {'fps':>6} {'ratio':>6} {'play fps':>8} {'inst':>5} {'dev':>5} {'first':>6} {'shut':>6} {'stop':>5} {'rend':>5} {'src':>5} {'wait':>5} {'pc':>5} {'dev':>5} {'inst':>5} {'cpu':>5} {'RSS':>4}"
print(hdr)
keys = list(dict.fromkeys((r['clip'], r['len']) for r in runs))
for clip, ln in keys:
    sel = [r for r in runs if r['clip'] == clip and r['len'] == ln and r['run'] >= 1]
    base = {}
    for tool in ("ffmpeg", "ffmpeg-hw"):
        w = [r['wall_s'] for r in sel if r['tool'] == tool and r['rc'] == 0]
        base[tool] = med(w) if w else None
    for tool in ("ffmpeg", "sw", "sw-teardown", "ffmpeg-hw", "hw"):
        rs = [r for r in sel if r['tool'] == tool]
        ok = [r for r in rs if r['rc'] == 0]
        name = f"{clip} ({ln})"
        if not ok:
            if rs:
                print(f"{name:22} {tool:11} failed: rc {[r['rc'] for r in rs]}")
            continue
        w = med(r['wall_s'] for r in ok)
        ref = base["ffmpeg-hw" if tool in ("ffmpeg-hw", "hw") else "ffmpeg"]
        ratio = f"{ref / w:6.3f}" if ref else f"{'':>6}"
        st = [r['stats'] for r in ok if r['stats']]
        if not st:
            print(f"{name:22} {tool:11} {len(ok):2d} {'':>6} {w:7.3f} {'':>6} {ratio}")
            continue
        k = st[0]['frames_decoded']
        m = lambda f: med(f(s) for s in st)
        ph = lambda p: m(lambda s: s.get('shutdown_phases_ms', {}).get(p, 0))
        pfps = m(lambda s: s['frames_presented'] / max(1e-9, s['wall_s'] - s['first_frame_ms'] / 1000))
        print(f"{name:22} {tool:11} {len(ok):2d} {k:6d} {w:7.3f} {k / w:6.1f} {ratio} {pfps:8.1f} "
              f"{m(lambda s: s['startup_ms']['instance']):5.0f} {m(lambda s: s['startup_ms']['device']):5.0f} "
              f"{m(lambda s: s['first_frame_ms']):6.0f} {m(lambda s: s['shutdown_ms']):6.1f} "
              + " ".join(f"{ph(p):5.1f}" for p in ("stop_decoding", "renderer", "source", "wait_idle", "pipeline_cache", "device", "instance"))
              + f" {m(lambda s: s['cpu_ms_per_frame']):5.2f} {m(lambda s: s['peak_rss_mb']):4.0f}  {st[-1].get('decoder', '')}")
PY
cat "$OUT/summary.txt"
[ -f "$OUT/summary.err" ] && cat "$OUT/summary.err"
echo "device script time: ${SECONDS}s"
