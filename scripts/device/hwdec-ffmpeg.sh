#!/bin/bash
# Device run: does the same build's ffmpeg CLI decode HEVC with -hwaccel vulkan, and with which thread
# counts (docs/hwdec.md, the HEVC stall)? And the toolkit's player with 1 and 8 threads on the same clip.
# Prepare here: scripts/device/hwdec-build.sh .gpu/hwdec. Run there with .gl and .gpu/hwdec carried:
#   bash scripts/device/hwdec-ffmpeg.sh .gpu/hwdec
set -u
H=${1:-.gpu/hwdec}
tar -C "$H" -xJf "$H/bin.tar.xz"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for clip in hevc-1080p hevc-odd h264-1080p; do
	for th in 1 2 8; do
		for out in vulkan sw; do
			a=(-init_hw_device vulkan=vk -hwaccel vulkan -hwaccel_device vk)
			[ $out = vulkan ] && a+=(-hwaccel_output_format vulkan)
			t0=$(date +%s.%N)
			timeout 40 "$H/bin/ffmpeg" -hide_banner -nostdin -benchmark -threads $th "${a[@]}" -i "$H/clips/$clip.mkv" -f null - >"$OUT/ff-$clip-$th-$out.txt" 2>&1
			rc=$?
			echo "ffmpeg $clip threads=$th out=$out rc=$rc wall=$(awk "BEGIN{print $(date +%s.%N)-$t0}") $(grep -o 'frame= *[0-9]*' "$OUT/ff-$clip-$th-$out.txt" | tail -1) $(grep -m1 -o 'bench: utime=[^ ]*' "$OUT/ff-$clip-$th-$out.txt")"
		done
	done
	for th in 1 8; do
		timeout 40 "$H/bin/ycbcrplay" -headless -untimed -stats -hwdec vulkan -threads $th "$H/clips/$clip.mkv" >"$OUT/yp-$clip-$th.txt" 2>&1
		echo "ycbcrplay $clip threads=$th rc=$? $(grep -o '"frames_presented":[0-9]*' "$OUT/yp-$clip-$th.txt")"
	done
done
cd "$OUT" && tar czf logs.tgz ff-* yp-* && rm -f ff-* yp-*
