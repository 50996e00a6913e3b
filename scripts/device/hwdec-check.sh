#!/bin/bash
# Device run (issue 19): the hardware routes of ycbcrplay on the GPU machine, in sections:
#   diag      ycbcrplay -frames 30 -screenshot through the GPU copy and in place (where the copy route
#             hung): if it is still running after 15 s, every thread's stack (cuda-gdb), then SIGTERM
#             and the time the process took to end, then SIGQUIT (Go's goroutine dump).
#   pictures  frame 30 of each clip drawn from hardware decoding (in place, GPU copy) and from software
#             decoding, sampler and shader path, -validate on; pngdiff compares (within 1/255).
#   decode    decode.test -test.run HWDec (software, hardware, hardware with downloads per clip).
#   speed:CLIP[,CLIP...]  throughput on the clip played 5 times (ffmpeg -stream_loop 4 -c copy, made
#             there): the same build's ffmpeg -hwaccel vulkan (frames kept on the GPU) on the clip once
#             and 5 times (steady state = the difference), ffmpeg software decode, and ycbcrplay in
#             place, GPU copy, download and -hwdec no (steady state = frames after the first over wall
#             time after the first frame); -threads 8 everywhere.
# Prepare here: scripts/device/hwdec-check-build.sh DIR. Run there, with .gl and DIR carried:
#   bash DIR/run.sh DIR diag pictures decode speed:hevc-1080p,...
# Output ($OUT): summary.txt (what is quoted in docs/hwdec.md) and logs.tgz.
set -u
H=$1
shift
tar -C "$H" -xJf "$H/bin.tar.xz"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
[ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=$H/bin C=$H/clips T=8 L=$OUT/logs S=$OUT/summary.txt
mkdir -p "$L"
say() { echo "$*" | tee -a "$S"; }
say "gpu: $(timeout -s KILL 10 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
alive() { kill -0 "$1" 2>/dev/null; }
waitfor() { # pid, tenths of a second: true when it ended in time
	for _ in $(seq 1 "$2"); do alive "$1" || return 0; sleep 0.1; done
	! alive "$1"
}

diag() {
	for route in copy inplace; do
		"$B/ycbcrplay" -headless -untimed -frames 30 -hwdec vulkan -hwdec-route $route -threads $T \
			-screenshot "$L/diag-$route.png" "$C/hevc-1080p.mkv" >"$L/diag-$route.out" 2>"$L/diag-$route.err" &
		pid=$!
		if waitfor $pid 150; then
			wait $pid
			say "diag $route: rc=$? $(head -c 300 "$L/diag-$route.err" | tr '\n' ' ')"
			continue
		fi
		say "diag $route: still running after 15 s"
		timeout -s KILL 45 cuda-gdb -q -batch -p $pid -ex "set pagination off" -ex "thread apply all bt 16" >"$L/diag-$route-bt.txt" 2>&1
		t0=$(date +%s.%N)
		kill -TERM $pid
		if waitfor $pid 30; then
			wait $pid
			say "diag $route: SIGTERM: rc=$? after $(awk "BEGIN{print $(date +%s.%N)-$t0}") s: $(tail -c 300 "$L/diag-$route.err" | tr '\n' ' ')"
		else
			kill -QUIT $pid
			sleep 1
			kill -KILL $pid 2>/dev/null
			say "diag $route: SIGTERM ignored for 3 s; SIGQUIT's dump in diag-$route.err"
		fi
	done
}

pictures() { # clips (comma-separated; default all)
	P=$L/pictures
	mkdir -p "$P"
	local clips=${1:-h264-1080p,hevc-1080p,hevc-2160p,hevc10-2160p,h264-odd,hevc-odd}
	for clip in ${clips//,/ }; do
		for path in sampler shader; do
			for m in "no auto" "vulkan inplace" "vulkan copy" "vulkan auto"; do
				set -- $m
				n=$clip-$path-$1-$2
				timeout -s KILL 60 "$B/ycbcrplay" -headless -untimed -validate -stats -frames 30 -path $path -hwdec $1 -hwdec-route $2 \
					-threads $T -screenshot "$P/$n.png" "$C/$clip.mkv" >"$P/$n.json" 2>"$P/$n.err"
				rc=$?
				[ $rc = 0 ] || say "pictures $n: rc=$rc $(head -c 400 "$P/$n.err" | tr '\n' ' ')"
				grep -q . "$P/$n.err" && [ $rc = 0 ] && say "pictures $n: stderr: $(head -c 300 "$P/$n.err" | tr '\n' ' ')"
			done
			r=$(tr ',' '\n' <"$P/$clip-$path-vulkan-auto.json" | grep -E '"(hwdec_route|decoder)"' | tr '\n' ' ')
			say "pictures $clip $path: auto: $r"
			for route in inplace copy auto; do
				say "  $(timeout -s KILL 30 "$B/pngdiff" "$P/$clip-$path-no-auto.png" "$P/$clip-$path-vulkan-$route.png" 2>&1 | sed "s|$P/||g")"
			done
		done
	done
	rm -f "$P"/*.png
}

decodehang() { # decode.test HWDecClips on the HEVC clip alone; cuda-gdb after 20 s if still running
	mkdir -p /tmp/c1 && cp "$C/hevc-1080p.mkv" /tmp/c1/
	YCBCRKIT_HWDEC_CLIPS=/tmp/c1 "$B/decode.test" -test.run 'HWDecClips' -test.v -test.timeout 100s >"$L/decodehang.txt" 2>&1 &
	local pid=$!
	if waitfor $pid 200; then
		wait $pid
		say "decode.test HWDecClips hevc-1080p alone: rc=$? (no hang)"
	else
		timeout -s KILL 60 cuda-gdb -q -batch -p $pid -ex "set pagination off" -ex "thread apply all bt 14" >"$L/decodehang-bt.txt" 2>&1
		kill -KILL $pid
		say "decode.test HWDecClips hevc-1080p alone: still running after 20 s: stacks in decodehang-bt.txt"
		grep -E "^#" "$L/decodehang-bt.txt" | grep -v "runtime\.\|futex_wait\|epoll\|nanosleep\|__GI___poll" | grep -iE "lock|wait|vk|av_|ff_|avx" | sort | uniq -c | sort -rn | head -25 | tee -a "$S"
	fi
}

decode() {
	timeout -s KILL 120 env YCBCRKIT_HWDEC_CLIPS="$C" YCBCRKIT_HWDEC_OUT="$L/decode.jsonl" "$B/decode.test" -test.run HWDec \
		-test.v -test.count=1 -test.timeout 110s >"$L/decode.txt" 2>&1
	say "decode.test -test.run HWDec: rc=$?"
	grep -E '^(--- |ok|FAIL|PASS|panic)' "$L/decode.txt" | cut -c1-300 | head -30 | tee -a "$S"
}

ffrun() { # name, input, ffmpeg args before -i...
	local n=$1 in=$2
	shift 2
	timeout -s KILL 120 "$B/ffmpeg" -hide_banner -nostdin -benchmark -threads $T "$@" -i "$in" -f null - >"$L/$n.txt" 2>&1
	local rc=$?
	local fr=$(grep -o 'frame= *[0-9]*' "$L/$n.txt" | tail -1 | tr -dc 0-9)
	local b=$(grep -o 'bench: utime=[0-9.]*s stime=[0-9.]*s rtime=[0-9.]*s' "$L/$n.txt" | tail -1 | tr -dc '0-9. ')
	set -- $b
	say "$n: rc=$rc frames=$fr utime=$1 stime=$2 rtime=$3 fps=$(awk "BEGIN{printf \"%.0f\", $fr/$3}") cpu_ms_per_frame=$(awk "BEGIN{printf \"%.2f\", ($1+$2)*1000/$fr}")"
}

yprun() { # name, input, ycbcrplay args...
	local n=$1 in=$2
	shift 2
	timeout -s KILL 120 "$B/ycbcrplay" -headless -untimed -stats -threads $T "$@" "$in" >"$L/$n.json" 2>"$L/$n.err"
	local rc=$?
	local j=$(cat "$L/$n.json")
	get() { echo "$j" | tr ',' '\n' | grep "\"$1\"" | head -1 | cut -d: -f2- | tr -d '"}'; }
	local fr=$(get frames_presented) wall=$(get wall_s) ff=$(get first_frame_ms)
	say "$n: rc=$rc frames=$fr wall_s=$wall first_frame_ms=$ff fps=$(get fps) steady_fps=$(awk "BEGIN{printf \"%.0f\", ($fr-1)/($wall-$ff/1000)}") cpu_ms_per_frame=$(get cpu_ms_per_frame) cpu_bytes=$(get cpu_bytes_copied_per_frame) route=$(get hwdec_route) decoder=$(get decoder)"
	[ $rc = 0 ] || say "  $(head -c 300 "$L/$n.err")"
}

speed() {
	for clip in ${1//,/ }; do
		long=/tmp/long-$clip.mkv
		timeout -s KILL 60 "$B/ffmpeg" -v error -nostdin -stream_loop 4 -i "$C/$clip.mkv" -c copy -y "$long"
		hw=(-init_hw_device vulkan=vk -hwaccel vulkan -hwaccel_device vk -hwaccel_output_format vulkan)
		timeout -s KILL 30 "$B/ffmpeg" -hide_banner -nostdin -v verbose "${hw[@]}" -i "$C/$clip.mkv" -frames:v 1 -f null - 2>&1 |
			grep -i -m2 'dpb' | sed "s/^/$clip ffmpeg caps: /" | tee -a "$S"
		ffrun "$clip-ffmpeg-hw-x1" "$C/$clip.mkv" "${hw[@]}"
		ffrun "$clip-ffmpeg-hw-x5" "$long" "${hw[@]}"
		ffrun "$clip-ffmpeg-sw-x5" "$long"
		for route in inplace copy download; do
			yprun "$clip-ycbcrplay-$route-x5" "$long" -hwdec vulkan -hwdec-route $route
		done
		yprun "$clip-ycbcrplay-auto-x5" "$long" -hwdec vulkan -hwdec-route auto
		yprun "$clip-ycbcrplay-sw-x5" "$long" -hwdec no
		rm -f "$long"
	done
}

for s in "$@"; do
	case $s in
	diag) diag ;;
	pictures) pictures ;;
	pictures:*) pictures "${s#pictures:}" ;;
	decodehang) decodehang ;;
	decode) decode ;;
	speed:*) speed "${s#speed:}" ;;
	esac
done
cd "$OUT" && tar czf logs.tgz logs && rm -rf logs
