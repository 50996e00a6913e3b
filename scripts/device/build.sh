#!/usr/bin/env bash
# Prepares, here, what the runs of scripts/device/runs.json carry to the GPU machine (no FFmpeg, no
# X server, no package manager there; 64 MiB in at most 8 paths). Programs are built with
# -tags nowindow (FFmpeg static, no GLFW: ldd lists libc and libm) and stripped; archives unpack
# into .gpu/ there (scripts/device/run.sh).
#
# Usage: scripts/device/build.sh SET...      (no SET: gpu decode)
#   gpu          .gpu/gpu.tar.xz: ycbcrcheck, ycbcrbench, ycbcrdemo, the planes, ycbcr, stream tests
#   decode       .gpu/decode.tar.xz: ycbcrplay, ycbcrcube, ycbcrwall, pngdiff, the same build's
#                ffmpeg, the ycbcrplay, videotex and gpu tests; .gpu/clips: 1080p and 2160p clips
#   hwdec        .gpu/hwdec.tar.xz: the decode tests; .gpu/hwclips (after decode): odd sizes, size changes
#   reliability  .gpu/relclips: every chroma siting in H.264 and HEVC, AV1 with 512 tiles, a clip of
#                each other decoder family
#   livewall     .gpu/clips/h264g-1080p.mkv, hevcg-1080p.mkv: 1080p60 with grain (H.264 10 Mb/s, HEVC 8 Mb/s)
#   nvdec        .gpu/nvdec: Debian's FFmpeg and nv-codec-headers sources, built there (run nvdec)
#   old          .gpu/old.tar.xz: ycbcrplay, ycbcrwall of OLD_REV (default HEAD~1), for OLD=.gpu/old
#   capi         .gpu/capi.tar.xz: libycbcrkit.so (lib/) and examples/engine-c, cc against it
#   wall         .gpu/wall.tar.xz: ycbcrwall, ffmpeg, the decode and videotex tests, libycbcrkit.so,
#                engine-c; .gpu/seekclips (after hwdec): the hardware seek tests' clips
#                (runs.json's live: one call for the wall, hardware seeks and the C example)
#   live         .gpu/live.tar.xz: the ycbcrwall tests and ffmpeg; .gpu/liveclips: their feeds
#   faults       .gpu/faults.tar.xz: the fault layer VK_LAYER_YCBCRKIT_faults (make layer) in layer/,
#                and the ycbcr/check tests (docs/conformance/faults.md)
# Every set also fetches .gl: the Vulkan loader, glvnd and the validation layer (amd64 debs).
set -euo pipefail
cd "$(dirname "$0")/../.."
sets=("$@")
[ ${#sets[@]} = 0 ] && sets=(gpu decode)
eval "$(scripts/build-ffmpeg.sh --env)"
[ -x "$YCBCRKIT_FFMPEG" ] || { echo "error: FFmpeg 7.1 is not built: run make deps" >&2; exit 1; }
export XZ_OPT=-9 # a third of the size
W=.gpu/nowindow  # what the archives unpack to on the GPU machine
mkdir -p .gpu/clips

tests() { # test binaries of packages into $W
	local p
	for p in "$@"; do go test -c -tags nowindow,ycbcrkit_faults -ldflags=-s -o "$W/$(basename "$p").test" "./$p"; done
}
progs() { # programs into $W
	local p
	for p in "$@"; do go build -tags nowindow -ldflags=-s -o "$W/" "./cmd/$p"; done
}
pack() { # ARCHIVE FILE...: files of $W into .gpu/ARCHIVE
	local a=$1
	shift
	(cd .gpu && tar -cJf "$a" "${@/#/nowindow/}")
	rm -rf "$W" && mkdir -p "$W"
	du -h ".gpu/$a"
}
# Clips: testsrc2 at 60 fps, BT.709 limited, left-sited, made with Debian's ffmpeg (which has the
# encoders the static build leaves out). clip DIR NAME SIZE FRAMES encoder args...
clip() {
	local f=$1/$2.mkv size=$3 n=$4
	shift 4
	[ -s "$f" ] || ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i "testsrc2=size=$size:rate=60" \
		-frames:v "$n" "$@" -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 -y "$f"
}
x265=(-c:v libx265 -preset ultrafast -x265-params log-level=error)
x264=(-c:v libx264 -preset veryfast)

rm -rf "$W" && mkdir -p "$W"
for set in "${sets[@]}"; do
	case $set in
	gpu)
		progs ycbcrcheck ycbcrbench ycbcrdemo
		tests planes ycbcr stream
		pack gpu.tar.xz ycbcrcheck ycbcrbench ycbcrdemo planes.test ycbcr.test stream.test
		;;
	decode)
		progs ycbcrplay ycbcrcube ycbcrwall
		cp "$YCBCRKIT_FFMPEG" "$W/ffmpeg"
		tests cmd/ycbcrplay videotex gpu
		go build -ldflags=-s -o "$W/pngdiff" ./scripts/device/pngdiff
		pack decode.tar.xz ycbcrplay ycbcrcube ycbcrwall ffmpeg ycbcrplay.test videotex.test gpu.test pngdiff
		# 300 frames at 1080p, 120 at 2160p (5 and 2 s): 18 MB.
		clip .gpu/clips h264-1080p 1920x1080 300 "${x264[@]}" -pix_fmt yuv420p
		clip .gpu/clips hevc-1080p 1920x1080 300 "${x265[@]}" -pix_fmt yuv420p
		clip .gpu/clips h264-2160p 3840x2160 120 "${x264[@]}" -pix_fmt yuv420p
		clip .gpu/clips hevc-2160p 3840x2160 120 "${x265[@]}" -pix_fmt yuv420p
		clip .gpu/clips hevc10-2160p 3840x2160 120 "${x265[@]}" -pix_fmt yuv420p10le
		;;
	hwdec)
		tests decode
		pack hwdec.tar.xz decode.test
		H=.gpu/hwclips
		mkdir -p "$H"
		for c in h264-1080p hevc-1080p hevc-2160p hevc10-2160p; do
			[ -s .gpu/clips/$c.mkv ] || { echo "error: .gpu/clips/$c.mkv missing: build the decode set first" >&2; exit 1; }
			ln -f .gpu/clips/$c.mkv "$H/"
		done
		# 1278x718: coded 1280x720, so the decoder's image is larger than the picture (padding).
		clip "$H" h264-odd 1278x718 60 "${x264[@]}" -pix_fmt yuv420p
		clip "$H" hevc-odd 1278x718 60 "${x265[@]}" -pix_fmt yuv420p
		# *-sizes.ts: 60 frames at 1080p, 60 at 1278x718, 45 at 1080p: two mid-stream size changes.
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
		# 32 x 16 tiles: more than FFmpeg's Vulkan AV1 hwaccel holds (scripts/ffmpeg-patches/0003).
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
		;;
	livewall) # 1080p60 clips with film-like grain for runs.json's livewall (5 s; looped there to 30 s)
		grain() { # NAME SOURCE encoder args...
			local f=.gpu/clips/$1-1080p.mkv src=$2
			shift 2
			[ -s "$f" ] || ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i "$src=size=1920x1080:rate=60,noise=alls=14:allf=t+u" \
				-frames:v 300 "$@" -pix_fmt yuv420p -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 -y "$f"
		}
		grain h264g testsrc2 "${x264[@]}" -b:v 10M -maxrate 12M -bufsize 20M
		grain hevcg mandelbrot -c:v libx265 -preset ultrafast -b:v 8M -x265-params log-level=error
		;;
	nvdec) # nv-codec-headers' Debian tarball may be missing: its .orig is all the build needs.
		scripts/build-ffmpeg.sh --sources .gpu/nvdec ffmpeg nv-codec-headers || true
		rm -rf .gpu/nvdec/.apt .gpu/nvdec/*.debian.tar.* .gpu/nvdec/*.dsc
		ls .gpu/nvdec/ffmpeg_*.orig.tar.* .gpu/nvdec/nv-codec-headers_*.orig.tar.*
		;;
	old)
		T=$(mktemp -d)
		git worktree add -q --detach "$T" "${OLD_REV:-HEAD~1}"
		# Against OLD_REV's own FFmpeg where it is built (its patches'), else this tree's: the A/B
		# is then of the Go code alone.
		env=$(cd "$T" && scripts/build-ffmpeg.sh --env)
		d=$(sed -n "s/^export YCBCRKIT_FFMPEG='\(.*\)\/bin\/ffmpeg'$/\1/p" <<<"$env")
		[ -d "$d/lib" ] || { env=$(scripts/build-ffmpeg.sh --env) && echo "old: ${OLD_REV:-HEAD~1}'s FFmpeg is not built; this tree's instead" >&2; }
		(cd "$T" && eval "$env" &&
			for p in ycbcrplay ycbcrwall; do go build -tags nowindow -ldflags=-s -o "$OLDPWD/.gpu/old/" ./cmd/$p; done)
		git worktree remove --force "$T"
		(cd .gpu && tar -cJf old.tar.xz old && rm -rf old)
		;;
	capi) # the C library (make lib's build, nowindow) and examples/engine-c built with cc against it
		mkdir -p "$W/lib"
		go build -tags nowindow -buildmode=c-shared -ldflags=-s -o "$W/lib/libycbcrkit.so" ./capi
		rm -f "$W/lib/libycbcrkit.h"
		cc -std=c11 -O2 -o "$W/engine-c" examples/engine-c/main.c examples/engine-c/png.c -Icapi -L"$W/lib" \
			-lycbcrkit -lvulkan -pthread -Wl,-rpath,'$ORIGIN/lib'
		pack capi.tar.xz lib/libycbcrkit.so engine-c
		;;
	live) # runs.json's livefeeds: the ycbcrwall tests, the same build's ffmpeg, their feeds' clips
		cp "$YCBCRKIT_FFMPEG" "$W/ffmpeg"
		tests cmd/ycbcrwall
		pack live.tar.xz ffmpeg ycbcrwall.test
		mkdir -p .gpu/liveclips
		ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i testsrc2=size=320x180:rate=30:duration=2 \
			"${x264[@]}" -g 15 -pix_fmt yuv420p -f mpegts .gpu/liveclips/first.ts
		ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i color=c=red:size=320x180:rate=30:duration=2 \
			"${x264[@]}" -g 15 -pix_fmt yuv420p -f mpegts .gpu/liveclips/second.ts
		;;
	wall) # runs.json's live: ycbcrwall, the same build's ffmpeg, the decode tests, the C example
		progs ycbcrwall
		cp "$YCBCRKIT_FFMPEG" "$W/ffmpeg"
		tests decode videotex
		mkdir -p "$W/lib"
		go build -tags nowindow -buildmode=c-shared -ldflags=-s -o "$W/lib/libycbcrkit.so" ./capi
		rm -f "$W/lib/libycbcrkit.h"
		cc -std=c11 -O2 -o "$W/engine-c" examples/engine-c/main.c examples/engine-c/png.c -Icapi -L"$W/lib" \
			-lycbcrkit -lvulkan -pthread -Wl,-rpath,'$ORIGIN/lib'
		pack wall.tar.xz ycbcrwall ffmpeg decode.test videotex.test lib/libycbcrkit.so engine-c
		# The seek and size-change tests' clips only (hwdec's whole set would not fit beside them).
		mkdir -p .gpu/seekclips
		for c in h264-1080p.mkv hevc-1080p.mkv h264-sizes.ts hevc-sizes.ts; do
			[ -s .gpu/hwclips/$c ] || { echo "error: .gpu/hwclips/$c missing: build the hwdec set first" >&2; exit 1; }
			ln -f .gpu/hwclips/$c .gpu/seekclips/
		done
		;;
	faults) # the fault layer (built here: it links only libc) and its manifests, ycbcr/check's tests
		make -s layer LAYER="$W/layer"
		tests ycbcr/check
		pack faults.tar.xz layer check.test
		;;
	*)
		echo "error: unknown set $set (gpu, decode, hwdec, reliability, livewall, nvdec, old, capi, wall, faults)" >&2
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
du -sh .gpu/* .gl
