#!/bin/bash
# Device run: the decoding programs on the GPU machine (FFmpeg 7.1 linked in statically).
#   1. throughput: ycbcrplay -headless -untimed against the same build's ffmpeg -f null (decode only),
#      same decoder thread count, interleaved runs, on 1080p/2160p H.264 and HEVC clips;
#   2. the test vectors through ycbcrplay against zscale's pictures (shader ≤ 1, sampler ≤ 2 LSB);
#   3. the videotex test suite and ycbcrcube -headless -screenshot, validation layer on.
# Prepare here: scripts/device/build.sh. Run there with .gl, .gpu/decode.tar.xz and .gpu/clips carried:
#   bash scripts/device/player.sh [RUNS]      (RUNS interleaved rounds, default 3)
# Output ($OUT): summary.txt (the throughput table), player.jsonl (every run), zscale.txt,
# videotex.txt, cube.txt, cube.png, gpu.txt.
set -u
RUNS=${1:-3}
root=$PWD
tar -C .gpu -xJf .gpu/decode.tar.xz
B=$root/.gpu/nowindow
. scripts/device/setup.sh "$B/ycbcrplay"
T=$(($(nproc) / 2)) # ycbcrplay's default: half the cores decode
now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }

# 1. Throughput. Wall time from process start to exit for both (the player's includes creating its
# Vulkan device); CPU time and peak RSS from ffmpeg -benchmark and from ycbcrplay -stats (getrusage).
# Each clip twice: played once (short: process start-up and time to the first frame weigh in), and
# played LOOPS times in one process (ycbcrplay -loop N, ffmpeg -stream_loop N-1: the same frames
# decoded N times, start-up amortised).
LOOPS=${LOOPS:-10}
for ((r = 1; r <= RUNS; r++)); do
	for clip in h264-1080p hevc-1080p h264-2160p hevc-2160p hevc10-2160p; do
		for n in 1 "$LOOPS"; do
			f=.gpu/clips/$clip.mkv
			t0=$(now)
			"$B/ffmpeg" -hide_banner -nostdin -nostats -benchmark -threads "$T" -stream_loop $((n - 1)) -i "$f" -f null - 2>"$OUT/ff.err"
			rc=$?
			t1=$(now)
			ut=$(sed -n 's/.*utime=\([0-9.]*\)s.*/\1/p' "$OUT/ff.err"); st=$(sed -n 's/.*stime=\([0-9.]*\)s.*/\1/p' "$OUT/ff.err")
			rss=$(sed -n 's/.*maxrss=\([0-9]*\)KiB.*/\1/p' "$OUT/ff.err")
			echo "{\"tool\":\"ffmpeg\",\"clip\":\"$clip\",\"loops\":$n,\"run\":$r,\"rc\":$rc,\"wall_s\":$(calc "$t1 - $t0"),\"cpu_s\":$(calc "${ut:-0} + ${st:-0}"),\"peak_rss_mb\":$(calc "${rss:-0} / 1024")}" >>"$OUT/player.jsonl"
			t0=$(now)
			js=$("$B/ycbcrplay" -headless -untimed -stats -threads "$T" -loop "$n" "$f" 2>"$OUT/yp.err")
			rc=$?
			t1=$(now)
			echo "{\"tool\":\"ycbcrplay\",\"clip\":\"$clip\",\"loops\":$n,\"run\":$r,\"rc\":$rc,\"wall_s\":$(calc "$t1 - $t0"),\"stats\":${js:-null}}" >>"$OUT/player.jsonl"
			[ $rc = 0 ] || { echo "ycbcrplay $clip: rc=$rc"; cat "$OUT/yp.err"; }
		done
	done
done
rm -f "$OUT/ff.err" "$OUT/yp.err"
python3 - "$OUT/player.jsonl" "$T" >"$OUT/summary.txt" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
med = statistics.median
print(f"decoder threads: {sys.argv[2]} (both tools); median of {max(r['run'] for r in runs)} interleaved runs; wall time from process start to exit")
print(f"{'clip':14} {'plays':>5} {'frames':>6} {'ffmpeg fps':>10} {'player fps':>10} {'ratio':>6} {'ff cpu ms/f':>11} {'pl cpu ms/f':>11} {'ff rss MB':>9} {'pl rss MB':>9} {'1st frame ms':>12}  path / upload / conversion")
for clip in dict.fromkeys(r['clip'] for r in runs):
    for n in sorted(set(r['loops'] for r in runs)):
        ff = [r for r in runs if r['clip'] == clip and r['loops'] == n and r['tool'] == 'ffmpeg' and r['rc'] == 0]
        pl = [r for r in runs if r['clip'] == clip and r['loops'] == n and r['tool'] == 'ycbcrplay' and r['rc'] == 0 and r['stats']]
        if not ff or not pl:
            print(f"{clip:14} {n:5d} failed"); continue
        k = pl[0]['stats']['frames_decoded']
        fff, plf = k / med(r['wall_s'] for r in ff), k / med(r['wall_s'] for r in pl)
        s0 = pl[0]['stats']
        print(f"{clip:14} {n:5d} {k:6d} {fff:10.1f} {plf:10.1f} {plf/fff:6.3f} {1000*med(r['cpu_s'] for r in ff)/k:11.2f} "
              f"{1000*med(r['stats']['cpu_s'] for r in pl)/k:11.2f} {med(r['peak_rss_mb'] for r in ff):9.0f} "
              f"{med(r['stats']['peak_rss_mb'] for r in pl):9.0f} {med(r['stats']['first_frame_ms'] for r in pl):12.0f}  {s0['path']} / {s0['upload']} / {s0.get('conversion', '-')}")
PY
cat "$OUT/summary.txt"

# 2. Test vectors against zscale, both paths (the sampler path wherever the device expresses the
# siting: on NVIDIA every siting). Validation layer on (-validate in the test).
(cd cmd/ycbcrplay && YCBCRKIT_SAMPLER_LIMIT=2 "$B/ycbcrplay.test" -test.run '^TestVectorsMatchZscale$' -test.v -test.count=1 >"$OUT/zscale.txt" 2>&1; echo "rc=$?" >>"$OUT/zscale.txt")
grep -E "via|^(---|ok|FAIL|PASS|rc=)" "$OUT/zscale.txt"

# 3. videotex suite (validation on in every test) and the cube, headless, validated.
# TestAudioToEngine makes its clip with an H.264/AAC encoder, which the GPU machine lacks (the same
# build's ffmpeg decodes only): it runs in CI.
(cd videotex && YCBCRKIT_FFMPEG="$B/ffmpeg" "$B/videotex.test" -test.v -test.count=1 -test.skip '^TestAudioToEngine$' >"$OUT/videotex.txt" 2>&1; echo "rc=$?" >>"$OUT/videotex.txt")
grep -E "^(--- |ok|FAIL|PASS|rc=)" "$OUT/videotex.txt" | grep -v -- "--- PASS: .*/"
"$B/ycbcrcube" -headless -validate -frames 90 -screenshot "$OUT/cube.png" .gpu/clips/h264-1080p.mkv >"$OUT/cube.txt" 2>&1
echo "ycbcrcube rc=$?" | tee -a "$OUT/cube.txt"
cat "$OUT/cube.txt"
