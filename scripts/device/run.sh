#!/bin/bash
# Device runs on the GPU machine (NVIDIA, driver 580, no display, no package manager), in sections.
# Prepare here with scripts/device/build.sh SET...; run there, from the checkout's root:
#   bash scripts/device/run.sh SECTION[:ARG]...
# Output ($OUT): summary.txt (what the docs quote), gpu.txt, logs.tgz (every log) and the files a
# section names. Every command runs under timeout -s KILL; sections run in the order given.
#
# What each section carries (run's carry argument; .gl always) and does:
#   tests            .gpu/gpu.tar.xz. The planes, ycbcr and stream test suites with the Khronos
#                    validation layer (carried in .gl; the tests that compare with zscale or
#                    libplacebo need Debian's ffmpeg or a C compiler and run in CI), then ycbcrcheck.
#   conformance      .gpu/gpu.tar.xz. ycbcrcheck's report of the device's Y′CbCr sampling
#                    (h100-report.tgz, check.json, a 34x18 run) and ycbcrdemo at every siting.
#   bench            .gpu/gpu.tar.xz. ycbcrbench -json over 720p–4320p and four formats, and its table.
#   scale            .gpu/gpu.tar.xz .gpu/decode.tar.xz .gpu/clips. What the scale pass costs at
#                    2160p→1080p: ycbcr's BenchmarkScalePass (GPU timestamps) twice, then ycbcrplay
#                    -headless -untimed into 3840x2160 (no scale pass) and 1920x1080 (drawn and
#                    compute last step), each conversion variant and filter, twice (gpu_ms_per_frame).
#   quality          .gpu/gpu.tar.xz .gpu/decode.tar.xz .gpu/clips. What issue 27's passes cost at
#                    2160p→1080p: ycbcr's BenchmarkQualityPasses (GPU timestamps: the compute
#                    conversions and the scale pass with dither off and blue, the peak pass, the deband
#                    pass with 4, 3 and 1 directions) twice, with OLD=DIR (a carried folder holding an
#                    earlier build's ycbcr.test or ycbcr.test.xz) that build's in turn; then ycbcrplay -headless
#                    -untimed -geometry 1920x1080 -hwdec no|vulkan on h264-2160p and hevc10-2160p with
#                    -dither off and blue, on h264-2160p with -deband, twice (gpu_ms_per_frame); and
#                    whether -deband's screenshot differs from the plain one, on both routes.
#   player[:RUNS]    .gpu/decode.tar.xz .gpu/clips. Throughput: ycbcrplay -headless -untimed against
#                    the same build's ffmpeg -f null, same decoder threads, RUNS (3) interleaved rounds
#                    (with OLD=DIR, DIR's ycbcrplay beside this build's in each round, and new/old;
#                    PLAYER_FLAGS: more flags for both, e.g. "-hwdec no" for software decoding),
#                    each clip played once and LOOPS (10) times; the test vectors through ycbcrplay
#                    against zscale's pictures; the videotex suite; ycbcrcube -headless -validate.
#   variants         .gpu/decode.tar.xz .gpu/variants.tar.xz .gpu/clips. What costs the player
#                    throughput: auto, -conversion draw, planes on 4 KiB, GOGC=400, gctrace; 3 rounds.
#   startup[:RUNS]   .gpu/decode.tar.xz .gpu/clips. Whole-run throughput of single plays, start-up
#                    and shutdown included: ffmpeg, ycbcrplay -hwdec no (also -teardown), ffmpeg
#                    -hwaccel vulkan and ycbcrplay -hwdec vulkan, warm caches, RUNS (3) rounds on the
#                    clips and LRUNS (2) on LONG clips looped LOOPS (10) times; first the pipeline
#                    cache test. No round starts after DEADLINE (225) s.
#   reliability      .gpu/decode.tar.xz .gpu/relclips. Every test vector (testvectors/media and colour,
#                    and build.sh reliability's clips: every chroma siting in H.264 and HEVC, AV1
#                    with 512 tiles, each decoder family) × -path auto|sampler|shader × -hwdec
#                    no|auto|vulkan, ycbcrplay -headless -validate -frames 10: each must exit 0 or
#                    refuse cleanly (exit 1, one error line, no trace), with no validation message.
#                    The table is reliability.txt; docs/reliability.md says how to read it.
# The hardware-decoding sections carry .gpu/decode.tar.xz .gpu/hwdec.tar.xz .gpu/hwclips:
#   hwdec            the hardware-decoding tests, which skip unless YCBCRKIT_HWDEC_CLIPS is set:
#                    decode.test -test.run HWDec (per clip software, hardware, every 10th hardware
#                    frame downloaded and compared with software; seeks; size changes) and
#                    videotex.test 'TestHWDecodeEngineDevice|TestHWFramesRoute'; validation on. The
#                    summary lists every test's result and every skip with its reason.
#   pictures         ycbcrplay -validate -frames 60 -screenshot, sampler and shader path, -hwdec no
#                    and -hwdec vulkan with -hwdec-route auto|inplace|copy, on five clips; pngdiff
#                    of each hardware picture against software's (1/255); shots-2160p.tgz.
#   routes           the route -hwdec-route auto takes on each clip and path, -validate, 120 frames.
#   inplace          the in-place route against the GPU copy, interleaved, 3 rounds, on looped inputs
#                    (ROUTE_CLIPS, default hevc-1080p:30 h264-1080p:15 hevc-2160p:15 hevc10-2160p:15).
#   speed            throughput on looped inputs: ffmpeg -threads 1 -hwaccel vulkan (frames kept on
#                    the GPU; its default threads tried on the clip once), ffmpeg software, ycbcrplay
#                    -hwdec vulkan (route auto) and -hwdec no.
#   ffthreads        ffmpeg -hwaccel vulkan with 1, 2 and 8 threads, frames on the GPU or downloaded,
#                    and ycbcrplay -hwdec vulkan -threads 1|8, on the clips once.
#   seek             the player seeking (keys scripted after given frames: → → ← , ↓, a screenshot
#                    after each) on hevc/h264-1080p looped to 15 s, -hwdec vulkan and no, pictures compared.
#   sizes            the player on *-sizes.ts to frames 30, 90 and the end, hardware and software.
#   loop, loopstart  -loop 2 (EOF drain, seek to 0) and -start 2.5|4.167|4.3 -frames 10, hardware
#                    vs software (loopstart: -start only).
#   fail             YCBCRPLAY_TEST_HWFAIL=100 (a failure injected into the real hardware decoder at
#                    frame 100) with -hwdec auto: every frame presented, the last picture compared.
#   cli              FFmpeg's own program with its validation layer from HEVC's CRA on (-ss 4.167, 4.3);
#                    with OLD=DIR (a carried bin folder of an earlier build) that build's too.
#   ab               throughput, interleaved, 3 rounds: ffmpeg -threads 1 hardware, OLD=DIR's
#                    ycbcrplay (if set) and this build's, on looped inputs.
#   hang             decode.test TestHWDecClips on hevc-1080p alone; if still running after 25 s,
#                    every thread's stack (cuda-gdb; build with SYMBOLS=1).
# Many streams, .gpu/decode.tar.xz .gpu/clips:
#   wall             ycbcrwall -hwdec vulkan: 16 HEVC streams with -validate (the default variant, then
#                    -variant draw), every tile of frame 60 against ycbcrplay's picture alone
#                    (pngdiff -tiles); then -untimed -n N for N = 1, 2, 4, 7, 8, 16 on the 1080p
#                    H.264 and HEVC clips (aggregate fps, slowest stream,
#                    peak RSS, CPU, nvidia-smi dmon's dec% and sm%), N ycbcrplay processes and N
#                    ffmpeg -hwaccel vulkan processes at once for comparison, and 16 timed streams.
#                    Each run's line: fps, slowest stream, GPU and CPU ms per picture, the variant.
#   wall:ab          the picture checks (both variants), then at 7 and 16 streams one change at a time:
#                    -variant draw -queues 1 (the old wall), compute on one queue (the defaults),
#                    one queue per stream, and two decodings in flight per stream.
#   wall:queues      one queue or one a stream, one or two decodings in flight, 7 and 16 streams, twice.
#   memory[:RUNS]    issue 25's memory check. Software decoding, RUNS (3) interleaved rounds, each clip
#                    once and LOOPS (10) times: ffmpeg -f null, and ffmpeg uploading each picture to
#                    a Vulkan image (-vf hwupload: the Vulkan driver loaded, as in the player), against
#                    ycbcrplay with the default decode-ahead (by need), -decode-ahead 256 (the former
#                    default), with STEADY=1 -decode-ahead 0, and OLD=DIR's build if set: fps, peak
#                    RSS, picture buffers, device memory; the resident set by mapping at its peak
#                    (/proc/PID/smaps) for ffmpeg, ffmpeg -vf hwupload and ycbcrplay on
#                    a 64x48 vector, hevc10-2160p and h264-1080p; then -hwdec vulkan: ycbcrplay on
#                    three clips, ycbcrwall -n 16 (and -hwdec no) on the 1080p clips.
set -u
R=$PWD
B=$R/.gpu/nowindow C=$R/.gpu/clips HC=$R/.gpu/hwclips L=$OUT/logs S=$OUT/summary.txt
mkdir -p "$L" "$B"
say() { echo "$*" | tee -a "$S"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; } # the GPU machine has no bc
get() { tr ',' '\n' <"$1" | grep "\"$2\"" | head -1 | cut -d: -f2- | tr -d '"}'; } # a -stats field

