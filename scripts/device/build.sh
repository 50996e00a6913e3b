#!/usr/bin/env bash
# Prepares, here, what scripts/device/run.sh carries to the GPU machine (no FFmpeg, no X server, no
# package manager there; a run carries 64 MiB in all, in at most 8 paths). Programs are built with
# -tags nowindow (FFmpeg linked in statically, no GLFW: ldd lists libc and libm only) and stripped;
# SYMBOLS=1 keeps the symbols (for the hang section's debugger).
#
# Usage: scripts/device/build.sh SET...      (no SET: gpu decode)
#   gpu       .gpu/gpu.tar.xz: ycbcrcheck, ycbcrbench, ycbcrdemo and the planes, ycbcr, stream and
#             ycbcrcube test binaries                     (sections tests, conformance, bench, scale)
#   decode    .gpu/decode.tar.xz: ycbcrplay, ycbcrcube, ycbcrwall, pngdiff, the same build's ffmpeg, the ycbcrplay,
#             videotex and gpu test binaries; .gpu/clips  (player, startup, scale, and every hwdec one)
#   hwdec     .gpu/hwdec.tar.xz: the decode test binary and pngdiff; .gpu/hwclips: the clips the
#             hardware-decoding sections use (needs decode's clips; HWDEC_4320=1 adds a 4320p HEVC
#             clip: 87 s of encoding on 2 cores, 5.4 MB)
#   variants  .gpu/variants.tar.xz: ycbcrplay with the decoder's planes on 4 KiB instead of 64 KiB
#             boundaries (AVX_PLANE_ALIGN=4096)           (section variants)
#   reliability  .gpu/relclips: H.264 and HEVC 4:2:0 at every chroma siting, AV1 (one clip declaring
#             512 tiles), and a clip of each decoder family the build enables (section reliability,
#             with decode's .gpu/decode.tar.xz)
# Every set also fetches .gl: the Vulkan loader, the GL vendor-neutral libraries and the validation
# layer for the GPU machine's architecture. Which paths each section carries: scripts/device/run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
sets=("$@")
[ ${#sets[@]} = 0 ] && sets=(gpu decode)
eval "$(scripts/build-ffmpeg.sh --env)"
[ -x "$YCBCRKIT_FFMPEG" ] || { echo "error: FFmpeg 7.1 is not built: run make deps" >&2; exit 1; }
strip=-ldflags=-s
[ "${SYMBOLS:-}" = 1 ] && strip=
export XZ_OPT=-9 # a third of the size
W=.gpu/nowindow  # what the archives unpack to on the GPU machine
mkdir -p .gpu/clips

tests() { # test binaries of packages into $W
	local p
	for p in "$@"; do go test -c -tags nowindow,ycbcrkit_faults $strip -o "$W/$(basename "$p").test" "./$p"; done
}
progs() { # programs into $W
	local p
	for p in "$@"; do go build -tags nowindow $strip -o "$W/" "./cmd/$p"; done
}
pack() { # archive, files in $W
	local a=$1
	shift
	(cd .gpu && tar -cJf "$a" "${@/#/nowindow/}")
	rm -rf "$W"
	echo "$(du -h ".gpu/$a")"
}
# Clips: testsrc2 at 60 fps, BT.709 limited, left-sited (made with Debian's ffmpeg, which has the
# encoders the static build leaves out). clip DIR NAME SIZE FRAMES encoder args...
clip() {
	local f=$1/$2.mkv size=$3 n=$4
	shift 4
	[ -s "$f" ] || ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i "testsrc2=size=$size:rate=60" \
		-frames:v "$n" "$@" -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 -y "$f"
}
x265=(-c:v libx265 -preset ultrafast -x265-params log-level=error)
x264=(-c:v libx264 -preset veryfast)

for set in "${sets[@]}"; do
	rm -rf "$W" && mkdir -p "$W"
	case $set in
	gpu)
		progs ycbcrcheck ycbcrbench ycbcrdemo
		tests planes ycbcr stream cmd/ycbcrcube
		pack gpu.tar.xz ycbcrcheck ycbcrbench ycbcrdemo planes.test ycbcr.test stream.test ycbcrcube.test
		;;
	decode)
		progs ycbcrplay ycbcrcube ycbcrwall
		cp "$YCBCRKIT_FFMPEG" "$W/ffmpeg"
		tests cmd/ycbcrplay videotex gpu
		go build $strip -o "$W/pngdiff" ./scripts/device/pngdiff # run.sh wall's tile check
		pack decode.tar.xz ycbcrplay ycbcrcube ycbcrwall ffmpeg ycbcrplay.test videotex.test gpu.test pngdiff
		# 300 frames at 1080p, 120 at 2160p (5 and 2 s): 18 MB, so that a run's programs, clips and
		# loader fit in what it carries.
		clip .gpu/clips h264-1080p 1920x1080 300 "${x264[@]}" -pix_fmt yuv420p
		clip .gpu/clips hevc-1080p 1920x1080 300 "${x265[@]}" -pix_fmt yuv420p
		clip .gpu/clips h264-2160p 3840x2160 120 "${x264[@]}" -pix_fmt yuv420p
		clip .gpu/clips hevc-2160p 3840x2160 120 "${x265[@]}" -pix_fmt yuv420p
		clip .gpu/clips hevc10-2160p 3840x2160 120 "${x265[@]}" -pix_fmt yuv420p10le
		;;
	hwdec)
		tests decode
		go build $strip -o "$W/pngdiff" ./scripts/device/pngdiff
		pack hwdec.tar.xz decode.test pngdiff
		H=.gpu/hwclips
		mkdir -p "$H"
		for c in h264-1080p hevc-1080p hevc-2160p hevc10-2160p; do
			[ -s .gpu/clips/$c.mkv ] || { echo "error: .gpu/clips/$c.mkv missing: build the decode set first" >&2; exit 1; }
			ln -f .gpu/clips/$c.mkv "$H/"
		done
		# 1278x718: coded 1280x720, so the decoder's image is larger than the picture (padding).
		clip "$H" h264-odd 1278x718 60 "${x264[@]}" -pix_fmt yuv420p
		clip "$H" hevc-odd 1278x718 60 "${x265[@]}" -pix_fmt yuv420p
		[ "${HWDEC_4320:-}" = 1 ] && clip "$H" hevc-4320p 7680x4320 60 "${x265[@]}" -pix_fmt yuv420p
		# *-sizes.ts: 60 frames of the 1080p clip, 60 of the 1278x718 one, 45 of the 1080p one again,
		# each an MPEG-TS segment, joined with cat (two mid-stream size changes).
		T=$(mktemp -d)
		for c in hevc h264; do
			[ -s "$H/$c-sizes.ts" ] && continue
			bsf=(-c copy -bsf:v ${c}_mp4toannexb -f mpegts)
			ffmpeg -v error -nostdin -y -i "$H/$c-1080p.mkv" -frames:v 60 "${bsf[@]}" "$T/a.ts"
			ffmpeg -v error -nostdin -y -i "$H/$c-odd.mkv" -frames:v 60 -output_ts_offset 1 "${bsf[@]}" "$T/b.ts"
			ffmpeg -v error -nostdin -y -i "$H/$c-1080p.mkv" -frames:v 45 -output_ts_offset 2 "${bsf[@]}" "$T/c.ts"
			cat "$T/a.ts" "$T/b.ts" "$T/c.ts" >"$H/$c-sizes.ts"
		done
		rm -rf "$T"
		du -sh "$H"
		;;
	reliability)
		RC=.gpu/relclips
		mkdir -p "$RC"
		rel() { # NAME.EXT output options...: 640x360 testsrc2, 10 frames at 30 fps
			local f=$RC/$1
			shift
			[ -s "$f" ] || ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i testsrc2=size=640x360:rate=30 \
				-frames:v 10 "$@" -y "$f"
		}
		for loc in left center topleft top bottomleft bottom; do
			rel "h264-$loc.mkv" "${x264[@]}" -pix_fmt yuv420p -chroma_sample_location $loc -colorspace bt709 -color_range tv
			rel "hevc-$loc.mkv" "${x265[@]}" -pix_fmt yuv420p -chroma_sample_location $loc -colorspace bt709 -color_range tv
		done
		rel av1.ivf -c:v libaom-av1 -cpu-used 8 -usage realtime
		# 2048x1024 in 32 x 16 tiles: more than FFmpeg's Vulkan AV1 hwaccel holds (MAX_TILES 256,
		# scripts/ffmpeg-patches/0003).
		[ -s "$RC/av1-512tiles.ivf" ] || ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i testsrc2=size=2048x1024:rate=30 \
			-frames:v 2 -c:v libaom-av1 -cpu-used 8 -usage realtime -tiles 32x16 -y "$RC/av1-512tiles.ivf"
		rel dnxhr.mov -c:v dnxhd -profile:v dnxhr_lb -pix_fmt yuv422p
		rel theora.ogv -c:v libtheora -q:v 8
		rel j2k.mkv -c:v jpeg2000 -pix_fmt yuv444p
		rel clip.gif -c:v gif
		rel clip.apng -c:v apng -f apng
		for e in dpx exr pam pcx pfm phm qoi sgi tif xbm; do
			case $e in exr | pfm | phm) pf=gbrpf32le ;; xbm) pf=monow ;; *) pf=rgb24 ;; esac
			rel clip.$e -frames:v 1 -pix_fmt $pf -update 1
		done
		du -sh "$RC"
		;;
	variants)
		CGO_CFLAGS="${CGO_CFLAGS:-} -DAVX_PLANE_ALIGN=4096" go build -tags nowindow $strip -o "$W/ycbcrplay-a4k" ./cmd/ycbcrplay
		pack variants.tar.xz ycbcrplay-a4k
		;;
	*)
		echo "error: unknown set $set (gpu, decode, hwdec, variants, reliability)" >&2
		exit 2
		;;
	esac
done
rm -rf "$W"

# Loader, glvnd and the validation layer, for the GPU machine's architecture (amd64).
if ! ls .gl/vulkan-validationlayers_*.deb >/dev/null 2>&1; then
	mkdir -p .gl /tmp/amd64/partial
	o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
	apt-get $o update -qq
	(cd .gl && apt-get $o download -qq libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 vulkan-validationlayers)
fi
du -sh .gpu/*.tar.xz .gpu/clips .gl
