#!/bin/bash
# Device run: what the scale pass costs at 2160p→1080p on the GPU machine (docs/scaling.md). ycbcrplay
# plays a 2160p clip headless and untimed into a 3840x2160 target (shown 1:1, no scale pass) and into
# 1920x1080 (the scale pass), for each conversion variant and filter, twice; -stats gpu_ms_per_frame
# is the GPU time per frame (upload + conversion + what follows).
# Prepare here (scripts/device/build.sh makes .gpu/clips and .gl):
#   mkdir -p .gpu/scale; eval "$(scripts/build-ffmpeg.sh --env)"
#   go build -tags nowindow -ldflags=-s -o .gpu/scale/ycbcrplay ./cmd/ycbcrplay && xz -9 .gpu/scale/ycbcrplay
#   cp .gpu/clips/h264-2160p.mkv .gpu/scale/clip2160.mkv
# Then run there with .gl and .gpu/scale carried: bash scripts/device/scale.sh
set -u
xz -d .gpu/scale/ycbcrplay.xz; chmod +x .gpu/scale/ycbcrplay
. scripts/device/setup.sh .gpu/scale/ycbcrplay >/dev/null
mkdir -p "$OUT/s"
for r in 1 2; do
	for conv in compute draw; do
		for filter in lanczos catmull-rom bilinear; do
			for geom in 3840x2160 1920x1080; do
				js=$(.gpu/scale/ycbcrplay -headless -untimed -no-audio -conversion $conv -scale $filter -geometry $geom -stats .gpu/scale/clip2160.mkv 2>>"$OUT/s/err.txt")
				echo "$r $conv $filter $geom $(echo "$js" | python3 -c "import json,sys;d=json.load(sys.stdin);print(round(d['gpu_ms_per_frame'],4), '|', d.get('scale'))")"
			done
		done
	done
done
