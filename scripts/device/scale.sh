#!/bin/bash
# Device run (NOT run by this branch's author: the lead runs GPU jobs): what the scale pass costs at
# 2160p→1080p, against the conversion. ycbcrplay plays a 2160p clip headless and untimed twice per
# case: into a 3840x2160 target (the scale pass skipped) and into 1920x1080 (conversion at 2160p, then
# the scale pass); -stats gpu_ms_per_frame is the GPU time per frame (upload + conversion [+ scale]),
# so scale cost = scaled − unscaled, and the issue's bound is cost ≤ 10% of the unscaled figure.
# Build first, here: CGO_ENABLED=1 go build -o .gpu/ ./cmd/ycbcrplay, and make the clip here (the GPU
# machine may have no ffmpeg): ffmpeg -f lavfi -i testsrc2=size=3840x2160:rate=30 -frames:v 120 \
#   -pix_fmt yuv420p -c:v libx264 -preset ultrafast -qp 10 .gpu/clip2160.mkv
# Then run on the GPU machine with .gl and .gpu carried: bash scripts/device/scale.sh
. scripts/device/setup.sh .gpu/ycbcrplay
clip=.gpu/clip2160.mkv
[ -f "$clip" ] || { echo "no $clip: make it before the run (see above)" | tee -a $OUT/gpu.txt; exit 1; }
for conv in compute draw; do
  for filter in lanczos catmull-rom bilinear; do
    for geom in 3840x2160 1920x1080; do
      out=$OUT/scale-$conv-$filter-$geom.json
      .gpu/ycbcrplay -headless -untimed -no-audio -conversion $conv -scale $filter -geometry $geom -stats "$clip" > "$out" 2>>$OUT/gpu.txt
      echo "$conv $filter $geom rc=$? $(python3 -c "import json,sys;d=json.load(open('$out'));print(d['gpu_ms_per_frame'],'ms/frame |',d['scale'])" 2>&1)" | tee -a $OUT/scale.txt
    done
  done
done
python3 - "$OUT" <<'PY' | tee -a $OUT/scale.txt
import json, sys, glob
out = sys.argv[1]
for conv in ("compute", "draw"):
    for f in ("lanczos", "catmull-rom", "bilinear"):
        try:
            a = json.load(open(f"{out}/scale-{conv}-{f}-3840x2160.json"))["gpu_ms_per_frame"]
            b = json.load(open(f"{out}/scale-{conv}-{f}-1920x1080.json"))["gpu_ms_per_frame"]
            print(f"{conv} {f}: unscaled {a:.3f} ms, scaled {b:.3f} ms: scale pass {b-a:.3f} ms = {100*(b-a)/a:.1f}% (bound 10%)")
        except Exception as e:
            print(conv, f, "no figure:", e)
PY
