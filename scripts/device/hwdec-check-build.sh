#!/bin/bash
# Prepares, here, what scripts/device/hwdec-check.sh needs on the GPU machine: DIR/bin.tar.xz
# (ycbcrplay and decode.test built with -tags nowindow, with symbols for cuda-gdb; the same build's
# ffmpeg; pngdiff), DIR/clips (the clips of scripts/device/hwdec-build.sh, copied from CLIPS) and
# DIR/run.sh. Usage: scripts/device/hwdec-check-build.sh DIR CLIPS
set -euo pipefail
cd "$(dirname "$0")/../.."
D=${1:?usage: hwdec-check-build.sh DIR CLIPS}
CL=${2:?usage: hwdec-check-build.sh DIR CLIPS}
eval "$(scripts/build-ffmpeg.sh --env)"
rm -rf "$D/bin"
mkdir -p "$D/clips" "$D/bin"
go test -c -tags nowindow -o "$D/bin/decode.test" ./decode
go build -tags nowindow -o "$D/bin/ycbcrplay" ./cmd/ycbcrplay
go build -o "$D/bin/pngdiff" ./scripts/device/pngdiff
cp "$YCBCRKIT_FFMPEG" "$D/bin/ffmpeg"
(cd "$D" && XZ_OPT=-6 tar -cJf bin.tar.xz bin && rm -rf bin)
for c in h264-1080p hevc-1080p hevc-2160p hevc10-2160p h264-odd hevc-odd; do cp "$CL/$c.mkv" "$D/clips/"; done
cp scripts/device/hwdec-check.sh "$D/run.sh"
du -sh "$D"