# Set-up, once: the carried programs, then the Vulkan loader, the GL vendor-neutral libraries and
# the validation layer (without glvnd the loader finds the NVIDIA ICD but cannot start it); the
# loader is pointed at NVIDIA's ICD where it does not find it by itself.
for a in .gpu/*.tar.xz; do [ -e "$a" ] && tar -C .gpu -xJf "$a"; done
for f in .gl/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
ldconfig
lister=
for p in ycbcrcheck ycbcrplay; do [ -x "$B/$p" ] && lister=$B/$p && break; done
if [ -z "$lister" ] || ! timeout -s KILL 30 "$lister" -list-devices >/dev/null 2>&1; then
	export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
{
	timeout -s KILL 10 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
	[ -n "$lister" ] && timeout -s KILL 30 "$lister" -list-devices 2>&1
	echo "date: $(date -u +%FT%TZ)"
} >"$OUT/gpu.txt"
cat "$OUT/gpu.txt"
T=$(($(nproc) / 2)) # ycbcrplay's default: half the cores decode

# suite NAME DIR LIMIT test-binary args...: runs a test binary from its package's folder (tests read
# ../testvectors/media) with -test.v; the summary gets its result lines, its skips and their reasons.
suite() {
	local n=$1 dir=$2 lim=$3
	shift 3
	(cd "$dir" && timeout -s KILL "$lim" "$@" -test.v -test.count=1 -test.timeout $((lim - 5))s >"$L/$n.txt" 2>&1)
	say "$n: rc=$?"
	grep -E '^(--- (FAIL|SKIP)|ok|FAIL|PASS|panic)|VUID|UNASSIGNED' "$L/$n.txt" | cut -c1-300 | head -40 | tee -a "$S"
	grep -A1 -E '^ *--- SKIP' "$L/$n.txt" | grep -vE '^ *--- SKIP|^--$' | sed 's/^ */    skip reason: /' | cut -c1-200 | tee -a "$S"
	say "$n: $(grep -cE '^ *--- PASS' "$L/$n.txt") passed, $(grep -cE '^ *--- FAIL' "$L/$n.txt") failed, $(grep -cE '^ *--- SKIP' "$L/$n.txt") skipped (tests and subtests)"
}

tests() {
	local p
	for p in planes ycbcr stream; do
		suite "$p" "$p" 590 "$B/$p.test" -test.skip 'TestAgainstZscale|TestColourSystemsAgainstZscale|TestToneMapping|TestScaleZonePlate|TestScaleMatchesSwscale|TestToneCurveAgainstLibplacebo|TestToneInputs'
	done
	timeout -s KILL 300 "$B/ycbcrcheck" >"$L/check.txt" 2>&1
	say "ycbcrcheck: rc=$?"
	tail -5 "$L/check.txt" | tee -a "$S"
}

conformance() {
	local t0=$(now)
	timeout -s KILL 300 "$B/ycbcrcheck" -report "$OUT/h100" >"$OUT/check.txt" 2>"$OUT/check.err"
	say "ycbcrcheck: rc=$? wall $(calc "$(now) - $t0") s"
	timeout -s KILL 300 "$B/ycbcrcheck" -json >"$OUT/check.json" 2>/dev/null
	timeout -s KILL 300 "$B/ycbcrcheck" -size 34x18 >"$OUT/check-34x18.txt" 2>&1
	say "ycbcrcheck -size 34x18: rc=$?"
	tail -40 "$OUT/check.txt"
	local loc fmt
	for loc in left center topleft top bottomleft bottom; do
		for fmt in yuv420p nv12 p010le yuv422p; do
			echo "== $fmt $loc"
			timeout -s KILL 60 "$B/ycbcrdemo" -format $fmt -chroma-loc $loc -pattern probe -size 256x144 -o /tmp/d.png 2>&1 | grep -E "sampler|shader"
		done
	done >"$OUT/demo.txt" 2>&1
	timeout -s KILL 60 "$B/ycbcrdemo" -format yuv420p -chroma-loc left -o "$OUT/demo-left.png" >/dev/null 2>&1
	tar czf "$OUT/h100-report.tgz" -C "$OUT" h100 && rm -rf "$OUT/h100"
}

bench() {
	local t0=$(now)
	timeout -s KILL 500 "$B/ycbcrbench" -json -sizes 720p,1080p,2160p,4320p -formats yuv420p,nv12,p010le,yuv444p \
		>"$OUT/ycbcrbench.json" 2>"$L/ycbcrbench.err"
	say "ycbcrbench: rc=$? wall $(calc "$(now) - $t0") s"
	"$B/ycbcrbench" -render "$OUT/ycbcrbench.json" -wide 2>&1 | tee "$OUT/ycbcrbench.txt"
}

scale() {
	local r conv filter geom extra js
	for r in 1 2; do
		(cd ycbcr && timeout -s KILL 120 "$B/ycbcr.test" -test.run '^$' -test.bench BenchmarkScalePass -test.benchtime 20x 2>&1) |
			grep -E 'Benchmark|conversion:|FAIL' | tee -a "$S"
	done
	for r in 1 2; do
		for conv in compute draw; do
			for filter in lanczos catmull-rom bilinear; do
				for geom in 3840x2160 1920x1080 1920x1080:draw; do
					extra=
					[ "${geom#*:}" = draw ] && extra=-scale-draw
					js=$(timeout -s KILL 60 "$B/ycbcrplay" -headless -untimed -no-audio -conversion $conv -scale $filter \
						-geometry ${geom%:*} $extra -stats "$C/h264-2160p.mkv" 2>>"$L/scale.err")
					say "scale $r $conv $filter $geom $(echo "$js" | python3 -c "import json,sys;d=json.load(sys.stdin);print(round(d['gpu_ms_per_frame'],4), '|', d.get('scale'))")"
				done
			done
		done
	done
}

