#!/bin/bash
# Prepares, here, what scripts/device/videotex-hw.sh carries to the GPU machine (issue 19, engines):
# DIR/bin.tar.xz (the videotex test binary, -tags nowindow) and DIR/clips/hevc-1080p.mkv (copied from
# the hwdec clips of scripts/device/hwdec-build.sh).
# Usage: scripts/device/videotex-hw-build.sh /path/to/checkout/.gpu/videotex-hw [CLIPS]
#   CLIPS defaults to the checkout's .gpu/hwdec/clips.
set -euo pipefail
cd "$(dirname "$0")/../.."
D=${1:?usage: videotex-hw-build.sh DIR [CLIPS]}
C=${2:-$(git rev-parse --path-format=absolute --git-common-dir)/../.gpu/hwdec/clips}
eval "$(scripts/build-ffmpeg.sh --env)"
mkdir -p "$D/clips" "$D/bin"
go test -c -tags nowindow -ldflags=-s -o "$D/bin/videotex.test" ./videotex
(cd "$D" && XZ_OPT=-9 tar -cJf bin.tar.xz bin && rm -rf bin)
cp "$C/hevc-1080p.mkv" "$D/clips/"
cp scripts/device/videotex-hw.sh "$D/run.sh"
du -sh "$D"
