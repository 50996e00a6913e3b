#!/usr/bin/env bash
# build-ffmpeg.sh: builds FFmpeg 7.1.5 and dav1d as static libraries (and the `ffmpeg` program, the
# reference decoder) from Debian's own source packages, into a prefix kept between runs.
#
#   scripts/build-ffmpeg.sh            build if the prefix is missing or stale; print nothing else
#   scripts/build-ffmpeg.sh --prefix   print the prefix (the Makefile asks this)
#   scripts/build-ffmpeg.sh --env      print the variables a `go build` against it needs (eval them)
#
# Idempotent: the prefix's name carries a hash of this file, so a changed version or configure line
# builds into a new prefix, and an unchanged one is reused. Sources come through apt from a private
# deb-src list for Debian 13 "trixie" (nothing else on the machine changes), checked against the
# Checksums-Sha256 of each .dsc. Needs: gcc, make, nasm, meson, ninja, pkg-config, xz, zlib1g-dev
# (scripts/install-deps.sh installs them). Takes about 5 minutes on 2 cores; the result is ~15 MB.
set -euo pipefail
cd "$(dirname "$0")/.."

FFMPEG_VERSION=7:7.1.5-0+deb13u1      # Debian 13's FFmpeg 7.1 (go-astiav v0.39.0 is the last for 7.x)
VULKAN_LOADER_VERSION=1.4.309.0-1     # its source carries the Vulkan headers FFmpeg 7.1 needs (>= 1.3.277)
DAV1D_VERSION=1.5.1-1                 # software AV1; bookworm's libdav1d-dev has no static library