quality() {
	local r clip d h js extra which bins
	# The benchmark, twice; with OLD=DIR (a carried folder holding an earlier build's ycbcr.test[.xz])
	# that build's and this one's in turn, so that the two are compared on the same card.
	bins=("$B/ycbcr.test")
	if [ -n "${OLD:-}" ]; then
		[ -e "$R/$OLD/ycbcr.test.xz" ] && xz -dkf "$R/$OLD/ycbcr.test.xz" && chmod +x "$R/$OLD/ycbcr.test"
		[ -x "$R/$OLD/ycbcr.test" ] && bins=("$R/$OLD/ycbcr.test" "$B/ycbcr.test")
	fi
	for r in 1 2; do
		for which in "${bins[@]}"; do
			say "quality bench $r: $which"
			(cd ycbcr && timeout -s KILL 180 "$which" -test.run '^$' -test.bench BenchmarkQualityPasses -test.benchtime 20x 2>&1) |
				grep -E 'Benchmark|sampler path|FAIL' | tee -a "$S"
		done
	done
	# The player at 1080p from 2160p, software and hardware decoding (the frame's GPU time counts
	# the hardware route's Pre batch: the copy or in-place conversion), dither off and blue, and
	# -deband on the 8-bit clip: -deband's gpu_ms_per_frame minus the plain one is the pass's cost
	# in the player, on either route.
	for r in 1 2; do
		for h in no vulkan; do
			for clip in h264-2160p hevc10-2160p h264-2160p:deband; do
				for d in off blue; do
					extra=
					[ "${clip#*:}" = deband ] && extra=-deband
					js=$(timeout -s KILL 60 "$B/ycbcrplay" -headless -untimed -no-audio -hwdec $h -geometry 1920x1080 -dither $d $extra -stats \
						"$C/${clip%:*}.mkv" 2>>"$L/quality.err")
					say "quality $r -hwdec $h $clip -dither $d $(echo "$js" | python3 -c "import json,sys;d=json.load(sys.stdin);print(round(d['gpu_ms_per_frame'],4), '|', d.get('hwdec'), d.get('hwdec_route'), '|', d.get('dither'), '|', d.get('deband'), '|', d.get('conversion'), '|', d.get('scale'))")"
				done
			done
		done
	done
	# Debanding runs on both routes: frame 30's screenshot (debanded as shown) with -deband is not
	# the plain one's, byte for byte.
	for h in no vulkan; do
		for extra in "" -deband; do
			timeout -s KILL 60 "$B/ycbcrplay" -headless -no-audio -hwdec $h -frames 30 $extra -screenshot "$L/shot-$h$extra.png" \
				"$C/h264-2160p.mkv" >/dev/null 2>>"$L/quality.err" || say "quality shot -hwdec $h $extra: rc=$?"
		done
		if cmp -s "$L/shot-$h.png" "$L/shot-$h-deband.png"; then
			say "quality shot -hwdec $h: -deband's screenshot IDENTICAL to the plain one"
		else
			say "quality shot -hwdec $h: -deband's screenshot differs from the plain one"
		fi
	done
}

# ffnull JSONL CLIP LOOPS RUN: the same build's ffmpeg decodes a clip LOOPS times (-f null, $T
# threads); JSONL gets its wall time, CPU time and peak RSS (-benchmark).
ffnull() {
	local out=$1 clip=$2 n=$3 r=$4 tool=${5:-ffmpeg} t0 t1 rc ut st rss pre=() post=()
	# ffmpeg-vk: each decoded picture uploaded into a Vulkan image (hwupload), so that ffmpeg too
	# loads the Vulkan driver and keeps pictures on the device, as the player does.
	[ "$tool" = ffmpeg-vk ] && pre=(-init_hw_device vulkan=vk:0 -filter_hw_device vk) post=(-vf hwupload)
	t0=$(now)
	timeout -s KILL 120 "$B/ffmpeg" -hide_banner -nostdin -nostats -benchmark "${pre[@]}" -threads "$T" -stream_loop $((n - 1)) -i "$C/$clip.mkv" "${post[@]}" -f null - 2>"$L/ff.err"
	rc=$? t1=$(now)
	ut=$(sed -n 's/.*utime=\([0-9.]*\)s.*/\1/p' "$L/ff.err") st=$(sed -n 's/.*stime=\([0-9.]*\)s.*/\1/p' "$L/ff.err")
	rss=$(sed -n 's/.*maxrss=\([0-9]*\)KiB.*/\1/p' "$L/ff.err")
	echo "{\"tool\":\"$tool\",\"clip\":\"$clip\",\"loops\":$n,\"run\":$r,\"rc\":$rc,\"wall_s\":$(calc "$t1 - $t0"),\"cpu_s\":$(calc "${ut:-0} + ${st:-0}"),\"peak_rss_mb\":$(calc "${rss:-0} / 1024")}" >>"$out"
}

# ypplay JSONL TOOL BIN CLIP LOOPS RUN FLAG...: ycbcrplay BIN plays a clip LOOPS times headless and
# untimed ($T threads, FLAGs); JSONL gets its wall time and -stats as TOOL's.
ypplay() {
	local out=$1 tool=$2 yp=$3 clip=$4 n=$5 r=$6 t0 t1 rc js
	shift 6
	t0=$(now)
	js=$(timeout -s KILL 120 "$yp" -headless -untimed -stats -threads "$T" "$@" -loop "$n" "$C/$clip.mkv" 2>"$L/yp.err")
	rc=$? t1=$(now)
	echo "{\"tool\":\"$tool\",\"clip\":\"$clip\",\"loops\":$n,\"run\":$r,\"rc\":$rc,\"wall_s\":$(calc "$t1 - $t0"),\"stats\":${js:-null}}" >>"$out"
	[ $rc = 0 ] || say "$tool $clip: rc=$rc $(head -c 300 "$L/yp.err")"
}

player() { # RUNS
	local runs=${1:-3} loops=${LOOPS:-10} r clip n
	for ((r = 1; r <= runs; r++)); do
		for clip in h264-1080p hevc-1080p h264-2160p hevc-2160p hevc10-2160p; do
			for n in 1 "$loops"; do
				ffnull "$OUT/player.jsonl" $clip $n $r
				# PLAYER_FLAGS unquoted: several flags, or none.
				# shellcheck disable=SC2086
				ypplay "$OUT/player.jsonl" ycbcrplay "$B/ycbcrplay" $clip $n $r ${PLAYER_FLAGS:-}
				# shellcheck disable=SC2086
				[ -n "${OLD:-}" ] && ypplay "$OUT/player.jsonl" ycbcrplay-old "$R/$OLD/ycbcrplay" $clip $n $r ${PLAYER_FLAGS:-}
			done
		done
	done
	python3 - "$OUT/player.jsonl" "$T" <<'PY' | tee -a "$S"
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
        old = [r for r in runs if r['clip'] == clip and r['loops'] == n and r['tool'] == 'ycbcrplay-old' and r['rc'] == 0 and r['stats']]
        if old:
            of = k / med(r['wall_s'] for r in old)
            print(f"{'':14} {'':5} {'':6} {'old build':>10} {of:10.1f} {of/fff:6.3f}  new/old {plf/of:.3f}  old rss MB {med(r['stats']['peak_rss_mb'] for r in old):.0f}")
PY
	# The test vectors against zscale, both paths (the sampler path wherever the device expresses the
	# siting; NVIDIA's worst difference from exact is 0.56 LSB, hence the limit of 2 there).
	YCBCRKIT_SAMPLER_LIMIT=2 suite zscale cmd/ycbcrplay 300 "$B/ycbcrplay.test" -test.run '^TestVectorsMatchZscale$'
	# TestAudioToEngine and TestFrameInfo make their clips with encoders (H.264/AAC, libx265) the same
	# build's ffmpeg lacks, and TestHWDecSoftwareReason is for a device without Vulkan Video: they run
	# in CI, on lavapipe.
	YCBCRKIT_FFMPEG="$B/ffmpeg" suite videotex videotex 400 "$B/videotex.test" \
		-test.skip '^(TestAudioToEngine|TestFrameInfo|TestHWDecSoftwareReason)$'
	timeout -s KILL 60 "$B/ycbcrcube" -headless -validate -frames 90 -videos 6 -screenshot "$OUT/cube6.png" \
		"$C/h264-1080p.mkv" "$C/hevc-1080p.mkv" >"$L/cube6.txt" 2>&1
	say "ycbcrcube -videos 6 -validate: rc=$? $(grep -cE 'VUID-|SYNC-HAZARD' "$L/cube6.txt") validation lines"
	timeout -s KILL 60 "$B/ycbcrcube" -headless -validate -frames 90 -screenshot "$OUT/cube.png" "$C/h264-1080p.mkv" >"$L/cube.txt" 2>&1
	say "ycbcrcube: rc=$?"
}

