#!/bin/bash
# Device run (issue 19): hardware-decoded frames in place vs one GPU copy vs the old CPU download, in
# ycbcrplay, against the same build's ffmpeg -hwaccel vulkan (frames kept on the GPU), in one run;
# and pictures: the 30th frame drawn from hardware decoding (in place, GPU copy) and from software
# decoding, as screenshots to compare (within 1/255) after the run.
# Prepare here: scripts/device/hwdec-build.sh .gpu/hwdec (copy .gl and the clips from the main
# checkout's ignored folders first). Run there with .gl and .gpu/hwdec carried:
#   bash scripts/device/hwdec-route.sh .gpu/hwdec
# -validate is left off: the validation layer carried (1.3.239) predates VK_KHR_video_maintenance1's
# feature struct (docs/hwdec.md).
set -u
H=${1:-.gpu/hwdec}
tar -C "$H" -xJf "$H/bin.tar.xz"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for clip in hevc-1080p hevc-2160p hevc10-2160p h264-1080p; do
	c="$H/clips/$clip.mkv"
	timeout 60 "$H/bin/ffmpeg" -hide_banner -nostdin -benchmark -init_hw_device vulkan=vk -hwaccel vulkan \
		-hwaccel_device vk -hwaccel_output_format vulkan -i "$c" -f null - >"$OUT/ff-$clip.txt" 2>&1
	echo "ffmpeg $clip rc=$? $(grep -o 'frame= *[0-9]*' "$OUT/ff-$clip.txt" | tail -1) $(grep -m1 -o 'bench: utime=.*' "$OUT/ff-$clip.txt")"
	for route in inplace copy download; do
		timeout 60 "$H/bin/ycbcrplay" -headless -untimed -stats -hwdec vulkan -hwdec-route $route "$c" >"$OUT/yp-$clip-$route.txt" 2>&1
		echo "ycbcrplay $clip $route rc=$? $(tr ',' '\n' <"$OUT/yp-$clip-$route.txt" | grep -E '"(fps|frames_presented|cpu_ms_per_frame|cpu_bytes_copied_per_frame|hwdec_route|gpu_ms_per_frame|path)"' | tr '\n' ' ')"
	done
	for mode in "vulkan inplace" "vulkan copy" "no auto"; do
		set -- $mode
		timeout 60 "$H/bin/ycbcrplay" -headless -untimed -frames 30 -hwdec $1 -hwdec-route $2 -screenshot "$OUT/shot-$clip-$1-$2.png" "$c" >/dev/null 2>"$OUT/shot-$clip-$1-$2.txt"
		echo "screenshot $clip hwdec=$1 route=$2 rc=$?"
	done
done
cd "$OUT" && tar czf logs.tgz ff-* yp-* shot-* && rm -f ff-* yp-* shot-*
