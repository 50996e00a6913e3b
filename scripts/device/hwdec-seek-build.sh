#!/bin/bash
# Prepares, here, what scripts/device/hwdec-seek.sh carries to the GPU machine: DIR/bin.tar.xz (the
# decode and cmd/ycbcrplay test binaries and ycbcrplay built with -tags nowindow, the same build's
# ffmpeg, pngdiff),
# DIR/clips (hevc/h264-1080p from SRC, the 60 fps testsrc2 clips of scripts/device/hwdec-build.sh,
# and *-sizes.ts: 60 frames of the 1080p clip, 60 of the 1278x718 one, 45 of the 1080p one again,
# each an MPEG-TS segment, joined with cat), DIR/run.sh.
# Usage: scripts/device/hwdec-seek-build.sh SRC DIR   (SRC: a directory with {hevc,h264}-{1080p,odd}.mkv,
# e.g. what scripts/device/hwdec-build.sh made)
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC=${1:?usage: hwdec-seek-build.sh SRC DIR} D=${2:?usage: hwdec-seek-build.sh SRC DIR}
eval "$(scripts/build-ffmpeg.sh --env)"
mkdir -p "$D/clips" "$D/bin"
go test -c -tags nowindow -ldflags=-s -o "$D/bin/decode.test" ./decode
go test -c -tags nowindow -ldflags=-s -o "$D/bin/ycbcrplay.test" ./cmd/ycbcrplay
go build -tags nowindow -ldflags=-s -o "$D/bin/ycbcrplay" ./cmd/ycbcrplay
go build -ldflags=-s -o "$D/bin/pngdiff" ./scripts/device/pngdiff
cp "$YCBCRKIT_FFMPEG" "$D/bin/ffmpeg"
(cd "$D" && XZ_OPT=-9 tar -cJf bin.tar.xz bin && rm -rf bin)
cp scripts/device/hwdec-seek.sh "$D/run.sh"
T=$(mktemp -d)
for c in hevc h264; do
	cp "$SRC/$c-1080p.mkv" "$D/clips/"
	bsf=${c}_mp4toannexb
	ffmpeg -v error -nostdin -y -i "$SRC/$c-1080p.mkv" -frames:v 60 -c copy -bsf:v $bsf -f mpegts "$T/a.ts"
	ffmpeg -v error -nostdin -y -i "$SRC/$c-odd.mkv" -frames:v 60 -c copy -bsf:v $bsf -output_ts_offset 1 -f mpegts "$T/b.ts"
	ffmpeg -v error -nostdin -y -i "$SRC/$c-1080p.mkv" -frames:v 45 -c copy -bsf:v $bsf -output_ts_offset 2 -f mpegts "$T/c.ts"
	cat "$T/a.ts" "$T/b.ts" "$T/c.ts" >"$D/clips/$c-sizes.ts"
done
rm -rf "$T"
du -sh "$D"