# Why each switch:
#  --enable-static --disable-shared --enable-pic  archives only, position-independent (Go links PIE)
#  --disable-autodetect  nothing from the build machine sneaks in (xlib, vaapi, libdrm...): the
#                        programs must run where only libc is; --enable-pthreads then comes back by
#                        hand (autodetect off drops it, and Vulkan and frame threads need it)
#  --enable-zlib         PNG decoding; linked from libz.a
#  --enable-vulkan + hwaccels  Vulkan Video decoding (H.264, HEVC, AV1); libvulkan is dlopened at run time
#  --enable-libdav1d     software AV1 (the native av1 decoder only works through a hwaccel)
#  --disable-everything then the list: a player's decoders, demuxers, parsers and bitstream filters,
#                        file/pipe/http/tcp; swscale for layouts outside the table, swresample for sound,
#                        libavfilter with bwdif for deinterlacing
#  ffmpeg program        the reference decoder for tests and for the GPU machine: -f null, -f framemd5,
#                        the filters its graph inserts (scale, format, aresample...), its encoders,
#                        h264/hevc_metadata and the common muxers, with which tests retag clips (no
#                        re-encoding), ffv1 and png to make lossless clips where no other ffmpeg is
#  --disable-debug       12 MB of archives instead of 71 MB
FFMPEG_CONFIGURE=(
	--enable-static --disable-shared --enable-pic --disable-debug --disable-doc
	--disable-autodetect --enable-pthreads --enable-zlib --enable-vulkan --enable-libdav1d
	--pkg-config-flags=--static
	--disable-everything --disable-programs --enable-ffmpeg
	--enable-swscale --enable-swresample --enable-avfilter
	--enable-decoder=h264,hevc,vp8,vp9,av1,libdav1d,mpeg1video,mpeg2video,mpeg4,prores,ffv1,rawvideo,mjpeg,png
	--enable-decoder=aac,mp3,mp3float,mp2,opus,vorbis,flac,ac3,eac3,'pcm_*'
	--enable-demuxer=mov,matroska,mpegts,mpegps,avi,ivf,nut,yuv4mpegpipe,rawvideo,h264,hevc,m4v,mpegvideo,obu,flv
	--enable-demuxer=image2,image2pipe,png_pipe,mjpeg,wav,mp3,ogg,flac,aac,ac3,eac3
	--enable-parser=h264,hevc,vp8,vp9,av1,mpegvideo,mpeg4video,mjpeg,png,aac,mpegaudio,opus,vorbis,flac,ac3
	--enable-bsf=h264_mp4toannexb,hevc_mp4toannexb,vp9_superframe_split,av1_frame_split,extract_extradata,null,h264_metadata,hevc_metadata
	--enable-protocol=file,pipe,http,tcp
	--enable-hwaccel=h264_vulkan,hevc_vulkan,av1_vulkan
	--enable-filter=buffer,buffersink,abuffer,abuffersink,format,aformat,null,anull,scale,aresample
	--enable-filter=bwdif,yadif,setpts,trim,atrim,hwdownload,hwupload,copy,fps
	--enable-encoder=rawvideo,wrapped_avframe,pcm_s16le,pcm_f32le,ffv1,png
	--enable-muxer=null,framemd5,md5,framecrc,rawvideo,wav,pcm_s16le,pcm_f32le,matroska,mov,mp4,mpegts,h264,hevc,nut,ivf,yuv4mpegpipe,image2
)
# dav1d: a static library with no programs.
DAV1D_MESON=(--default-library=static --buildtype=release -Denable_tools=false -Denable_tests=false -Denable_examples=false)
# RECIPE changes by hand when a build step below changes in a way that changes the result.
RECIPE=1
# Fixes to FFmpeg's source, applied in name order after unpacking; each file's header says why.
PATCHES=(scripts/ffmpeg-patches/*.patch)

# The prefix is named by a hash of everything that decides what is built, so an edit to a version,
# a switch or the recipe builds anew, and comments or the --env output do not.
stamp=$({ echo "$FFMPEG_VERSION $VULKAN_LOADER_VERSION $DAV1D_VERSION $RECIPE"; declare -p FFMPEG_CONFIGURE DAV1D_MESON
	cat "${PATCHES[@]}"; } |
	sha256sum | cut -c1-12)
CACHE=${YCBCRKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ycbcrkit}
PREFIX=$CACHE/ffmpeg-7.1.5-$stamp

case "${1:-}" in
--prefix) echo "$PREFIX"; exit 0 ;;
--env)
	# pkg-config --static pulls in dav1d's and zlib's link flags; the zlib folder holds only libz.a
	# so -lz resolves to the archive and the programs need no libz.so on the GPU machine.
	echo "export PKG_CONFIG='pkg-config --static'"
	echo "export PKG_CONFIG_PATH='$PREFIX/lib/pkgconfig'"
	# FFmpeg's include folder comes through pkg-config. The Vulkan headers FFmpeg was built with stay
	# out of CGO_CFLAGS: vulkan-go compiles against its own (older) headers, whose NVX types newer
	# ones removed; C code that needs them names the ycbcrkit-vulkan-headers pkg-config package.
	echo "export CGO_LDFLAGS='-L$PREFIX/zlib'"
	# The ffmpeg program of the same build: the reference decoder of the tests (framemd5).
	echo "export YCBCRKIT_FFMPEG='$PREFIX/bin/ffmpeg'"
	exit 0 ;;
"") ;;
*) echo "error: build-ffmpeg: unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
esac

if [ -f "$PREFIX/.complete" ]; then exit 0; fi
# One build at a time per cache (two `make test` in parallel, say): a second caller waits for the
# first and then finds its prefix complete.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
	echo "build-ffmpeg: another build is running; waiting for it" >&2
	flock 9
fi
if [ -f "$PREFIX/.complete" ]; then exit 0; fi

for t in gcc make nasm meson ninja pkg-config xz git; do
	command -v "$t" >/dev/null || { echo "error: build-ffmpeg: $t missing (run scripts/install-deps.sh)" >&2; exit 1; }
done
[ -f /usr/lib/x86_64-linux-gnu/libz.a ] || { echo "error: build-ffmpeg: libz.a missing (zlib1g-dev)" >&2; exit 1; }

echo "build-ffmpeg: building FFmpeg 7.1.5 + dav1d into $PREFIX (about 5 minutes on 2 cores; once per machine)"
start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/ycbcrkit-ffmpeg.XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$work/build.log
fail() { echo "error: build-ffmpeg: $1 (last lines of $log follow)" >&2; tail -n 30 "$log" >&2; trap - EXIT; exit 1; }

# Sources: a deb-src list of our own, so the machine's apt configuration stays as it is.
apt=$work/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$work/src"
uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$uri" ] || uri=http://deb.debian.org/debian
printf 'deb-src %s trixie main\n' "$uri" >"$apt/sources.list"
o=(-oDir::Etc::SourceList="$apt/sources.list" -oDir::Etc::SourceParts=/dev/null
	-oDir::State::Lists="$apt/lists" -oDir::Cache="$apt/cache" -oAPT::Sandbox::User=root)
apt-get "${o[@]}" update >>"$log" 2>&1 || fail "apt-get update of the trixie deb-src list"
(cd "$work/src" && apt-get "${o[@]}" source --download-only \
	"ffmpeg=$FFMPEG_VERSION" "vulkan-loader=$VULKAN_LOADER_VERSION" "dav1d=$DAV1D_VERSION") >>"$log" 2>&1 ||
	fail "apt-get source"

# Each orig tarball against its .dsc (apt checks the .dsc's own signature chain through the Release file).
for dsc in "$work"/src/*.dsc; do
	awk '/^Checksums-Sha256:/{f=1; next} /^[^ ]/{f=0} f && NF==3 {print $1 "  " $3}' "$dsc" |
		grep 'orig\.tar' >"$work/sums"
	(cd "$work/src" && sha256sum -c --quiet "$work/sums") >>"$log" 2>&1 || fail "checksum of $(basename "$dsc")"
done

rm -rf "$PREFIX"
mkdir -p "$PREFIX/vulkan/include" "$PREFIX/zlib" "$PREFIX/lib/pkgconfig"
for t in "$work"/src/*.orig.tar.xz; do tar -xJf "$t" -C "$work/src"; done
for p in "${PATCHES[@]}"; do
	(cd "$work"/src/ffmpeg-7.1.5 && GIT_CEILING_DIRECTORIES="$work" git apply -p1 "$OLDPWD/$p") >>"$log" 2>&1 || fail "applying $p"
done
cp -r "$work"/src/vulkan-loader-*/vulkan-headers/include/vulkan "$work"/src/vulkan-loader-*/vulkan-headers/include/vk_video "$PREFIX/vulkan/include/"
cat >"$PREFIX/lib/pkgconfig/ycbcrkit-vulkan-headers.pc" <<PC
Name: ycbcrkit-vulkan-headers
Description: the Vulkan headers FFmpeg was built with (from Debian's vulkan-loader $VULKAN_LOADER_VERSION source)
Version: ${VULKAN_LOADER_VERSION%-*}
Cflags: -I$PREFIX/vulkan/include
PC
cp /usr/lib/x86_64-linux-gnu/libz.a "$PREFIX/zlib/"
jobs=$(nproc)

echo "build-ffmpeg: dav1d"
(cd "$work"/src/dav1d-*/ &&
	meson setup build --prefix="$PREFIX" --libdir=lib "${DAV1D_MESON[@]}" &&
	ninja -C build -j "$jobs" install) >>"$log" 2>&1 || fail "dav1d build"

echo "build-ffmpeg: FFmpeg configure"
mkdir -p "$work/build" && cd "$work/build"
PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" "$work"/src/ffmpeg-7.1.5/configure --prefix="$PREFIX" "${FFMPEG_CONFIGURE[@]}" \
	--extra-cflags="-I$PREFIX/vulkan/include" --extra-ldflags="-L$PREFIX/zlib" \
	>>"$log" 2>&1 || fail "FFmpeg configure"

echo "build-ffmpeg: FFmpeg make -j$jobs"
make -j "$jobs" >>"$log" 2>&1 || fail "FFmpeg make"
make install >>"$log" 2>&1 || fail "FFmpeg make install"
touch "$PREFIX/.complete"
# Builds of earlier recipes are not used any more.
for old in "$CACHE"/ffmpeg-*; do [ "$old" = "$PREFIX" ] || rm -rf "$old"; done
echo "build-ffmpeg: done in $(($(date +%s) - start)) s: $PREFIX"
