#!/bin/bash
# Device run: what the scale pass costs at 2160p→1080p on the GPU machine (docs/scaling.md). ycbcrplay
# plays a 2160p clip headless and untimed into a 3840x2160 target (shown 1:1, no scale pass) and into
# 1920x1080 (the scale pass), for each conversion variant and filter, twice; -stats gpu_ms_per_frame
# is the GPU time per frame (upload + conversion + what follows). Then ycbcr's BenchmarkScalePass
# times the pass itself with GPU timestamps, 3840x2160 -> 1920x1080: the weight table and compute
# columns (now) against the per-sample kernel with the columns drawn (before), and both against the
# 2160p compute conversion (table/conv: the issue's bound is 0.10), and the table's pass in its two
# halves (table-comp-ms: the filtering in compute; draw-ms: the final fragment draw), and the pass
# written by compute straight into a storage target (into-ms, into/table), the player's choice where
# the target allows it; the player at 1920x1080 runs both ways (-scale-draw: the drawn last step).
# Prepare here (scripts/device/build.sh makes .gpu/clips and .gl):
#   mkdir -p .gpu/scale; eval "$(scripts/build-ffmpeg.sh --env)"
#   go build -tags nowindow -ldflags=-s -o .gpu/scale/ycbcrplay ./cmd/ycbcrplay && xz -9 .gpu/scale/ycbcrplay
#   go test -c -tags nowindow -ldflags=-s -o .gpu/scale/ycbcr.test ./ycbcr && xz -9 .gpu/scale/ycbcr.test
#   cp .gpu/clips/h264-2160p.mkv .gpu/scale/clip2160.mkv
# Then run there with .gl and .gpu/scale carried: bash scripts/device/scale.sh
set -u
xz -d .gpu/scale/ycbcrplay.xz .gpu/scale/ycbcr.test.xz; chmod +x .gpu/scale/ycbcrplay .gpu/scale/ycbcr.test
. scripts/device/setup.sh .gpu/scale/ycbcrplay >/dev/null
mkdir -p "$OUT/s"
for r in 1 2; do
	.gpu/scale/ycbcr.test -test.run '^$' -test.bench BenchmarkScalePass -test.benchtime 20x 2>&1 | grep -E 'Benchmark|conversion:|FAIL'
done
for r in 1 2; do
	for conv in compute draw; do
		for filter in lanczos catmull-rom bilinear; do
			for geom in 3840x2160 1920x1080 1920x1080:draw; do
				extra=""
				[ "${geom#*:}" = draw ] && extra=-scale-draw
				js=$(.gpu/scale/ycbcrplay -headless -untimed -no-audio -conversion $conv -scale $filter -geometry ${geom%:*} $extra -stats .gpu/scale/clip2160.mkv 2>>"$OUT/s/err.txt")
				echo "$r $conv $filter $geom $(echo "$js" | python3 -c "import json,sys;d=json.load(sys.stdin);print(round(d['gpu_ms_per_frame'],4), '|', d.get('scale'))")"
			done
		done
	done
done