variants() {
	local r clip f t0 t1 v bin args env js gcs
	for r in 1 2 3; do
		for clip in h264-1080p h264-2160p; do
			f=$C/$clip.mkv
			t0=$(now)
			timeout -s KILL 60 "$B/ffmpeg" -hide_banner -nostdin -nostats -threads $T -stream_loop 9 -i "$f" -f null - 2>/dev/null
			say "$clip ffmpeg $(calc "$(now) - $t0")"
			for v in auto draw a4k gogc400 gctrace; do
				bin=$B/ycbcrplay args=(-headless -untimed -stats -threads $T -loop 10) env=()
				case $v in
				draw) args+=(-conversion draw) ;;
				a4k) bin=$B/ycbcrplay-a4k ;;
				gogc400) env=(GOGC=400) ;;
				gctrace) env=(GODEBUG=gctrace=1) ;;
				esac
				[ -x "$bin" ] || continue
				t0=$(now)
				js=$(timeout -s KILL 60 env "${env[@]}" "$bin" "${args[@]}" "$f" 2>"$L/variants.err")
				t1=$(now)
				gcs=$(grep -c '^gc ' "$L/variants.err")
				say "$clip $v $(calc "$t1 - $t0") gcs=$gcs $(echo "$js" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["frames_decoded"], round(s["wall_s"],3), round(s["decode_ms_per_frame"],3), round(s["gpu_ms_per_frame"],3), round(s["cpu_ms_per_frame"],2), s["first_frame_ms"], s.get("conversion"))')"
			done
		done
	done
}

startup() { # RUNS
	SECONDS=0
	local runs=${1:-3} lruns=${LRUNS:-2} loops=${LOOPS:-10} deadline=${DEADLINE:-225}
	local clips=${CLIPS:-"h264-1080p hevc-1080p h264-2160p hevc-2160p hevc10-2160p"} long=${LONG:-"h264-1080p hevc-1080p"}
	suite pipecache gpu 60 "$B/gpu.test" -test.run 'TestPipelineCache'
	export XDG_CACHE_HOME=$R/.gpu/xdg
	# NVIDIA's driver keeps a disk cache of its own (GLCache): put it there too, so that emptying
	# $XDG_CACHE_HOME before a clip makes its first run cold for the driver as well.
	export __GL_SHADER_DISK_CACHE_PATH=$XDG_CACHE_HOME/nvidia
	local log=$OUT/startup.jsonl
	: >"$log"
	late() { [ "$SECONDS" -ge "$deadline" ] && { say "deadline ${deadline}s reached: $*"; return 0; }; return 1; }
	sone() { # label, clip file, length (short|long), round, limit s, command...
		local label=$1 f=$2 len=$3 r=$4 lim=$5
		shift 5
		local t0 t1 js rc
		t0=$(now)
		js=$(timeout -s KILL "$lim" "$@" 2>"$L/run.err")
		rc=$?
		t1=$(now)
		[ "${label#ffmpeg}" != "$label" ] && js=""
		echo "{\"tool\":\"$label\",\"clip\":\"$(basename "$f" .mkv)\",\"len\":\"$len\",\"run\":$r,\"rc\":$rc,\"wall_s\":$(calc "$t1 - $t0"),\"stats\":${js:-null}}" >>"$log"
		[ $rc = 0 ] || say "$label $f round $r: rc=$rc $(tail -5 "$L/run.err")"
	}
	local ypc=("$B/ycbcrplay" -headless -untimed -stats) # arrays, not functions: timeout runs programs only
	local ff=("$B/ffmpeg" -hide_banner -nostdin -nostats -loglevel error)
	sround() { # clip file, length, round, limit
		local f=$1 len=$2 r=$3 lim=$4
		sone ffmpeg "$f" "$len" "$r" "$lim" "${ff[@]}" -threads "$T" -i "$f" -f null -
		sone sw "$f" "$len" "$r" "$lim" "${ypc[@]}" -hwdec no -threads "$T" "$f"
		sone sw-teardown "$f" "$len" "$r" "$lim" "${ypc[@]}" -hwdec no -threads "$T" -teardown "$f"
		sone ffmpeg-hw "$f" "$len" "$r" "$lim" "${ff[@]}" -threads 1 -hwaccel vulkan -hwaccel_output_format vulkan -i "$f" -f null -
		sone hw "$f" "$len" "$r" "$lim" "${ypc[@]}" -hwdec vulkan "$f"
	}
	splay() { # clip file, length, rounds, limit
		local f=$1 len=$2 n=$3 lim=$4 r
		rm -rf "$XDG_CACHE_HOME" && mkdir -p "$__GL_SHADER_DISK_CACHE_PATH"
		late "$f $len" && return
		sone sw "$f" "$len" 0 "$lim" "${ypc[@]}" -hwdec no -threads "$T" -frames 30 "$f"
		sone hw "$f" "$len" 0 "$lim" "${ypc[@]}" -hwdec vulkan -frames 30 "$f"
		for ((r = 1; r <= n; r++)); do
			late "$f $len round $r" && return
			sround "$f" "$len" "$r" "$lim"
		done
	}
	local clip
	for clip in $clips; do splay "$C/$clip.mkv" short "$runs" 60; done
	mkdir -p .gpu/long
	for clip in $long; do
		late "looping $clip" && break
		timeout -s KILL 60 "$B/ffmpeg" -hide_banner -nostdin -loglevel error -stream_loop $((loops - 1)) \
			-i "$C/$clip.mkv" -c copy -y ".gpu/long/$clip-x$loops.mkv" || { say "looping $clip failed"; continue; }
		splay ".gpu/long/$clip-x$loops.mkv" long "$lruns" 120
	done
	python3 - "$log" "$T" <<'PY' | tee -a "$S"
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
med = statistics.median
print(f"decoder threads: software {sys.argv[2]} (both tools), hardware 1 (both); single plays, warm cache (rounds >= 1);")
print("wall: process start to exit (median); ratio: the matching ffmpeg's median wall over the tool's (sw rows: ffmpeg; hw: ffmpeg-hw);")
print("play fps: frames / (playback wall_s - first_frame): the rate once the first picture is up; ms: medians of startup_ms,")
print("shutdown_ms and shutdown_phases_ms (stop = stop_decoding, not in shut; src = closing the decoder; wait = vkDeviceWaitIdle;")
print("pc = pipeline cache write-back; dev/inst = vkDestroyDevice/Instance); cpu: CPU ms per frame; RSS: peak MB")
print(f"{'clip':22} {'tool':11} {'n':>2} {'frames':>6} {'wall s':>7} {'fps':>6} {'ratio':>6} {'play fps':>8} {'inst':>5} {'dev':>5} {'first':>6} {'shut':>6} {'stop':>5} {'rend':>5} {'src':>5} {'wait':>5} {'pc':>5} {'dev':>5} {'inst':>5} {'cpu':>5} {'RSS':>4}")
for clip, ln in dict.fromkeys((r['clip'], r['len']) for r in runs):
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
	say "startup section time: ${SECONDS}s"
}

# ---- hardware decoding ----

hwdec() {
	YCBCRKIT_HWDEC_CLIPS=$HC YCBCRKIT_HWDEC_OUT=$L/decode.jsonl suite decode decode 240 "$B/decode.test" -test.run HWDec
	YCBCRKIT_HWDEC_CLIPS=$HC suite videotex-hw videotex 120 "$B/videotex.test" -test.run 'TestHWDecodeEngineDevice$|TestHWFramesRoute$'
}

