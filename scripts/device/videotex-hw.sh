#!/bin/bash
# Device run (issue 19, engines): videotex.TestHWDecodeEngineDevice on the GPU machine. An engine
# creates its own Vulkan 1.3 instance and device from videotex.HWRequirements (decode queue family,
# video extensions, feature chain; VK_KHR_video_maintenance1 withheld under the carried 1.3.239
# validation layer), validation and synchronization validation on, and plays hevc-1080p through
# Vulkan Video decoding into the texture (GPU copy route); frames 0, 29 and 59 drawn by the engine are
# compared with the same frames decoded in software through the same texture (≤ 1 LSB). Also the
# lavapipe-side tests of the same file, here on the GPU (TestHWDecSoftwareReason is for a device
# without decoding and is not run).
# Prepare here: scripts/device/videotex-hw-build.sh .gpu/videotex-hw
# Run there with .gl and .gpu/videotex-hw carried: bash .gpu/videotex-hw/run.sh .gpu/videotex-hw
# Output ($OUT): gpu.txt, videotex-hw.txt (the test's -test.v log).
set -u
H=${1:-.gpu/videotex-hw}
tar -C "$H" -xJf "$H/bin.tar.xz"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
timeout -s KILL 30 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
R=$PWD
cd videotex # the test binary reads ../testvectors/media (the route test's vectors and zscale pictures)
YCBCRKIT_HWDEC_CLIPS=$R/$H/clips timeout -s KILL 300 "$R/$H/bin/videotex.test" \
	-test.run 'TestHWDecodeEngineDevice$|TestHWFramesRoute$' -test.v -test.count=1 >"$OUT/videotex-hw.txt" 2>&1
echo "videotex.test rc=$?"
grep -E '^(---|===|ok|FAIL|PASS)|hwdec_test' "$OUT/videotex-hw.txt" | cut -c1-400 | head -40
