#!/bin/bash
# Device run (issue 19's unexercised cases with real hardware decoding): seeking, mid-stream size
# changes, EOF drain and a mid-stream hardware failure, every run with -validate.
#   decode   decode.test -test.run 'TestHWDecSeekClips|TestHWDecSizeChangeClips': seeks (forward,
#            back, to frames that are not key frames) and *-sizes.ts (1920x1080, 1278x718, 1920x1080
#            joined with cat) in hardware vs software, downloaded and compared sample for sample.
#   seek     the player (ycbcrplay.test as main, YCBCRPLAY_TEST_KEYS: keys scripted after given
#            frames, headless) on hevc/h264-1080p looped 3 times (15 s, key frames at 0, 4.167, 5,
#            9.167, 10, 14.167 s): → → ← , ↓ with a screenshot (s) after each, -hwdec vulkan and no;
#            frames presented, the screenshots' times (the s key's log) and pictures compared.
#   sizes    the player on *-sizes.ts to frames 30, 90 and the end, -hwdec vulkan and no, screenshots.
#   loop     -loop 2 (EOF drain, then a seek to 0) and -start 2.5|4.167|4.3 -frames 10, hardware vs
#            software (loopstart: -start only).
#   cli      FFmpeg's own program with its validation layer from HEVC's CRA on (OLD=DIR: also an
#            earlier build's, for the FFmpeg patch's before and after).
#   routes   throughput of the in-place route against the GPU copy, interleaved.
#   ab       throughput, interleaved: ffmpeg -threads 1 hardware, OLD=DIR's ycbcrplay, this build's.
#   fail     YCBCRPLAY_TEST_HWFAIL=100 (avx.InjectHWFailure) with -hwdec auto: the real hardware
#            decoder is made to fail at frame 100; all 300 frames presented, the last picture compared.
# Prepare here: scripts/device/hwdec-seek-build.sh DIR. Run there (carry .gl and DIR):
#   bash DIR/run.sh DIR decode seek sizes loop fail
# Output ($OUT): summary.txt, logs.tgz. Every command runs under timeout -s KILL.
set -u
H=$1
shift
. scripts/device/hwdec-common.sh

