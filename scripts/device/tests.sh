#!/bin/bash
# Device run: the planes and ycbcr test suites on the GPU machine, with the Khronos validation layer
# (its Debian package is carried in .gl with the loader), then ycbcrcheck and an LSB benchmark.
# Build first, here:
#   mkdir -p .gpu && CGO_ENABLED=1 go test -c -tags noffmpeg -o .gpu/planes.test ./planes
#   CGO_ENABLED=1 go test -c -tags noffmpeg -o .gpu/ycbcr.test ./ycbcr
#   CGO_ENABLED=1 go build -o .gpu/ ./cmd/ycbcrcheck ./cmd/ycbcrbench
#   (cd .gl && apt-get download vulkan-validationlayers)   # once, next to the loader debs
# Then run there with .gl and .gpu carried: bash scripts/device/tests.sh
# TestWorkedExample and TestAgainstZscale read files outside the repository; they run in CI.
. scripts/device/setup.sh .gpu/ycbcrcheck
(cd planes && ../.gpu/planes.test -test.v -test.count=1 > $OUT/planes.txt 2>&1; echo "planes rc=$?" >> $OUT/planes.txt)
(cd ycbcr && ../.gpu/ycbcr.test -test.v -test.count=1 -test.skip 'TestWorkedExample|TestAgainstZscale' > $OUT/ycbcr.txt 2>&1; echo "ycbcr rc=$?" >> $OUT/ycbcr.txt)
grep -E "^(--- |ok|FAIL|PASS|planes rc|ycbcr rc)|validation" $OUT/planes.txt $OUT/ycbcr.txt | grep -v "^.*--- PASS: .*/" | head -60
.gpu/ycbcrcheck > $OUT/check.txt 2>&1; echo "ycbcrcheck rc=$?" >> $OUT/check.txt
tail -30 $OUT/check.txt
.gpu/ycbcrbench -json -sizes 1080p,2160p,4320p -formats yuv420p10le,yuv420p > $OUT/bench-lsb.json 2> $OUT/bench-lsb.err
echo "bench rc=$?"
.gpu/ycbcrbench -render $OUT/bench-lsb.json > $OUT/bench-lsb.txt 2>&1
cat $OUT/bench-lsb.txt | head -60
