#!/bin/bash
# Device run (issue 19, the final check): sections
#   verify   pictures: ycbcrplay -validate -stats -frames 60 -screenshot, -path sampler|shader, with
#            -hwdec no and -hwdec vulkan -hwdec-route auto|inplace|copy, on hevc-1080p, hevc-2160p,
#            hevc10-2160p, h264-1080p, hevc-odd (exit codes, every validation message, hwdec_route);
#            pngdiff against the software picture; decode.test -test.run HWDec (run from decode/ so
#            ../testvectors/media exists); videotex.test -test.run 'TestHWDecodeEngineDevice|TestHWFramesRoute'.
#   routes   the route -hwdec-route auto takes on each clip and path, with -validate.
#   speed    throughput on looped inputs (ffmpeg -stream_loop N -c copy, made there): the same build's
#            ffmpeg -threads 1 -hwaccel vulkan (frames kept on the GPU; default threads tried on the clip once), ffmpeg
#            software, ycbcrplay -headless -untimed -stats -hwdec vulkan (auto route) and -hwdec no.
# Prepare here: scripts/device/hwdec-build.sh DIR, scripts/device/videotex-hw-build.sh VDIR, pngdiff
# into DIR/pngdiff; copy this file to DIR/run.sh. Run there (carry .gl, DIR, VDIR):
#   bash DIR/run.sh DIR VDIR verify      or      bash DIR/run.sh DIR - speed
# Output ($OUT): summary.txt and logs.tgz (verify also shots-2160p.tgz: the 2160p screenshots).
# Every command runs under timeout -s KILL.
set -u
H=$1 V=$2
shift 2
. scripts/device/hwdec-common.sh
[ "$V" != - ] && tar -C "$V" -xJf "$V/bin.tar.xz"

verify() {
	P=$L/pictures
	mkdir -p "$P"
	for clip in hevc-1080p hevc-2160p hevc10-2160p h264-1080p hevc-odd; do
		for path in sampler shader; do
			for m in "no auto" "vulkan auto" "vulkan inplace" "vulkan copy"; do
				set -- $m
				n=$clip-$path-$1-$2
				timeout -s KILL 60 "$B/ycbcrplay" -headless -untimed -validate -stats -frames 60 -path $path -hwdec $1 \
					-hwdec-route $2 -screenshot "$P/$n.png" "$C/$clip.mkv" >"$P/$n.json" 2>"$P/$n.err"
				rc=$?
				msgs=$(grep -ciE 'vuid|validation|unassigned' "$P/$n.err")
				say "$n: rc=$rc validation_lines=$msgs frames=$(get "$P/$n.json" frames_presented) decoder=$(get "$P/$n.json" decoder) route=$(get "$P/$n.json" hwdec_route)"
				grep -q . "$P/$n.err" && say "  stderr: $(head -c 400 "$P/$n.err" | tr '\n' ' ')"
			done
			for route in auto inplace copy; do
				say "  $(timeout -s KILL 30 "$H/pngdiff" "$P/$clip-$path-no-auto.png" "$P/$clip-$path-vulkan-$route.png" 2>&1 | sed "s|$P/||g")"
			done
		done
	done
	(cd decode && timeout -s KILL 240 env YCBCRKIT_HWDEC_CLIPS="$C" YCBCRKIT_HWDEC_OUT="$L/decode.jsonl" "$B/decode.test" \
		-test.run HWDec -test.v -test.count=1 -test.timeout 235s >"$L/decode.txt" 2>&1)
	say "decode.test -test.run HWDec: rc=$?"
	grep -E '^(--- |ok|FAIL|PASS|panic)|VUID|UNASSIGNED' "$L/decode.txt" | cut -c1-300 | head -30 | tee -a "$S"
	if [ "$V" != - ]; then
		(cd videotex && YCBCRKIT_HWDEC_CLIPS=$R/$V/clips timeout -s KILL 75 "$R/$V/bin/videotex.test" \
			-test.run 'TestHWDecodeEngineDevice$|TestHWFramesRoute$' -test.v -test.count=1 >"$L/videotex.txt" 2>&1)
		say "videotex.test: rc=$?"
		grep -E '^(--- |ok|FAIL|PASS|panic)|VUID|UNASSIGNED|hwdec_test' "$L/videotex.txt" | cut -c1-300 | head -20 | tee -a "$S"
	fi
	(cd "$P" && tar czf "$OUT/shots-2160p.tgz" *2160p*.png && rm -f *2160p*.png)
}

