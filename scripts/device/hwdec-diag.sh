#!/bin/bash
# Diagnosis run (second H100 run of docs/hwdec.md): FFmpeg's own Vulkan decoding of HEVC 1080p, the decode
# test on HEVC 1080p alone with a 50 s limit (goroutine dump on timeout), ycbcrplay on H.264 and HEVC.
# Carry .gl and .gpu/hwdec (scripts/device/hwdec-build.sh .gpu/hwdec; .gpu/hwdec/c2 holds hevc-1080p.mkv).
set -u
H=.gpu/hwdec
tar -C "$H" -xJf "$H/bin.tar.xz"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
echo "== ffmpeg -hwaccel vulkan hevc-1080p (FFmpeg's own device)"
timeout 60 $H/bin/ffmpeg -hide_banner -nostdin -benchmark -init_hw_device vulkan=vk:0 -hwaccel vulkan -hwaccel_device vk -hwaccel_output_format vulkan -i $H/clips/hevc-1080p.mkv -f null - 2>&1 | tr '\r' '\n' | grep -E "frame=|bench|rror" | tail -4; echo "rc=${PIPESTATUS[0]}"
echo "== decode.test hevc-1080p, 60 s limit"
YCBCRKIT_HWDEC_CLIPS=$H/c2 timeout -s QUIT 60 $H/bin/decode.test -test.run 'HWDecClips' -test.v -test.timeout 50s >$OUT/diag.txt 2>&1; echo "rc=$?"
grep -E "hwclips|FAIL|PASS|panic" $OUT/diag.txt | cut -c1-300 | head
grep -n "goroutine .*\[" $OUT/diag.txt | head -20
grep -B2 -A14 "decode.(\*Decoder)" $OUT/diag.txt | head -60
echo "== ycbcrplay h264-1080p -hwdec vulkan / no"
for m in vulkan no; do timeout 60 $H/bin/ycbcrplay -headless -untimed -stats -hwdec $m -threads 8 $H/clips/h264-1080p.mkv 2>&1 | cut -c1-1500; echo "rc=$?"; done
echo "== ycbcrplay hevc-1080p -hwdec vulkan, 30 s"
timeout 30 $H/bin/ycbcrplay -headless -untimed -stats -hwdec vulkan -threads 8 $H/clips/hevc-1080p.mkv 2>&1 | cut -c1-1500; echo "rc=$?"
