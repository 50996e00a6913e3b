#!/bin/bash
# Prepares, here, what scripts/device/hwdec.sh carries to the GPU machine: DIR/bin.tar.xz (the decode
# test binary and ycbcrplay built with -tags nowindow, the same build's ffmpeg), DIR/clips (testsrc2: H.264 and HEVC
# 1080p, HEVC 2160p 8- and 10-bit from scripts/device/build.sh's clips, and 1278x718 H.264/HEVC),
# DIR/run.sh. Usage: scripts/device/hwdec-build.sh /path/to/checkout/.gpu/hwdec
set -euo pipefail
cd "$(dirname "$0")/../.."
D=${1:?usage: hwdec-build.sh DIR}
eval "$(scripts/build-ffmpeg.sh --env)"
mkdir -p "$D/clips" "$D/bin"
go test -c -tags nowindow -ldflags=-s -o "$D/bin/decode.test" ./decode
go build -tags nowindow -ldflags=-s -o "$D/bin/ycbcrplay" ./cmd/ycbcrplay
cp "$YCBCRKIT_FFMPEG" "$D/bin/ffmpeg"
(cd "$D" && XZ_OPT=-9 tar -cJf bin.tar.xz bin && rm -rf bin)
cp scripts/device/hwdec.sh "$D/run.sh"
odd() { # name, encoder args...
	local f=$D/clips/$1.mkv; shift
	[ -s "$f" ] || ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i "testsrc2=size=1278x718:rate=60" -frames:v 60 \
		"$@" -pix_fmt yuv420p -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 -y "$f"
}
odd h264-odd -c:v libx264 -preset veryfast
odd hevc-odd -c:v libx265 -preset ultrafast -x265-params log-level=error
du -sh "$D"
