#!/bin/bash
# Device run 1: conformance of NVIDIA's Y′CbCr sampling (ycbcrcheck) and the demo at every siting.
# Build first, here: CGO_ENABLED=1 go build -o .gpu/ ./cmd/ycbcrcheck ./cmd/ycbcrdemo
# Then run on the GPU machine with .gl and .gpu carried: bash scripts/device/conformance.sh
. scripts/device/setup.sh .gpu/ycbcrcheck
start=$(date +%s.%N)
.gpu/ycbcrcheck -report $OUT/h100 > $OUT/check.txt 2> $OUT/check.err; echo "ycbcrcheck rc=$?" >> $OUT/check.txt
end=$(date +%s.%N); echo "wall $(echo "$end - $start" | bc 2>/dev/null || python3 -c "print($end-$start)") s" >> $OUT/check.txt
.gpu/ycbcrcheck -json > $OUT/check.json 2>/dev/null
.gpu/ycbcrcheck -size 34x18 > $OUT/check-34x18.txt 2>&1; echo "rc=$?" >> $OUT/check-34x18.txt
tail -40 $OUT/check.txt
for loc in left center topleft top bottomleft bottom; do
  for fmt in yuv420p nv12 p010le yuv422p; do
    echo "== $fmt $loc"; .gpu/ycbcrdemo -format $fmt -chroma-loc $loc -pattern probe -size 256x144 -o /tmp/d.png 2>&1 | grep -E "sampler|shader"
  done
done > $OUT/demo.txt 2>&1
.gpu/ycbcrdemo -format yuv420p -chroma-loc left -o $OUT/demo-left.png > /dev/null 2>&1
tar czf $OUT/h100-report.tgz -C $OUT h100 && rm -rf $OUT/h100
ls -la $OUT
