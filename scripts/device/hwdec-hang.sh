#!/bin/bash
# Device run: where HEVC hardware decoding hangs (docs/hwdec.md). decode.test built here WITHOUT -ldflags=-s
# (symbols for the backtrace), xz-compressed, with one clip:
#   mkdir -p .gpu/hwdiag/c2 && cp .gpu/clips/hevc-1080p.mkv .gpu/hwdiag/c2/
#   eval "$(scripts/build-ffmpeg.sh --env)"; go test -c -tags nowindow -o .gpu/hwdiag/decode.test ./decode && xz -9 .gpu/hwdiag/decode.test
# Run there with .gl and .gpu/hwdiag carried: bash scripts/device/hwdec-hang.sh. After 25 s, cuda-gdb (the GPU
# machine's only debugger) attaches and prints every thread's stack.
set -u
D=.gpu/hwdiag
xz -d $D/decode.test.xz; chmod +x $D/decode.test
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
which cuda-gdb gdb 2>&1 | head -2
YCBCRKIT_HWDEC_CLIPS=$D/c2 $D/decode.test -test.run 'HWDecClips' -test.v -test.timeout 100s > $OUT/run.txt 2>&1 &
pid=$!
sleep 25
if kill -0 $pid 2>/dev/null; then
  echo "still running after 25 s: attaching"
  timeout 120 cuda-gdb -q -batch -p $pid -ex "set pagination off" -ex "thread apply all bt 12" > $OUT/bt.txt 2>&1
  grep -v "^\[New\|^$" $OUT/bt.txt | grep -E "^Thread|^#" | grep -v "runtime\.\|futex\|epoll\|nanosleep" | head -150
  kill -9 $pid
else
  echo "finished"; tail -20 $OUT/run.txt
fi
grep -E "hwclips|FAIL|PASS" $OUT/run.txt | cut -c1-300 | head
