#!/bin/bash
# Device run: the planes, ycbcr and stream test suites on the GPU machine, with the Khronos validation
# layer (its Debian package is carried in .gl with the loader), then ycbcrcheck and an LSB benchmark.
# Prepare here: scripts/device/build.sh. Run there with .gl and .gpu/gpu.tar.xz carried:
#   bash scripts/device/tests.sh
# The tests that compare with zscale need Debian's ffmpeg with zimg (not on the GPU machine): they run
# in CI (TestAgainstZscale, TestColourSystemsAgainstZscale, TestToneMapping's zscale part, the scale
# pass against zscale and swscale).
tar -C .gpu -xJf .gpu/gpu.tar.xz
B=$PWD/.gpu/nowindow
. scripts/device/setup.sh "$B/ycbcrcheck"
for p in planes ycbcr stream; do
  (cd $p && "$B/$p.test" -test.v -test.count=1 -test.skip 'TestAgainstZscale|TestColourSystemsAgainstZscale|TestToneMapping|TestScaleZonePlate|TestScaleMatchesSwscale' > "$OUT/$p.txt" 2>&1; echo "$p rc=$?" >> "$OUT/$p.txt")
done
grep -hE "^(--- |ok|FAIL|PASS|planes rc|ycbcr rc|stream rc)|validation" "$OUT/planes.txt" "$OUT/ycbcr.txt" "$OUT/stream.txt" | grep -v "^.*--- PASS: .*/" | head -80
"$B/ycbcrcheck" > "$OUT/check.txt" 2>&1; echo "ycbcrcheck rc=$?" >> "$OUT/check.txt"
tail -5 "$OUT/check.txt"