# yp NAME LIMIT [env...] -- ycbcrplay args: runs in $L/NAME/ (the s key writes there).
yp() {
	local n=$1 lim=$2
	shift 2
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	mkdir -p "$L/$n"
	(cd "$L/$n" && timeout -s KILL $lim env YCBCRPLAY_AS_MAIN=1 "${envs[@]}" "$B/ycbcrplay.test" -headless -untimed -validate -stats "$@" \
		>out.json 2>err.txt)
	local rc=$? j=$L/$n/out.json
	say "$n: rc=$rc validation_lines=$(grep -ciE 'vuid|validation|unassigned' "$L/$n/err.txt") frames=$(get "$j" frames_presented) decoded=$(get "$j" frames_decoded) dropped=$(get "$j" frames_dropped) decoder=$(get "$j" decoder) hwdec=$(get "$j" hwdec) route=$(get "$j" hwdec_route | cut -c1-40) reason=$(get "$j" hwdec_reason | cut -c1-90)"
	grep -E '^screenshot' "$L/$n/err.txt" | tr '\n' ' ' | sed 's/^/  /' | tee -a "$S"; echo >>"$S"
	grep -vE '^screenshot' "$L/$n/err.txt" | head -c 300 | sed 's/^/  stderr: /' | tee -a "$S"
}
diffdir() { # A B: pngdiff every screenshot of A with B's of the same name
	for f in "$L/$1"/*.png; do
		say "  $(timeout -s KILL 30 "$B/pngdiff" "$f" "$L/$2/$(basename "$f")" 2>&1 | sed "s|$L/||g")"
	done
}

decode() {
	(cd decode && timeout -s KILL ${DECODE_LIMIT:-150} env YCBCRKIT_HWDEC_CLIPS="$C" "$B/decode.test" \
		-test.run 'TestHWDecSeekClips$|TestHWDecSizeChangeClips$' -test.v -test.count=1 -test.timeout $((${DECODE_LIMIT:-150} - 5))s >"$L/decode.txt" 2>&1)
	say "decode.test seek/sizes: rc=$?"
	grep -E '^(--- |ok|FAIL|PASS|panic)|VUID|UNASSIGNED|hwseek_test' "$L/decode.txt" | cut -c1-300 | head -40 | tee -a "$S"
}

seek() {
	local keys="30:right;33:s;60:right;63:s;90:left;93:s;120:comma;121:s,space;150:down;153:s"
	for clip in hevc-1080p h264-1080p; do
		long=/tmp/long-$clip.mkv
		timeout -s KILL 60 "$B/ffmpeg" -v error -nostdin -stream_loop 2 -i "$C/$clip.mkv" -c copy -y "$long"
		for hw in no vulkan; do
			yp seek-$clip-$hw 100 YCBCRPLAY_TEST_KEYS="$keys" -- -hwdec $hw -path sampler "$long"
		done
		diffdir seek-$clip-vulkan seek-$clip-no
		rm -f "$long"
	done
}

sizes() {
	for clip in hevc-sizes h264-sizes; do
		for fr in 30 90 0; do
			for hw in no vulkan; do
				args=(-hwdec $hw -path sampler -screenshot shot.png)
				[ $fr != 0 ] && args+=(-frames $fr)
				yp sizes-$clip-$fr-$hw 60 -- "${args[@]}" "$C/$clip.ts"
			done
			diffdir sizes-$clip-$fr-vulkan sizes-$clip-$fr-no
		done
	done
}

loop() {
	for clip in hevc-1080p h264-1080p; do
		for hw in no vulkan; do
			[ -z "${only_start:-}" ] && yp loop-$clip-$hw 60 -- -hwdec $hw -loop 2 -screenshot shot.png "$C/$clip.mkv"
			for st in 2.5 4.167 4.3; do # 4.167: HEVC's CRA (open GOP; h264: an IDR); 4.3: after it
				yp start$st-$clip-$hw 60 -- -hwdec $hw -start $st -frames 10 -screenshot shot.png "$C/$clip.mkv"
			done
		done
		[ -z "${only_start:-}" ] && diffdir loop-$clip-vulkan loop-$clip-no
		for st in 2.5 4.167 4.3; do diffdir start$st-$clip-vulkan start$st-$clip-no; done
	done
}

fail() {
	for clip in hevc-1080p h264-1080p; do
		yp fail-$clip-auto 60 YCBCRPLAY_TEST_HWFAIL=100 -- -hwdec auto -screenshot shot.png -stats "$C/$clip.mkv"
		yp fail-$clip-no 60 -- -hwdec no -screenshot shot.png "$C/$clip.mkv"
		diffdir fail-$clip-auto fail-$clip-no
	done
}

# cli: FFmpeg's own program from HEVC's CRA on (-ss 4.167, and 4.3 after it), its Vulkan device with
# the validation layer (debug=1): this build's ffmpeg and, with OLD=DIR (a bin folder of an earlier
# build), that one's; the VUIDs each reports.
cli() {
	for ff in ${OLD:+$R/$OLD/ffmpeg} "$B/ffmpeg"; do
		local which=new
		[ "$ff" = "$B/ffmpeg" ] || which=old
		for st in 4.167 4.3; do
			# -threads 1: with its default frame threads it hung here under the layer (2026-11-24).
			timeout -s KILL 60 "$ff" -hide_banner -nostdin -threads 1 -init_hw_device vulkan=vk:0,debug=1 -hwaccel vulkan \
				-hwaccel_device vk -hwaccel_output_format vulkan -ss $st -i "$C/hevc-1080p.mkv" -frames:v 60 -f null - \
				>"$L/cli.txt" 2>&1
			say "cli $which ffmpeg -ss $st: rc=$? frames=$(tr '\r' '\n' <"$L/cli.txt" | grep -o 'frame= *[0-9]*' | tail -1 | tr -dc 0-9) vuid_lines=$(grep -c VUID "$L/cli.txt") $(grep -o 'VUID-[A-Za-z0-9_-]*' "$L/cli.txt" | sort | uniq -c | tr -s ' \n' ' ')"
			mv "$L/cli.txt" "$L/cli-$which-$st.txt"
		done
	done
}

# ab: throughput side by side, interleaved, 3 rounds: this build's ffmpeg -threads 1 with frames kept
# on the GPU, ycbcrplay of an earlier build (OLD=DIR, its bin folder) and this build's, both
# -headless -untimed -stats -hwdec vulkan (no validation), on looped inputs.
ab() {
	for spec in h264-1080p:15 hevc-1080p:30; do
		local clip=${spec%:*} n=${spec#*:} long=/tmp/long-${spec%:*}.mkv
		timeout -s KILL 60 "$B/ffmpeg" -v error -nostdin -stream_loop $((n - 1)) -i "$C/$clip.mkv" -c copy -y "$long"
		for round in 1 2 3; do
			timeout -s KILL 60 "$B/ffmpeg" -hide_banner -nostdin -benchmark -threads 1 -init_hw_device vulkan=vk -hwaccel vulkan \
				-hwaccel_device vk -hwaccel_output_format vulkan -i "$long" -f null - >"$L/ab.txt" 2>&1
			local fr=$(tr '\r' '\n' <"$L/ab.txt" | grep -o 'frame= *[0-9]*' | tail -1 | tr -dc 0-9)
			local rt=$(grep -o 'rtime=[0-9.]*' "$L/ab.txt" | tail -1 | tr -dc 0-9.)
			say "ab $clip x$n round $round ffmpeg-t1: frames=$fr rtime=$rt fps=$(awk "BEGIN{printf \"%.0f\", $fr/$rt}")"
			for which in ${OLD:+old} new; do
				local yp=$B/ycbcrplay
				[ $which = old ] && yp=$R/$OLD/ycbcrplay
				timeout -s KILL 60 "$yp" -headless -untimed -stats -hwdec vulkan "$long" >"$L/ab.json" 2>"$L/ab.err"
				say "ab $clip x$n round $round ycbcrplay-$which: rc=$? frames=$(get "$L/ab.json" frames_presented) wall_s=$(get "$L/ab.json" wall_s) first_frame_ms=$(get "$L/ab.json" first_frame_ms) cpu_ms_per_frame=$(get "$L/ab.json" cpu_ms_per_frame) route=$(get "$L/ab.json" hwdec_route | cut -c1-12)"
			done
		done
		rm -f "$long"
	done
}

# routes: in place against the GPU copy, interleaved, 3 rounds: this build's ycbcrplay -headless
# -untimed -stats -hwdec vulkan -hwdec-route inplace|copy (no validation) on looped inputs of each clip
# of ROUTE_CLIPS that DIR/clips has (default: hevc-1080p, h264-1080p, hevc-2160p, hevc10-2160p).
routes() {
	for spec in ${ROUTE_CLIPS:-hevc-1080p:30 h264-1080p:15 hevc-2160p:15 hevc10-2160p:15}; do
		local clip=${spec%:*} n=${spec#*:} long=/tmp/long-${spec%:*}.mkv
		[ -f "$C/$clip.mkv" ] || continue
		timeout -s KILL 60 "$B/ffmpeg" -v error -nostdin -stream_loop $((n - 1)) -i "$C/$clip.mkv" -c copy -y "$long"
		for round in 1 2 3; do
			for route in inplace copy; do
				timeout -s KILL 60 "$B/ycbcrplay" -headless -untimed -stats -hwdec vulkan -hwdec-route $route "$long" >"$L/rt.json" 2>"$L/rt.err"
				say "routes $clip x$n round $round $route: rc=$? frames=$(get "$L/rt.json" frames_presented) wall_s=$(get "$L/rt.json" wall_s) first_frame_ms=$(get "$L/rt.json" first_frame_ms) cpu_ms_per_frame=$(get "$L/rt.json" cpu_ms_per_frame) route=$(get "$L/rt.json" hwdec_route | cut -c1-12)"
			done
		done
		rm -f "$long"
	done
}

for s in "$@"; do
	case $s in
	routes) routes ;;
	cli) cli ;;
	ab) ab ;;
	decode) decode ;;
	seek) seek ;;
	sizes) sizes ;;
	loop) loop ;;
	loopstart) only_start=1 loop ;;
	fail) fail ;;
	esac
done
# The screenshots stay there (1080p PNGs: logs.tgz would be too large to come back).
cd "$OUT" && find logs -name '*.png' -delete && tar czf logs.tgz logs && rm -rf logs
ls -la "$OUT"