# play NAME LIMIT ycbcrplay args...: one headless run with -stats into $L/NAME.{json,err}; a line with
# its exit code, validation messages, frames and route.
play() {
	local n=$1 lim=$2
	shift 2
	timeout -s KILL "$lim" "$B/ycbcrplay" -headless -untimed -stats "$@" >"$L/$n.json" 2>"$L/$n.err"
	local rc=$? j=$L/$n.json
	say "$n: rc=$rc validation_lines=$(grep -ciE 'vuid|validation|unassigned' "$L/$n.err") frames=$(get "$j" frames_presented) wall_s=$(get "$j" wall_s) first_frame_ms=$(get "$j" first_frame_ms) cpu_ms_per_frame=$(get "$j" cpu_ms_per_frame) cpu_bytes=$(get "$j" cpu_bytes_copied_per_frame) threads=$(get "$j" decode_threads) decoder=$(get "$j" decoder) conversion=$(get "$j" conversion) route=$(get "$j" hwdec_route | cut -c1-110)"
	grep -vE '^screenshot' "$L/$n.err" | head -c 300 | tr '\n' ' ' | sed 's/^./  stderr: &/' | grep . | tee -a "$S"
}
pngdiff() { timeout -s KILL 30 "$B/pngdiff" "$@" 2>&1 | sed "s|$L/||g" | tee -a "$S"; }
# looped CLIP N: the clip played N times, as one input made with ffmpeg -stream_loop (-c copy)
looped() {
	timeout -s KILL 60 "$B/ffmpeg" -v error -nostdin -stream_loop $(($2 - 1)) -i "$HC/$1.mkv" -c copy -y "/tmp/long-$1.mkv"
	echo "/tmp/long-$1.mkv"
}

pictures() {
	local clip path m P=$L/pictures
	mkdir -p "$P"
	for clip in hevc-1080p hevc-2160p hevc10-2160p h264-1080p hevc-odd; do
		for path in sampler shader; do
			for m in "no auto" "vulkan auto" "vulkan inplace" "vulkan copy"; do
				set -- $m
				play "pictures/$clip-$path-$1-$2" 60 -validate -frames 60 -path $path -hwdec $1 -hwdec-route $2 \
					-screenshot "$P/$clip-$path-$1-$2.png" "$HC/$clip.mkv"
			done
			for m in auto inplace copy; do pngdiff "$P/$clip-$path-no-auto.png" "$P/$clip-$path-vulkan-$m.png"; done
		done
	done
	(cd "$P" && tar czf "$OUT/shots-2160p.tgz" *2160p*.png)
}

