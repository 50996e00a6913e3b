#!/bin/bash
# Device run: GPU timings with ycbcrbench (conversion per path, upload, end to end, bandwidth
# references) on the GPU machine.
# Build first, here: CGO_ENABLED=1 go build -o .gpu/ ./cmd/ycbcrbench
# Then run on the GPU machine with .gl and .gpu carried: bash scripts/device/bench.sh
. scripts/device/setup.sh .gpu/ycbcrbench
start=$(date +%s)
.gpu/ycbcrbench -json -sizes 720p,1080p,2160p,4320p -formats yuv420p,nv12,p010le,yuv444p > $OUT/ycbcrbench.json 2> $OUT/ycbcrbench.err
echo "rc=$? wall $(( $(date +%s) - start )) s" | tee -a $OUT/gpu.txt
.gpu/ycbcrbench -render $OUT/ycbcrbench.json -wide > $OUT/ycbcrbench.txt 2>&1
cat $OUT/ycbcrbench.txt
