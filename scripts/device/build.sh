#!/usr/bin/env bash
# Prepares, here, what the decoding runs on the GPU machine carry (it has no FFmpeg, no X server and
# no package manager; 64 MiB travel in all):
#   .gpu/decode.tar.xz    what decodes, built with -tags nowindow (FFmpeg linked in statically, no
#                         GLFW: ldd lists libc and libm only): ycbcrplay, ycbcrcube, the same build's
#                         ffmpeg, and the ycbcrplay, videotex and gpu test binaries (scripts/device/player.sh,
#                         startup.sh)
#   .gpu/gpu.tar.xz       the rest: ycbcrcheck, ycbcrbench, ycbcrdemo, the planes, ycbcr, stream and ycbcrcube
#                         test binaries (scripts/device/tests.sh, bench.sh, conformance.sh)
#   .gpu/clips/           testsrc2 clips, H.264 and HEVC (8- and 10-bit), made with Debian's ffmpeg
#   .gl/                  the Vulkan loader, the GL vendor-neutral libraries, the validation layer
# Usage: scripts/device/build.sh   (then the scripts/device/*.sh runs name .gl and .gpu in carry)
set -euo pipefail
cd "$(dirname "$0")/../.."
make -s nowindow >/dev/null
eval "$(scripts/build-ffmpeg.sh --env)"
out=.gpu/nowindow
rm -rf "$out" && mkdir -p "$out"
cp bin/nowindow/* "$out/"
for pkg in ./videotex ./cmd/ycbcrplay ./cmd/ycbcrcube ./planes ./ycbcr ./stream ./gpu; do
	go test -c -tags nowindow -ldflags=-s -o "$out/$(basename "$pkg").test" "$pkg"
done
# Two archives, so that a run carries only what it uses (xz -9: a third of the size).
export XZ_OPT=-9
(cd .gpu && tar -cJf decode.tar.xz nowindow/{ycbcrplay,ycbcrcube,ffmpeg,ycbcrplay.test,videotex.test,gpu.test} &&
	tar -cJf gpu.tar.xz nowindow/{ycbcrcheck,ycbcrbench,ycbcrdemo,planes.test,ycbcr.test,stream.test,ycbcrcube.test})
rm -rf "$out"

# Clips: testsrc2 at 60 fps, 300 frames at 1080p and 120 at 2160p (5 and 2 s): 18 MB in all, so that
# the programs, the clips and the loader fit in the 64 MiB a run carries.
mkdir -p .gpu/clips
clip() { # name, size, frames, encoder args...
	local f=.gpu/clips/$1.mkv size=$2 n=$3; shift 3
	[ -s "$f" ] || ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i "testsrc2=size=$size:rate=60" \
		-frames:v "$n" "$@" -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 -y "$f"
}
clip h264-1080p 1920x1080 300 -c:v libx264 -preset veryfast -pix_fmt yuv420p
clip hevc-1080p 1920x1080 300 -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p
clip h264-2160p 3840x2160 120 -c:v libx264 -preset veryfast -pix_fmt yuv420p
clip hevc-2160p 3840x2160 120 -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p
clip hevc10-2160p 3840x2160 120 -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p10le

# Loader, glvnd and the validation layer, for the GPU machine's architecture (amd64).
if ! ls .gl/vulkan-validationlayers_*.deb >/dev/null 2>&1; then
	mkdir -p .gl /tmp/amd64/partial
	o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
	apt-get $o update -qq
	(cd .gl && apt-get $o download -qq libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 vulkan-validationlayers)
fi
du -sh .gpu/*.tar.xz .gpu/clips .gl
du -shc .gpu .gl | tail -1