routes() {
	local f clip path
	for f in "$HC"/*.mkv; do
		clip=$(basename "$f" .mkv)
		for path in sampler shader; do play "route-$clip-$path" 60 -validate -frames 120 -path $path -hwdec vulkan "$f"; done
	done
}

inplace() {
	local spec clip long round route
	for spec in ${ROUTE_CLIPS:-hevc-1080p:30 h264-1080p:15 hevc-2160p:15 hevc10-2160p:15}; do
		clip=${spec%:*}
		[ -f "$HC/$clip.mkv" ] || continue
		long=$(looped "$clip" "${spec#*:}")
		for round in 1 2 3; do
			for route in inplace copy; do play "inplace-$clip-x${spec#*:}-$round-$route" 60 -hwdec vulkan -hwdec-route $route "$long"; done
		done
		rm -f "$long"
	done
}

# ffrun NAME LIMIT INPUT ffmpeg args before -i...: ffmpeg -benchmark -f null; frames, times, fps, CPU.
ffrun() {
	local n=$1 lim=$2 in=$3
	shift 3
	timeout -s KILL "$lim" "$B/ffmpeg" -hide_banner -nostdin -benchmark "$@" -i "$in" -f null - >"$L/$n.txt" 2>&1
	local rc=$?
	local fr=$(tr '\r' '\n' <"$L/$n.txt" | grep -o 'frame= *[0-9]*' | tail -1 | tr -dc 0-9)
	local b=$(grep -o 'bench: utime=[0-9.]*s stime=[0-9.]*s rtime=[0-9.]*s' "$L/$n.txt" | tail -1 | tr -dc '0-9. ')
	set -- ${b:-0 0 0}
	[ "$3" = 0 ] && { say "$n: rc=$rc frames=$fr (no -benchmark line: killed after $lim s)"; return; }
	say "$n: rc=$rc frames=$fr utime=$1 stime=$2 rtime=$3 fps=$(awk "BEGIN{printf \"%.0f\", $fr/$3}") cpu_ms_per_frame=$(awk "BEGIN{printf \"%.3f\", ($1+$2)*1000/$fr}")"
}
hw=(-init_hw_device vulkan=vk -hwaccel vulkan -hwaccel_device vk -hwaccel_output_format vulkan)

speed() {
	local cl clip long
	for cl in hevc-1080p:30 h264-1080p:15 hevc-2160p:15 hevc10-2160p:15 hevc-4320p:10; do
		clip=${cl%:*}
		[ -e "$HC/$clip.mkv" ] || continue
		long=$(looped "$clip" "${cl#*:}")
		# FFmpeg's CLI with its default frame threads deadlocked on HEVC (docs/hwdec.md): the hardware
		# reference is -threads 1, as the toolkit decodes; the default is tried on the clip once.
		ffrun "$clip-ffmpeg-hw-default-threads-once" 10 "$HC/$clip.mkv" "${hw[@]}"
		ffrun "$clip-ffmpeg-hw-t1-once" 20 "$HC/$clip.mkv" -threads 1 "${hw[@]}"
		ffrun "$clip-ffmpeg-hw-t1" 45 "$long" -threads 1 "${hw[@]}"
		play "$clip-ycbcrplay-hw" 45 -hwdec vulkan -hwdec-route auto "$long"
		ffrun "$clip-ffmpeg-sw" 45 "$long"
		play "$clip-ycbcrplay-sw" 45 -hwdec no "$long"
		rm -f "$long"
	done
}

ffthreads() {
	local clip th out a
	for clip in hevc-1080p hevc-odd h264-1080p; do
		for th in 1 2 8; do
			for out in vulkan sw; do
				a=(-threads $th -init_hw_device vulkan=vk -hwaccel vulkan -hwaccel_device vk)
				[ $out = vulkan ] && a+=(-hwaccel_output_format vulkan)
				ffrun "ffthreads-$clip-$th-$out" 40 "$HC/$clip.mkv" "${a[@]}"
			done
		done
		for th in 1 8; do play "ffthreads-$clip-ycbcrplay-$th" 40 -hwdec vulkan -threads $th "$HC/$clip.mkv"; done
	done
}

# yp NAME LIMIT [env...] -- ycbcrplay args: the player as ycbcrplay.test as main (for the keys and
# the injected failure), -validate, in $L/NAME/ (the s key writes screenshots there).
yp() {
	local n=$1 lim=$2
	shift 2
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1") && shift; done
	shift
	mkdir -p "$L/$n"
	(cd "$L/$n" && timeout -s KILL "$lim" env YCBCRPLAY_AS_MAIN=1 "${envs[@]}" "$B/ycbcrplay.test" -headless -untimed -validate -stats "$@" \
		>out.json 2>err.txt)
	local rc=$? j=$L/$n/out.json
	say "$n: rc=$rc validation_lines=$(grep -ciE 'vuid|validation|unassigned' "$L/$n/err.txt") frames=$(get "$j" frames_presented) decoded=$(get "$j" frames_decoded) dropped=$(get "$j" frames_dropped) decoder=$(get "$j" decoder) hwdec=$(get "$j" hwdec) route=$(get "$j" hwdec_route | cut -c1-40) reason=$(get "$j" hwdec_reason | cut -c1-90)"
	grep -E '^screenshot' "$L/$n/err.txt" | tr '\n' ' ' | sed 's/^/  /' | tee -a "$S"
	echo >>"$S"
	grep -vE '^screenshot' "$L/$n/err.txt" | head -c 300 | sed 's/^/  stderr: /' | tee -a "$S"
}
diffdir() { # A B: pngdiff every screenshot of A with B's of the same name
	local f
	for f in "$L/$1"/*.png; do pngdiff "$f" "$L/$2/$(basename "$f")"; done
}

seek() {
	local keys="30:right;33:s;60:right;63:s;90:left;93:s;120:comma;121:s,space;150:down;153:s" clip long hw
	for clip in hevc-1080p h264-1080p; do
		long=$(looped "$clip" 3)
		for hw in no vulkan; do yp seek-$clip-$hw 100 YCBCRPLAY_TEST_KEYS="$keys" -- -hwdec $hw -path sampler "$long"; done
		diffdir seek-$clip-vulkan seek-$clip-no
		rm -f "$long"
	done
}

sizes() {
	local clip fr hw args
	for clip in hevc-sizes h264-sizes; do
		for fr in 30 90 0; do
			for hw in no vulkan; do
				args=(-hwdec $hw -path sampler -screenshot shot.png)
				[ $fr != 0 ] && args+=(-frames $fr)
				yp sizes-$clip-$fr-$hw 60 -- "${args[@]}" "$HC/$clip.ts"
			done
			diffdir sizes-$clip-$fr-vulkan sizes-$clip-$fr-no
		done
	done
}

loop() { # only_start: -start runs only
	local clip hw st
	for clip in hevc-1080p h264-1080p; do
		for hw in no vulkan; do
			[ -z "${1:-}" ] && yp loop-$clip-$hw 60 -- -hwdec $hw -loop 2 -screenshot shot.png "$HC/$clip.mkv"
			for st in 2.5 4.167 4.3; do # 4.167: HEVC's CRA (open GOP; H.264: an IDR); 4.3: after it
				yp start$st-$clip-$hw 60 -- -hwdec $hw -start $st -frames 10 -screenshot shot.png "$HC/$clip.mkv"
			done
		done
		[ -z "${1:-}" ] && diffdir loop-$clip-vulkan loop-$clip-no
		for st in 2.5 4.167 4.3; do diffdir start$st-$clip-vulkan start$st-$clip-no; done
	done
}

fail() {
	local clip
	for clip in hevc-1080p h264-1080p; do
		yp fail-$clip-auto 60 YCBCRPLAY_TEST_HWFAIL=100 -- -hwdec auto -screenshot shot.png "$HC/$clip.mkv"
		yp fail-$clip-no 60 -- -hwdec no -screenshot shot.png "$HC/$clip.mkv"
		diffdir fail-$clip-auto fail-$clip-no
	done
}

cli() {
	local ff which st
	for ff in ${OLD:+$R/$OLD/ffmpeg} "$B/ffmpeg"; do
		which=new
		[ "$ff" = "$B/ffmpeg" ] || which=old
		for st in 4.167 4.3; do
			# -threads 1: with its default frame threads it hung here under the layer (2026-11-24).
			timeout -s KILL 60 "$ff" -hide_banner -nostdin -threads 1 -init_hw_device vulkan=vk:0,debug=1 -hwaccel vulkan \
				-hwaccel_device vk -hwaccel_output_format vulkan -ss $st -i "$HC/hevc-1080p.mkv" -frames:v 60 -f null - \
				>"$L/cli-$which-$st.txt" 2>&1
			say "cli $which ffmpeg -ss $st: rc=$? frames=$(tr '\r' '\n' <"$L/cli-$which-$st.txt" | grep -o 'frame= *[0-9]*' | tail -1 | tr -dc 0-9) vuid_lines=$(grep -c VUID "$L/cli-$which-$st.txt") $(grep -o 'VUID-[A-Za-z0-9_-]*' "$L/cli-$which-$st.txt" | sort | uniq -c | tr -s ' \n' ' ')"
		done
	done
}

ab() {
	local spec clip n long round which yp
	for spec in h264-1080p:15 hevc-1080p:30; do
		clip=${spec%:*} n=${spec#*:}
		long=$(looped "$clip" "$n")
		for round in 1 2 3; do
			ffrun "ab-$clip-x$n-$round-ffmpeg-t1" 60 "$long" -threads 1 "${hw[@]}"
			for which in ${OLD:+old} new; do
				yp=$B/ycbcrplay
				[ $which = old ] && yp=$R/$OLD/ycbcrplay
				timeout -s KILL 60 "$yp" -headless -untimed -stats -hwdec vulkan "$long" >"$L/ab.json" 2>"$L/ab.err"
				say "ab $clip x$n round $round ycbcrplay-$which: rc=$? frames=$(get "$L/ab.json" frames_presented) wall_s=$(get "$L/ab.json" wall_s) first_frame_ms=$(get "$L/ab.json" first_frame_ms) cpu_ms_per_frame=$(get "$L/ab.json" cpu_ms_per_frame) route=$(get "$L/ab.json" hwdec_route | cut -c1-12)"
			done
		done
		rm -f "$long"
	done
}

reliability() {
	local t=$OUT/reliability.txt f p h rc err vm verdict n=0 ok=0 refused=0 bad=0
	printf '%-28s %-7s %-6s %3s %-8s %3s  %s\n' clip path hwdec rc verdict vms "last line" >"$t"
	for f in testvectors/media/*.mkv testvectors/media/*.nut testvectors/media/*.y4m testvectors/media/*.h264 \
		testvectors/colour/*.mkv .gpu/relclips/*; do
		[ -e "$f" ] || continue
		for p in auto sampler shader; do
			for h in no auto vulkan; do
				timeout -s KILL 60 "$B/ycbcrplay" -headless -validate -no-audio -frames 10 -path $p -hwdec $h "$f" \
					>/dev/null 2>"$L/rel.err"
				rc=$?
				# Validation messages: the layer's own lines, or the player's count of them.
				# (a refusal's own error line may cite a VUID as its reason: that is no message)
				vm=$(grep -v '^error: .*VUID-[A-Za-z0-9-]*)' "$L/rel.err" | grep -cE 'VUID-|UNASSIGNED-|SYNC-HAZARD|validation message\(s\)')
				err=$(grep -c '^error: ' "$L/rel.err")
				if [ $rc = 0 ] && [ "$vm" = 0 ]; then
					verdict=ok ok=$((ok + 1))
				elif [ $rc = 1 ] && [ "$vm" = 0 ] && [ "$err" = 1 ] && tail -1 "$L/rel.err" | grep -q '^error: ' &&
					! grep -qE '^(panic|goroutine |fatal error)' "$L/rel.err"; then
					verdict=refused refused=$((refused + 1))
				else
					verdict=FAIL bad=$((bad + 1))
					cp "$L/rel.err" "$L/rel-$(basename "$f")-$p-$h.err"
				fi
				n=$((n + 1))
				printf '%-28s %-7s %-6s %3s %-8s %3s  %s\n' "$(basename "$f")" $p $h $rc $verdict "$vm" \
					"$(tail -1 "$L/rel.err" | cut -c1-200)" >>"$t"
			done
		done
	done
	say "reliability: $n runs: $ok played, $refused refused cleanly, $bad failed (table: reliability.txt)"
	grep -E ' (FAIL|refused) ' "$t" | cut -c1-260 | tee -a "$S"
}

hang() {
	mkdir -p /tmp/c1 && cp "$HC/hevc-1080p.mkv" /tmp/c1/
	(cd decode && exec env YCBCRKIT_HWDEC_CLIPS=/tmp/c1 "$B/decode.test" -test.run 'TestHWDecClips' -test.v -test.timeout 100s) >"$L/hang.txt" 2>&1 &
	local pid=$!
	sleep 25
	if kill -0 $pid 2>/dev/null; then
		say "decode.test TestHWDecClips hevc-1080p alone: still running after 25 s: stacks in logs/hang-bt.txt"
		timeout -s KILL 120 cuda-gdb -q -batch -p $pid -ex "set pagination off" -ex "thread apply all bt 14" >"$L/hang-bt.txt" 2>&1
		kill -KILL $pid
		grep -E "^#" "$L/hang-bt.txt" | grep -v "runtime\.\|futex_wait\|epoll\|nanosleep\|__GI___poll" |
			grep -iE "lock|wait|vk|av_|ff_|avx" | sort | uniq -c | sort -rn | head -25 | tee -a "$S"
	else
		wait $pid
		say "decode.test TestHWDecClips hevc-1080p alone: rc=$? (no hang)"
	fi
}

# dmonrun FILE command...: the command with nvidia-smi dmon (utilisation) beside it; dmonmax FILE COL
# is the column's largest reading (dec 5, sm 2).
dmonrun() {
	local f=$1 dm
	shift
	timeout -s KILL 60 nvidia-smi dmon -s u -d 1 >"$f" 2>&1 &
	dm=$!
	"$@"
	local rc=$?
	kill $dm 2>/dev/null
	return $rc
}
dmonmax() { awk -v c="$2" '$1 ~ /^[0-9]+$/ {print $c}' "$1" | sort -n | tail -1; }

# wallrun LABEL CODEC N [FLAG...]: one ycbcrwall -untimed run of N copies of the 1080p clip beside
# nvidia-smi dmon, and its summary line.
wallrun() {
	local label=$1 codec=$2 n=$3 js d
	shift 3
	js=$L/wall-$label-$codec-$n.json d=$L/dmon-$label-$codec-$n.txt
	dmonrun "$d" timeout -s KILL 120 "$B/ycbcrwall" -headless -untimed -n "$n" -hwdec vulkan -stats -loop "${WALL_LOOPS:-2}" "$@" \
		"$C/$codec-1080p.mkv" >"$js" 2>>"$L/wall.err"
	say "wall $label $codec-1080p n=$n: rc=$? fps $(get "$js" fps) slowest $(get "$js" min_stream_fps) queues $(get "$js" queues) gpu_ms/pic $(get "$js" gpu_ms_per_picture) cpu_ms/pic $(get "$js" cpu_ms_per_picture) display_idle $(get "$js" display_idle) stream1 decode/wait ms $(get "$js" decode_ms_per_picture)/$(get "$js" decoder_wait_ms_per_picture) variant $(get "$js" variant) peak_rss_mb $(get "$js" peak_rss_mb) dec% $(dmonmax "$d" 5) sm% $(dmonmax "$d" 2)"
}

# wall [ab|queues]: ab runs only the A/B at 7 and 16 streams, after the validated 16-stream picture
# check, one change at a time: old (drawn tiles, one queue, one decoding in flight per stream),
# compute (copied tiles) on one queue (the defaults), on one queue per stream, and with two
# decodings in flight per stream; queues crosses one queue or one each with one or two in flight.
wall() {
	local codec n i t0 t1 js v round
	js=$L/wall-validate.json
	timeout -s KILL 90 "$B/ycbcrwall" -headless -untimed -n 16 -frames 60 -hwdec vulkan -validate -stats -screenshot "$L/wall16.png" \
		"$C/hevc-1080p.mkv" >"$js" 2>"$L/wall-validate.err"
	say "wall -validate hevc-1080p x16, 60 frames: rc=$? variant $(get "$js" variant) queues $(get "$js" queues) validation: $(grep -c VUID "$L/wall-validate.err") $(head -c 200 "$L/wall-validate.err")"
	timeout -s KILL 60 "$B/ycbcrplay" -headless -untimed -frames 60 -hwdec vulkan -screenshot "$L/alone60.png" "$C/hevc-1080p.mkv" >/dev/null 2>>"$L/wall.err"
	pngdiff -tiles 4 "$L/wall16.png" "$L/alone60.png"
	# The drawn variant too (each tile's pass over its area of the canvas, gpu.Offscreen.BeginArea):
	# NVIDIA's default is the compute variant, whose tiles are copied.
	js=$L/wall-validate-draw.json
	timeout -s KILL 90 "$B/ycbcrwall" -headless -untimed -n 16 -frames 60 -hwdec vulkan -variant draw -validate -stats -screenshot "$L/wall16-draw.png" \
		"$C/hevc-1080p.mkv" >"$js" 2>"$L/wall-validate-draw.err"
	say "wall -validate -variant draw hevc-1080p x16, 60 frames: rc=$? variant $(get "$js" variant) queues $(get "$js" queues) validation: $(grep -c VUID "$L/wall-validate-draw.err") $(head -c 200 "$L/wall-validate-draw.err")"
	pngdiff -tiles 4 "$L/wall16-draw.png" "$L/alone60.png"
	if [ "${1:-}" = queues ]; then # one queue or one a stream, one or two decodings in flight, twice
		for round in 1 2; do
			for codec in h264 hevc; do
				for n in 7 16; do
					wallrun 1q-serial "$codec" "$n" -queues 1
					wallrun 1q-two "$codec" "$n" -queues 1 -two-decodes
					wallrun nq-serial "$codec" "$n" -queues 0
					wallrun nq-two "$codec" "$n" -queues 0 -two-decodes
				done
			done
		done
		return
	fi
	if [ "${1:-}" = ab ]; then
		for codec in h264 hevc; do
			for n in 7 16; do
				wallrun old "$codec" "$n" -variant draw -queues 1
				wallrun compute-1q "$codec" "$n" -variant compute -queues 1
				wallrun compute-nq "$codec" "$n" -variant compute -queues 0
				wallrun nq-two "$codec" "$n" -variant compute -queues 0 -two-decodes
			done
		done
		return
	fi
	for codec in h264 hevc; do
		for n in 1 2 4 7 8 16; do
			wallrun auto "$codec" "$n"
		done
		for n in 8; do
			t0=$(now)
			for ((i = 0; i < n; i++)); do
				timeout -s KILL 120 "$B/ycbcrplay" -headless -untimed -hwdec vulkan -loop "${WALL_LOOPS:-2}" "$C/$codec-1080p.mkv" >/dev/null 2>>"$L/wall.err" &
			done
			wait
			t1=$(now)
			say "ycbcrplay x$n processes $codec-1080p: aggregate fps $(calc "$n * ${WALL_LOOPS:-2} * 300 / ($t1 - $t0)")"
			t0=$(now)
			for ((i = 0; i < n; i++)); do
				timeout -s KILL 120 "$B/ffmpeg" -hide_banner -nostdin -loglevel error -threads 1 -hwaccel vulkan \
					-hwaccel_output_format vulkan -stream_loop $((${WALL_LOOPS:-2} - 1)) -i "$C/$codec-1080p.mkv" -f null - 2>>"$L/wall.err" &
			done
			wait
			t1=$(now)
			say "ffmpeg x$n processes $codec-1080p: aggregate fps $(calc "$n * ${WALL_LOOPS:-2} * 300 / ($t1 - $t0)")"
		done
	done
	js=$L/wall-timed.json
	timeout -s KILL 60 "$B/ycbcrwall" -headless -n 16 -hwdec vulkan -stats "$C/hevc-1080p.mkv" >"$js" 2>>"$L/wall.err"
	say "wall timed hevc-1080p (60 fps) x16: rc=$? slowest stream $(get "$js" min_stream_fps) fps, dropped $(grep -o '"dropped":[0-9]*' "$js" | cut -d: -f2 | paste -sd+ | awk '{print "sum " $0}')"
}

# peakmap OUT CMD...: runs CMD, sampling /proc/PID/smaps every 20 ms; OUT gets the resident set by
# mapping (anonymous, each library, the driver's device-file mappings) at the sample of highest RSS.
peakmap() {
	local out=$1
	shift
	python3 - "$out" "$@" <<'PY'
import collections, re, subprocess, sys, time
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
best, bm = 0, collections.Counter()
while p.poll() is None:
    try:
        txt = open(f"/proc/{p.pid}/smaps").read()
    except OSError:
        break
    m, name, tot = collections.Counter(), "", 0
    for l in txt.splitlines():
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", l):
            f = l.split(None, 5)
            name = re.sub(r".*/", "", f[5].strip()) if len(f) > 5 else "[anon]"
        elif l.startswith("Rss:"):
            kb = int(l.split()[1]); m[name] += kb; tot += kb
    if tot > best:
        best, bm = tot, m
    time.sleep(0.02)
with open(sys.argv[1], "w") as o:
    print(f"peak sampled RSS {best / 1024:.0f} MB", file=o)
    for k, v in bm.most_common(12):
        print(f"  {v / 1024:7.1f} MB  {k}", file=o)
PY
}

