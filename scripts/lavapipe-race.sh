#!/bin/bash
# lavapipe-race.sh SECONDS [TEST_BINARY]: repeats decode's tests that free FFmpeg's Vulkan frames on
# lavapipe under two CPU hogs and counts the processes that crash. Mesa before 25.1.7 can write
# into a timeline semaphore FFmpeg destroyed right after its wait returned (fixed upstream, MR
# 35921); scripts/ffmpeg-patches/0007 drains a CPU device's queues first. Builds decode's test
# binary against this tree's FFmpeg unless TEST_BINARY is given. Needs make deps.
set -u
cd "$(dirname "$0")/.."
secs=${1:?usage: lavapipe-race.sh SECONDS [TEST_BINARY]}
eval "$(scripts/build-ffmpeg.sh --env)"
bin=${2:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/decode.test
	go test -c -o "$bin" ./decode || exit 1
fi
cd decode
export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.json
yes >/dev/null & h1=$!
yes >/dev/null & h2=$!
trap 'kill $h1 $h2 2>/dev/null' EXIT
end=$((SECONDS + secs)) runs=0 crashed=0 failed=0
while [ $SECONDS -lt $end ]; do
	timeout -s KILL 120 "$bin" -test.count=20 -test.run \
		'TestVulkanContextsShareDevice|TestHWFramesHeld|TestFFmpegDeviceMemory|TestUploadFrame|TestTryLockTakesLockFrames|TestEpochCountsDestroyedImages' \
		>/dev/null 2>&1
	rc=$? runs=$((runs + 1))
	if [ $rc -ge 128 ]; then crashed=$((crashed + 1)); elif [ $rc -ne 0 ]; then failed=$((failed + 1)); fi
done
echo "$runs runs (20 passes of 6 tests each): $crashed crashed, $failed failed otherwise"
