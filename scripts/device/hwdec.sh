#!/bin/bash
# Device run for Vulkan Video decoding (docs/hwdec.md), on the GPU machine:
#   1. decode.test -test.run HWDec: the toolkit's device with the decode queue family (gpu.Options.Video),
#      FFmpeg's hwaccel on it; per clip: software decode, hardware decode alone (frames not downloaded),
#      and every 10th hardware frame downloaded and compared byte for byte with software's; validation
#      layer on (any message fails);
#   2. ycbcrplay -headless -untimed -stats -hwdec vulkan and -hwdec no on each clip (validation on);
#   3. the same build's ffmpeg: -hwaccel vulkan -hwaccel_output_format vulkan -f null - and software
#      -f null -, same thread count, for the decode rates beside the toolkit's.
# Prepare here: scripts/device/hwdec-build.sh DIR (DIR: a folder under the checkout's .gpu/, carried
# with .gl). Run there: bash DIR/run.sh DIR
# Output ($OUT): decode.txt (the test's log), decode.jsonl, player.jsonl, ffmpeg.jsonl, gpu.txt.
set -u
H=${1:-.gpu/hwdec}
tar -C "$H" -xJf "$H/bin.tar.xz"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
T=$(($(nproc) / 2))
YCBCRKIT_HWDEC_CLIPS=$H/clips YCBCRKIT_HWDEC_OUT=$OUT/decode.jsonl \
	"$H/bin/decode.test" -test.run 'HWDec' -test.v -test.count=1 >"$OUT/decode.txt" 2>&1
echo "decode.test rc=$?"
grep -E '^(---|===|ok|FAIL|PASS)|hw_test|hwclips' "$OUT/decode.txt" | cut -c1-400 | head -60
now() { date +%s.%N; }
for f in "$H"/clips/*.mkv; do
	clip=$(basename "$f" .mkv)
	for mode in vulkan no; do
		t0=$(now)
		js=$("$H/bin/ycbcrplay" -headless -untimed -stats -validate -hwdec $mode -threads "$T" "$f" 2>"$OUT/yp.err")
		rc=$?
		t1=$(now)
		echo "{\"clip\":\"$clip\",\"hwdec\":\"$mode\",\"rc\":$rc,\"process_wall_s\":$(awk "BEGIN{print $t1-$t0}"),\"stats\":${js:-null}}" >>"$OUT/player.jsonl"
		[ $rc = 0 ] || { echo "ycbcrplay $clip -hwdec $mode: rc=$rc"; head -c 2000 "$OUT/yp.err"; }
	done
done
rm -f "$OUT/yp.err"
for f in "$H"/clips/*.mkv; do
	clip=$(basename "$f" .mkv)
	for mode in vulkan software; do
		args=(-threads "$T")
		[ $mode = vulkan ] && args=(-init_hw_device vulkan=vk:0 -hwaccel vulkan -hwaccel_device vk -hwaccel_output_format vulkan)
		t0=$(now)
		"$H/bin/ffmpeg" -hide_banner -nostdin -benchmark "${args[@]}" -i "$f" -f null - 2>"$OUT/ff.err"
		rc=$?
		t1=$(now)
		frames=$(tr '\r' '\n' <"$OUT/ff.err" | sed -n 's/^frame= *\([0-9]*\).*/\1/p' | tail -1)
		ut=$(sed -n 's/.*utime=\([0-9.]*\)s.*/\1/p' "$OUT/ff.err"); st=$(sed -n 's/.*stime=\([0-9.]*\)s.*/\1/p' "$OUT/ff.err")
		rt=$(sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' "$OUT/ff.err")
		echo "{\"clip\":\"$clip\",\"mode\":\"$mode\",\"rc\":$rc,\"frames\":${frames:-0},\"process_wall_s\":$(awk "BEGIN{print $t1-$t0}"),\"rtime_s\":${rt:-0},\"cpu_s\":$(awk "BEGIN{print ${ut:-0}+${st:-0}}")}" | tee -a "$OUT/ffmpeg.jsonl"
		[ $rc = 0 ] || tail -5 "$OUT/ff.err"
	done
done
rm -f "$OUT/ff.err"