memory() { # RUNS
	local runs=${1:-3} loops=${LOOPS:-10} r clip n f js
	for ((r = 1; r <= runs; r++)); do
		for clip in h264-1080p hevc-1080p h264-2160p hevc-2160p hevc10-2160p; do
			for n in 1 "$loops"; do
				# need: the default decode-ahead (by need, at most 64 MB); 256: the former fixed
				# 256 MB; steady: -decode-ahead 0 (3 frames); old: OLD=DIR's build, if given.
				# -hwdec no: ycbcrplay's default (auto) decodes these clips in hardware on NVIDIA.
				ffnull "$OUT/memory.jsonl" $clip $n $r
				ffnull "$OUT/memory.jsonl" $clip $n $r ffmpeg-vk
				ypplay "$OUT/memory.jsonl" need "$B/ycbcrplay" $clip $n $r -hwdec no
				ypplay "$OUT/memory.jsonl" 256 "$B/ycbcrplay" $clip $n $r -hwdec no -decode-ahead 256
				[ "${STEADY:-0}" = 1 ] && ypplay "$OUT/memory.jsonl" steady "$B/ycbcrplay" $clip $n $r -hwdec no -decode-ahead 0
				[ -n "${OLD:-}" ] && ypplay "$OUT/memory.jsonl" old "$R/$OLD/ycbcrplay" $clip $n $r -hwdec no
			done
		done
	done
	python3 - "$OUT/memory.jsonl" "$T" <<'PY' | tee -a "$S"
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
med = statistics.median
print(f"software decoding, {sys.argv[2]} threads; medians of {max(r['run'] for r in runs)} interleaved rounds; fps over the process's wall time")
print("need: default decode-ahead (by need, <= 64 MB); 256: -decode-ahead 256 (the former default); steady: -decode-ahead 0; old: OLD's build")
print(f"{'clip':13} {'plays':>5} {'ff fps':>7} {'ff rss':>6} {'ffvk rss':>8} | {'tool':6} {'fps':>7} {'/ff':>6} {'/256':>6} {'rss':>5} {'-ff':>5} {'-ffvk':>5} {'pics':>5} {'gpu':>5} {'host':>5} {'ahead':>5}")
for clip in dict.fromkeys(r['clip'] for r in runs):
    for n in sorted(set(r['loops'] for r in runs)):
        # ok: this clip's and play count's runs of a tool that ended well (with -stats for ycbcrplay)
        ok = lambda tool: [r for r in runs if r['clip'] == clip and r['loops'] == n and r['tool'] == tool and r['rc'] == 0 and r.get('stats', True)]
        ff = ok('ffmpeg')
        if not ff:
            print(f"{clip:13} {n:5d} ffmpeg failed"); continue
        by = {t: ok(t) for t in ('need', '256', 'steady', 'old')}
        if not by['need']:
            print(f"{clip:13} {n:5d} ycbcrplay failed"); continue
        k = by['need'][0]['stats']['frames_decoded']
        fff, ffr = k / med(r['wall_s'] for r in ff), med(r['peak_rss_mb'] for r in ff)
        vk = ok('ffmpeg-vk')
        vkr = med(r['peak_rss_mb'] for r in vk) if vk else float('nan')
        f256 = k / med(r['wall_s'] for r in by['256']) if by['256'] else float('nan')
        first = True
        for t, rs in by.items():
            if not rs:
                continue
            fps = k / med(r['wall_s'] for r in rs)
            g = lambda key: med(r['stats'].get(key, float('nan')) for r in rs)
            rss = g('peak_rss_mb')
            head = f"{clip:13} {n:5d} {fff:7.1f} {ffr:6.0f} {vkr:8.0f}" if first else f"{'':13} {'':5} {'':7} {'':6} {'':8}"
            first = False
            print(f"{head} | {t:6} {fps:7.1f} {fps / fff:6.3f} {fps / f256:6.3f} {rss:5.0f} {rss - ffr:+5.0f} {rss - vkr:+5.0f} {g('picture_buffers_mb'):5.0f} "
                  f"{g('gpu_memory_mb'):5.0f} {g('gpu_host_visible_mb'):5.0f} {g('decoded_ahead_frames'):5.0f}")
print("rss: peak RSS MB (-ff: over ffmpeg's; -ffvk: over ffmpeg's uploading each picture to a Vulkan image, -vf hwupload); pics: peak MB of the decoder's picture buffers; gpu: peak device memory the toolkit and FFmpeg allocated, host: the toolkit's host-visible part at the end (staging made on first need, read-back)")
PY
	# Where the resident set is, by mapping, at its peak: the floor (a 64x48 vector) and the 2160p
	# 10-bit clip, for ffmpeg and ycbcrplay.
	for f in "$R/testvectors/media/bt709.mkv" "$C/hevc10-2160p.mkv" "$C/h264-1080p.mkv"; do
		peakmap "$L/map-ff.txt" "$B/ffmpeg" -hide_banner -nostdin -threads "$T" -i "$f" -f null -
		peakmap "$L/map-vk.txt" "$B/ffmpeg" -hide_banner -nostdin -init_hw_device vulkan=vk:0 -filter_hw_device vk -threads "$T" -i "$f" -vf hwupload -f null -
		peakmap "$L/map-pl.txt" "$B/ycbcrplay" -headless -untimed -hwdec no -threads "$T" "$f"
		say "resident set by mapping at its peak, $(basename "$f"): ffmpeg | ffmpeg -vf hwupload | ycbcrplay"
		paste -d'|' "$L/map-ff.txt" "$L/map-vk.txt" "$L/map-pl.txt" | awk -F'|' '{printf "  %-40s| %-40s| %s\n", $1, $2, $3}' | tee -a "$S"
	done
	# Hardware decoding: one stream, and 16 streams of 1080p in one ycbcrwall (issue 25: <= 200 MB
	# and <= 1.5 GB); gpu_memory_mb per stream.
	for clip in h264-1080p hevc-1080p hevc10-2160p; do
		js=$(timeout -s KILL 60 "$B/ycbcrplay" -headless -untimed -stats -hwdec vulkan "$C/$clip.mkv" 2>>"$L/memory.err")
		rc=$?
		say "hwdec ycbcrplay $clip: rc=$rc $(echo "$js" | python3 -c "import json,sys; d=json.load(sys.stdin); print({k: round(d[k], 1) if isinstance(d.get(k), float) else d.get(k) for k in ('hwdec', 'peak_rss_mb', 'gpu_memory_mb', 'ffmpeg_gpu_memory_mb', 'gpu_host_visible_mb', 'picture_buffers_mb')})" 2>/dev/null || tail -c 300 "$L/memory.err")"
	done
	for clip in h264-1080p hevc-1080p; do
		for v in vulkan no; do
			js=$L/memory-wall-$clip-$v.json
			timeout -s KILL 120 "$B/ycbcrwall" -headless -untimed -n 16 -hwdec $v -stats "$C/$clip.mkv" >"$js" 2>>"$L/memory.err"
			rc=$?
			say "wall -hwdec $v $clip x16: rc=$rc $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('fps', round(d['fps']), 'peak_rss_mb', round(d['peak_rss_mb']), 'gpu_memory_mb', round(d.get('gpu_memory_mb', 0)), 'ffmpeg_gpu_memory_mb', round(d.get('ffmpeg_gpu_memory_mb', 0)), 'picture_buffers_mb', round(d.get('picture_buffers_mb', 0)), 'per stream gpu MB', sorted(set(round(s.get('gpu_memory_mb', 0), 1) for s in d['per_stream'])))" "$js" 2>/dev/null || tail -c 300 "$L/memory.err")"
		done
	done
}

for s in "$@"; do
	name=${s%%:*} arg=
	[ "$name" != "$s" ] && arg=${s#*:}
	say "== $s ($(date -u +%T))"
	case $name in
	tests | conformance | bench | scale | quality | player | variants | startup | hwdec | pictures | routes | inplace | speed | \
		ffthreads | seek | sizes | loop | fail | cli | ab | hang | wall | memory | reliability) $name $arg ;;
	loopstart) loop only_start ;;
	*) say "error: unknown section $s" ;;
	esac
done
# Screenshots stay there (1080p PNGs would make logs.tgz too large to come back).
cd "$OUT" && find logs -name '*.png' -delete && tar czf logs.tgz logs && rm -rf logs
ls -la "$OUT"