ffrun() { # name, seconds, input, ffmpeg args before -i...
	local n=$1 lim=$2 in=$3
	shift 3
	timeout -s KILL $lim "$B/ffmpeg" -hide_banner -nostdin -benchmark "$@" -i "$in" -f null - >"$L/$n.txt" 2>&1
	local rc=$?
	local fr=$(tr '\r' '\n' <"$L/$n.txt" | grep -o 'frame= *[0-9]*' | tail -1 | tr -dc 0-9)
	local b=$(grep -o 'bench: utime=[0-9.]*s stime=[0-9.]*s rtime=[0-9.]*s' "$L/$n.txt" | tail -1 | tr -dc '0-9. ')
	set -- ${b:-0 0 0}
	[ "$3" = 0 ] && { say "$n: rc=$rc frames=$fr (no -benchmark line: killed after $lim s)"; return; }
	say "$n: rc=$rc frames=$fr utime=$1 stime=$2 rtime=$3 fps=$(awk "BEGIN{printf \"%.0f\", $fr/$3}") cpu_ms_per_frame=$(awk "BEGIN{printf \"%.3f\", ($1+$2)*1000/$fr}")"
}

yprun() { # name, input, ycbcrplay args...
	local n=$1 in=$2
	shift 2
	local t0=$(date +%s.%N)
	timeout -s KILL 45 "$B/ycbcrplay" -headless -untimed -stats "$@" "$in" >"$L/$n.json" 2>"$L/$n.err"
	local rc=$? t1=$(date +%s.%N)
	local j=$L/$n.json fr wall ff
	fr=$(get "$j" frames_presented) wall=$(get "$j" wall_s) ff=$(get "$j" first_frame_ms)
	say "$n: rc=$rc frames=$fr wall_s=$wall process_s=$(awk "BEGIN{printf \"%.2f\", $t1-$t0}") first_frame_ms=$ff fps=$(get "$j" fps) steady_fps=$(awk "BEGIN{printf \"%.0f\", ($fr-1)/($wall-$ff/1000)}") cpu_ms_per_frame=$(get "$j" cpu_ms_per_frame) cpu_bytes=$(get "$j" cpu_bytes_copied_per_frame) threads=$(get "$j" decode_threads) route=$(get "$j" hwdec_route) decoder=$(get "$j" decoder)"
	[ $rc = 0 ] || say "  $(head -c 300 "$L/$n.err")"
}

speed() {
	hw=(-init_hw_device vulkan=vk -hwaccel vulkan -hwaccel_device vk -hwaccel_output_format vulkan)
	for cl in hevc-1080p:29 h264-1080p:14 hevc-2160p:14 hevc10-2160p:14 hevc-4320p:9; do
		clip=${cl%:*} loops=${cl#*:}
		[ -e "$C/$clip.mkv" ] || continue
		long=/tmp/long-$clip.mkv
		timeout -s KILL 60 "$B/ffmpeg" -v error -nostdin -stream_loop $loops -i "$C/$clip.mkv" -c copy -y "$long"
		# FFmpeg's CLI with its default frame threads deadlocked on hevc-1080p (frame 43 of 300, first
		# try of this script, 2026-11-24): the hardware reference is -threads 1 (what the toolkit uses);
		# the default threads are tried once on the short clip with a 10 s limit.
		ffrun "$clip-ffmpeg-hw-default-threads-once" 10 "$C/$clip.mkv" "${hw[@]}"
		ffrun "$clip-ffmpeg-hw-t1-once" 20 "$C/$clip.mkv" -threads 1 "${hw[@]}"
		ffrun "$clip-ffmpeg-hw-t1" 45 "$long" -threads 1 "${hw[@]}"
		yprun "$clip-ycbcrplay-hw" "$long" -hwdec vulkan -hwdec-route auto
		ffrun "$clip-ffmpeg-sw" 45 "$long"
		yprun "$clip-ycbcrplay-sw" "$long" -hwdec no
		rm -f "$long"
	done
}

# routes: the route auto takes per clip and path, with -validate (120 frames; the clips there).
routes() {
	for f in "$C"/*.mkv; do
		clip=$(basename "$f" .mkv)
		for path in sampler shader; do
			timeout -s KILL 60 "$B/ycbcrplay" -headless -untimed -validate -stats -frames 120 -path $path -hwdec vulkan \
				"$f" >"$L/route-$clip-$path.json" 2>"$L/route-$clip-$path.err"
			say "route $clip $path: rc=$? validation_lines=$(grep -ciE 'vuid|validation|unassigned' "$L/route-$clip-$path.err") frames=$(get "$L/route-$clip-$path.json" frames_presented) conversion=$(get "$L/route-$clip-$path.json" conversion) route=$(get "$L/route-$clip-$path.json" hwdec_route | cut -c1-110)"
		done
	done
}

for s in "$@"; do
	case $s in
	routes) routes ;;
	verify) verify ;;
	speed) speed ;;
	esac
done
cd "$OUT" && tar czf logs.tgz logs && rm -rf logs
ls -la "$OUT"
