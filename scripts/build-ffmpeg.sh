#!/usr/bin/env bash
# build-ffmpeg.sh: builds FFmpeg 7.1.5, dav1d, Mbed TLS and libsrt as static libraries (and the
# `ffmpeg` program, the reference decoder) from Debian's own source packages, into a prefix kept
# between runs.
#
#   scripts/build-ffmpeg.sh                  build if the prefix is missing or stale; print nothing else
#   scripts/build-ffmpeg.sh --prefix         print the prefix (the Makefile asks this)
#   scripts/build-ffmpeg.sh --env            print the variables a `go build` against it needs (eval them)
#   scripts/build-ffmpeg.sh --check-updates  ask apt whether Debian 13 published a newer FFmpeg 7.1.x
#                                            source (trixie, trixie-security) than the pinned one: exit
#                                            0 when the pin is the newest, 1 when a newer one is out
#                                            (docs/build.md: moving the pin), 2 when apt could not be asked
#   scripts/build-ffmpeg.sh --sources DIR PKG...  download Debian sources (ffmpeg: the pinned version)
#
# Idempotent: the prefix's name carries a hash of this file, so a changed version or configure line
# builds into a new prefix, and an unchanged one is reused. Sources come through apt from a private
# deb-src list for Debian 13 "trixie" (nothing else on the machine changes), checked against the
# Checksums-Sha256 of each .dsc. Needs: gcc, g++, make, cmake, nasm, meson, ninja, pkg-config, xz,
# bzip2, zlib1g-dev (scripts/install-deps.sh installs them). About 17 minutes of CPU, some 9 minutes
# on 2 idle cores (docs/build.md: the figures, by stage, and their commands).
set -euo pipefail
cd "$(dirname "$0")/.."

FFMPEG_VERSION=7:7.1.5-0+deb13u1      # Debian 13's FFmpeg 7.1 (go-astiav v0.39.0 is the last for 7.x)
VULKAN_LOADER_VERSION=1.4.309.0-1     # its source carries the Vulkan headers FFmpeg 7.1 needs (>= 1.3.277)
DAV1D_VERSION=1.5.1-1                 # software AV1; bookworm's libdav1d-dev has no static library
MBEDTLS_VERSION=3.6.6-0.1~deb13u1     # TLS for https; bookworm's libmbedtls-dev is 2.28
SRT_VERSION=1.5.4-1+deb13u1           # SRT (srt://), against the Mbed TLS above; bookworm's is 1.5.1
# srt_1.5.4.orig.tar.gz as its .dsc pins it, checked here too because that tarball may come from the
# sources folder instead of the mirror (below: some mirrors lack it).
SRT_ORIG_SHA256=d0a8b600fe1b4eaaf6277530e3cfc8f15b8ce4035f16af4a5eb5d4b123640cdd
# The upstream version (7.1.5): names the source folder and the prefix.
FFMPEG_UPSTREAM=${FFMPEG_VERSION#*:}
FFMPEG_UPSTREAM=${FFMPEG_UPSTREAM%%-*}

# Why each switch:
#  --enable-static --disable-shared --enable-pic  archives only, position-independent (Go links PIE)
#  --disable-autodetect  nothing from the build machine sneaks in (xlib, vaapi, libdrm...): the
#                        programs must run where only libc is; --enable-pthreads then comes back by
#                        hand (autodetect off drops it, and Vulkan and frame threads need it); iconv
#                        (subtitle character sets, -sub_charenc) is glibc's and stays
#  --enable-zlib         PNG, EXR, TIFF deflate, Matroska's zlib tracks...; linked from libz.a
#  --enable-vulkan + hwaccels  Vulkan Video decoding (H.264, HEVC, AV1); libvulkan is dlopened at run time
#  --enable-libdav1d     software AV1 (the native av1 decoder only works through a hwaccel)
#  --enable-libsrt       SRT live feeds (srt://, the libsrt protocol): libsrt from Debian's source,
#                        built below against the same Mbed TLS; it is MPL-2.0, which the LGPL-3.0
#                        build may include (NOTICE), and C++, so its libstdc++ is linked statically
#                        (srt.pc names libstdc++.a) and the programs still need only libc
#  --enable-mbedtls --enable-version3  https (and tls): Mbed TLS from Debian's source, linked
#                        statically, below. Mbed TLS is Apache-2.0, which FFmpeg accepts only under
#                        the (L)GPL version 3, so this build of FFmpeg is LGPL-3.0-or-later (NOTICE:
#                        why that rather than no https, and what it asks of whoever passes the
#                        programs on). As in
#                        FFmpeg's default, certificates are not verified unless -tls_verify 1 and a
#                        -ca_file are given (the library has no CA store of its own).
#  decoders, demuxers, parsers, bitstream filters: every one of FFmpeg's own (a player plays what
#                        FFmpeg can decode; ./configure --list-decoders). configure drops, for want
#                        of their library, those that need one this build does not link:
#                        - wrappers of codec libraries (lib*: libaom, libopenjpeg, libvpx...), all but
#                          libdav1d; FFmpeg's own decoders cover those formats, but JPEG XL:
#                        - JPEG XL: FFmpeg 7.1 decodes it only through libjxl, whose Debian source
#                          needs highway, brotli and lcms2 — a C++ build several times as long as this
#                          whole build, past its 10-minute budget. .jxl files demux and then end with
#                          "unsupported codec" (the jpegxl parser and demuxers are in)
#                        - platform decoders (cuvid, qsv, mediacodec, v4l2m2m, mmal, rkmpp,
#                          audiotoolbox, mediafoundation...): vendor APIs; Vulkan Video is this
#                          build's hardware decoding
#                        - dash and imf demuxers (libxml2), dvdvideo (libdvdnav, libdvdread),
#                          avisynth and vapoursynth (their runtimes)
#                        - bzip2 and LZMA: Matroska tracks with bzip2 compression and TIFF with LZMA
#                          compression fail to decode (libbz2 and liblzma are not linked; both rare)
#  hwaccels: Vulkan only (the others need VA-API, VDPAU, NVDEC, D3D, VideoToolbox...)
#  protocols: what a player opens: file, pipe, data (data: URIs), concat and concatf, subfile, http,
#                        https and tls, httpproxy, tcp, udp, rtp (and rtsp, a demuxer, over them),
#                        crypto (encrypted HLS), libsrt (srt://). Left out: ftp, gopher(s), icecast
#                        (a sender), mmsh and mmst (retired), rtmp and its kin, srtp, sctp, udplite,
#                        unix, fd, tee, md5, prompeg, ipfs/ipns gateways, hls (deprecated: the hls
#                        demuxer is the way), async and cache (the player buffers itself); the other
#                        lib* protocols need their libraries
#  filters, encoders, muxers: only what the programs and the tests use (--disable-* then the
#                        lists): swscale for layouts outside the table, swresample for sound,
#                        libavfilter with bwdif for deinterlacing
#  ffmpeg program        the reference decoder for tests and for the GPU machine: -f null, -f framemd5,
#                        the filters its graph inserts (scale, format, aresample...), its encoders,
#                        h264/hevc_metadata and the common muxers, with which tests retag clips (no
#                        re-encoding), ffv1 and png to make lossless clips where no other ffmpeg is;
#                        the subtitle encoders and muxers (ass, ssa, srt/subrip, webvtt, mov_text,
#                        dvdsub, dvbsub) with which the subtitle tests make their files. Clips of the
#                        other decoder families are made by Debian's /usr/bin/ffmpeg (theora, for
#                        one, has only libtheora's encoder)
#  indevs, outdevs       none: the player reads files and URLs, not capture devices
#  --disable-debug       12 MB of archives instead of 71 MB
#  optimisation          configure's own (-O3 for gcc), though its C is most of the build's time:
#                        --optflags=-O2 took FFmpeg's make from 779 to 586 s of CPU but decoded
#                        3.6 % slower in geometric mean (docs/build.md, scripts/bench-ffmpeg-builds.sh)
#  assembly              through scripts/nasm-once.sh (below): the same instructions and data, 4 to
#                        9 times less CPU than nasm alone
FFMPEG_CONFIGURE=(
	--enable-static --disable-shared --enable-pic --disable-debug --disable-doc
	--disable-autodetect --enable-pthreads --enable-zlib --enable-vulkan --enable-libdav1d
	--enable-mbedtls --enable-version3 --enable-libsrt
	--pkg-config-flags=--static
	--disable-programs --enable-ffmpeg
	--disable-encoders --disable-muxers --disable-filters --disable-protocols --disable-devices --disable-hwaccels
	--enable-swscale --enable-swresample --enable-avfilter
	--enable-protocol=file,pipe,data,concat,concatf,subfile,http,https,tls,httpproxy,tcp,udp,rtp,crypto,libsrt
	--enable-hwaccel=h264_vulkan,hevc_vulkan,av1_vulkan
	--enable-filter=buffer,buffersink,abuffer,abuffersink,format,aformat,null,anull,scale,aresample
	--enable-filter=bwdif,yadif,setpts,trim,atrim,hwdownload,hwupload,copy,fps
	--enable-encoder=rawvideo,wrapped_avframe,pcm_s16le,pcm_f32le,ffv1,png
	--enable-encoder=ass,ssa,srt,subrip,webvtt,mov_text,dvdsub,dvbsub
	--enable-muxer=null,framemd5,md5,framecrc,rawvideo,wav,pcm_s16le,pcm_f32le,matroska,mov,mp4,mpegts,h264,hevc,nut,ivf,yuv4mpegpipe,image2
	--enable-muxer=ass,srt,webvtt
)
# Mbed TLS: its three static libraries, built by its own Makefile (the release carries its generated
# sources, so neither cmake nor Python is needed), with the default configuration.
MBEDTLS_MAKE=(CFLAGS='-O2 -fPIC' lib)
# libsrt: a static, position-independent library with no programs, its encryption (SRT's passphrase)
# through Mbed TLS (its folders are given below, so CMake does not look for one on the machine).
SRT_CMAKE=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_LIBDIR=lib -DUSE_ENCLIB=mbedtls
	-DENABLE_SHARED=OFF -DENABLE_STATIC=ON -DENABLE_APPS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
	'-DSSL_LIBRARIES=mbedtls;mbedx509;mbedcrypto')
# dav1d: a static library with no programs.
DAV1D_MESON=(--default-library=static --buildtype=release -Denable_tools=false -Denable_tests=false -Denable_examples=false)
# RECIPE changes by hand when a build step below changes in a way that changes the result
# (2: the assembly goes through scripts/nasm-once.sh).
RECIPE=2
# Fixes to FFmpeg's source, applied in name order after unpacking; each file's header says why.
PATCHES=(scripts/ffmpeg-patches/*.patch)

# The prefix is named by a hash of everything that decides what is built, so an edit to a version,
# a switch or the recipe builds anew, and comments or the --env output do not.
stamp=$({ echo "$FFMPEG_VERSION $VULKAN_LOADER_VERSION $DAV1D_VERSION $MBEDTLS_VERSION $SRT_VERSION $RECIPE"
	declare -p FFMPEG_CONFIGURE DAV1D_MESON MBEDTLS_MAKE SRT_CMAKE
	cat "${PATCHES[@]}"; } |
	sha256sum | cut -c1-12)
CACHE=${YCBCRKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ycbcrkit}
PREFIX=$CACHE/ffmpeg-$FFMPEG_UPSTREAM-$stamp

# Debian's archive, through apt but with lists of our own (the machine's apt configuration stays as
# it is): deb-src lines for trixie and trixie-security on the mirrors the machine uses.
mirror() { # $1: the machine's Suites word to look for; $2: the fallback URI
	awk -v want="$1" '/^URIs:/{u=$2} /^Suites:/{for(i=2;i<=NF;i++) if($i ~ want) {print u; exit}}' \
		/etc/apt/sources.list.d/debian.sources 2>/dev/null | grep . || echo "$2"
}
aptdir() { # $1: the folder for apt's lists, cache and sources.list; sets o (apt's options)
	mkdir -p "$1/lists/partial" "$1/cache/archives/partial"
	printf 'deb-src %s trixie main\ndeb-src %s trixie-security main\n' \
		"$(mirror '^[a-z]+$' http://deb.debian.org/debian)" \
		"$(mirror -security http://deb.debian.org/debian-security)" >"$1/sources.list"
	o=(-oDir::Etc::SourceList="$1/sources.list" -oDir::Etc::SourceParts=/dev/null
		-oDir::State::Lists="$1/lists" -oDir::Cache="$1/cache" -oAPT::Sandbox::User=root)
}

# --check-updates: the newest 7.1.x the lists name against the pin, by dpkg's version order.
check_updates() {
	local tmp newest v
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ycbcrkit-aptcheck.XXXXXX")
	trap 'rm -rf "$tmp"' RETURN
	aptdir "$tmp"
	if ! apt-get "${o[@]}" update >"$tmp/log" 2>&1; then
		echo "error: build-ffmpeg: apt-get update of the trixie and trixie-security deb-src lists failed: $(tail -n 1 "$tmp/log")" >&2
		return 2
	fi
	if ! apt-cache "${o[@]}" showsrc ffmpeg >"$tmp/showsrc" 2>"$tmp/log"; then
		echo "error: build-ffmpeg: apt-cache showsrc ffmpeg failed: $(tail -n 1 "$tmp/log")" >&2
		return 2
	fi
	newest=$FFMPEG_VERSION
	for v in $(awk '$1 == "Version:" {print $2}' "$tmp/showsrc"); do
		case $v in *:7.1.*) ;; *) continue ;; esac # 7.1.x only: go-astiav v0.39.0 is for FFmpeg 7
		if dpkg --compare-versions "$v" gt "$newest"; then newest=$v; fi
	done
	if [ "$newest" = "$FFMPEG_VERSION" ]; then
		echo "build-ffmpeg: the pinned ffmpeg $FFMPEG_VERSION is the newest 7.1.x source in trixie and trixie-security"
		return 0
	fi
	echo "build-ffmpeg: Debian published ffmpeg $newest, newer than the pinned $FFMPEG_VERSION: move FFMPEG_VERSION in scripts/build-ffmpeg.sh (docs/build.md, \"Moving the FFmpeg pin\")"
	return 1
}

case "${1:-}" in
--prefix) echo "$PREFIX"; exit 0 ;;
--check-updates) check_updates; exit $? ;;
--sources) # DIR PKG[=VERSION]...: Debian's source packages into DIR, through the same deb-src lists
	# (scripts/device/build.sh nvdec: FFmpeg and nv-codec-headers for the GPU machine's own build).
	d=$(realpath -m "$2") && shift 2 && mkdir -p "$d" && aptdir "$d/.apt" && apt-get "${o[@]}" update -qq &&
		cd "$d" && apt-get "${o[@]}" source --download-only "${@/#ffmpeg/ffmpeg=$FFMPEG_VERSION}"; exit $? ;;
--env)
	# pkg-config --static pulls in dav1d's and zlib's link flags; the zlib folder holds only libz.a
	# so -lz resolves to the archive and the programs need no libz.so on the GPU machine.
	echo "export PKG_CONFIG='pkg-config --static'"
	echo "export PKG_CONFIG_PATH='$PREFIX/lib/pkgconfig'"
	# FFmpeg's include folder comes through pkg-config. The Vulkan headers FFmpeg was built with stay
	# out of CGO_CFLAGS: vulkan-go compiles against its own (older) headers, whose NVX types newer
	# ones removed; C code that needs them names the ycbcrkit-vulkan-headers pkg-config package.
	# libsrt and the C++ runtime it brings (libstdc++.a, libgcc_eh.a) stay inside what links them:
	# a shared library (capi's libycbcrkit.so) would otherwise export some 2,600 of their symbols,
	# which then stand in for a C++ host's own libstdc++ and unwinder.
	echo "export CGO_LDFLAGS='-L$PREFIX/zlib -Wl,--exclude-libs,libsrt.a:libstdc++.a:libgcc_eh.a'"
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

for t in gcc g++ make cmake nasm meson ninja pkg-config xz bzip2 git; do
	command -v "$t" >/dev/null || { echo "error: build-ffmpeg: $t missing (run scripts/install-deps.sh)" >&2; exit 1; }
done
[ -f /usr/lib/x86_64-linux-gnu/libz.a ] || { echo "error: build-ffmpeg: libz.a missing (zlib1g-dev)" >&2; exit 1; }

echo "build-ffmpeg: building FFmpeg $FFMPEG_UPSTREAM + dav1d + Mbed TLS + libsrt into $PREFIX (about 17 minutes of CPU: 9 minutes on 2 idle cores; once per machine)"
start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/ycbcrkit-ffmpeg.XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$work/build.log
fail() { echo "error: build-ffmpeg: $1 (last lines of $log follow)" >&2; tail -n 30 "$log" >&2; trap - EXIT; exit 1; }
# Each stage's CPU seconds (user + system of everything it ran) and wall seconds, from the shell's
# own count of its children: bash's `times`, run in this shell (a $(...) subshell has no children
# of its own to count), written to a file that awk reads.
cpu_now() { # sets cpu
	times >"$work/times"
	cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] }; printf "%.0f", n }' "$work/times")
}
stage_cpu=0 stage_wall=$start
stage() { # $1: the name of the stage that begins (none after the last)
	local w
	cpu_now; w=$(date +%s)
	if [ -n "${stage_name:-}" ]; then
		echo "build-ffmpeg: $stage_name: $((cpu - stage_cpu)) s CPU, $((w - stage_wall)) s wall"
	fi
	stage_name=${1:-} stage_cpu=$cpu stage_wall=$w
	if [ -n "$stage_name" ]; then echo "build-ffmpeg: $stage_name"; fi
}

# Sources: the deb-src lists of our own (aptdir).
stage "sources (apt, unpack, patches)"
mkdir -p "$work/src"
aptdir "$work/apt"
apt-get "${o[@]}" update >>"$log" 2>&1 || fail "apt-get update of the trixie deb-src lists"
(cd "$work/src" && apt-get "${o[@]}" source --download-only "ffmpeg=$FFMPEG_VERSION" \
	"vulkan-loader=$VULKAN_LOADER_VERSION" "dav1d=$DAV1D_VERSION" "mbedtls=$MBEDTLS_VERSION") >>"$log" 2>&1 ||
	fail "apt-get source (a pinned version that left the archive: docs/build.md, \"Moving the FFmpeg pin\")"
# srt: the same way, or, where the mirror lacks its files, its orig tarball from $CACHE/sources
# (docs/build.md, "libsrt": upstream's v1.5.4 tag through `git archive | gzip -n` gives its exact bytes).
srt_orig=srt_${SRT_VERSION%-*}.orig.tar.gz
if ! (cd "$work/src" && apt-get "${o[@]}" source --download-only "srt=$SRT_VERSION") >>"$log" 2>&1; then
	from=$CACHE/sources/$srt_orig
	[ -f "$from" ] || from=scripts/sources/$srt_orig # the repository's copy
	[ -f "$from" ] ||
		fail "apt-get source srt=$SRT_VERSION, and no $CACHE/sources/$srt_orig (docs/build.md, \"libsrt\")"
	rm -f "$work"/src/srt_*
	cp "$from" "$work/src/"
fi
echo "$SRT_ORIG_SHA256  $srt_orig" | (cd "$work/src" && sha256sum -c --quiet) >>"$log" 2>&1 || fail "checksum of $srt_orig"

# Each orig tarball against its .dsc (apt checks the .dsc's own signature chain through the Release file).
for dsc in "$work"/src/*.dsc; do
	awk '/^Checksums-Sha256:/{f=1; next} /^[^ ]/{f=0} f && NF==3 {print $1 "  " $3}' "$dsc" |
		grep 'orig\.tar' >"$work/sums"
	(cd "$work/src" && sha256sum -c --quiet "$work/sums") >>"$log" 2>&1 || fail "checksum of $(basename "$dsc")"
done

rm -rf "$PREFIX"
mkdir -p "$PREFIX/vulkan/include" "$PREFIX/zlib" "$PREFIX/lib/pkgconfig"
for t in "$work"/src/*.orig.tar.xz "$work"/src/*.orig.tar.bz2 "$work"/src/*.orig.tar.gz; do tar -xf "$t" -C "$work/src"; done
for p in "${PATCHES[@]}"; do
	(cd "$work/src/ffmpeg-$FFMPEG_UPSTREAM" && GIT_CEILING_DIRECTORIES="$work" git apply -p1 "$OLDPWD/$p") >>"$log" 2>&1 || fail "applying $p"
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
# dav1d's meson and FFmpeg's configure find `nasm` on PATH: scripts/nasm-once.sh, which preprocesses
# each assembly file once (nasm itself preprocesses again in every pass).
NASM_REAL=$(command -v nasm)
export NASM_REAL
mkdir -p "$work/bin" && ln -s "$PWD/scripts/nasm-once.sh" "$work/bin/nasm"
export PATH="$work/bin:$PATH"

stage dav1d
(cd "$work"/src/dav1d-*/ &&
	meson setup build --prefix="$PREFIX" --libdir=lib "${DAV1D_MESON[@]}" &&
	ninja -C build -j "$jobs" install) >>"$log" 2>&1 || fail "dav1d build"

stage "Mbed TLS"
(cd "$work"/src/mbedtls-*/ && make -j "$jobs" "${MBEDTLS_MAKE[@]}" &&
	cp library/libmbedtls.a library/libmbedx509.a library/libmbedcrypto.a "$PREFIX/lib/" &&
	mkdir -p "$PREFIX/include" && cp -r include/mbedtls include/psa "$PREFIX/include/") >>"$log" 2>&1 ||
	fail "Mbed TLS build"

stage libsrt
# srt.pc names libstdc++ and libgcc_s, which would link the shared ones into every program: it names
# their archives instead (-l:libstdc++.a, libgcc_eh), so the programs keep needing only libc.
(cd "$work"/src/srt-*/ &&
	cmake -S . -B build -DCMAKE_INSTALL_PREFIX="$PREFIX" "${SRT_CMAKE[@]}" \
		-DSSL_INCLUDE_DIRS="$PREFIX/include" -DSSL_LIBRARY_DIRS="$PREFIX/lib" &&
	make -C build -j "$jobs" install && rm -f "$PREFIX/bin/srt-ffplay" &&
	sed -i 's/-lstdc++/-l:libstdc++.a/; s/-lgcc_s/-lgcc_eh/g' "$PREFIX/lib/pkgconfig/srt.pc") >>"$log" 2>&1 ||
	fail "libsrt build"

stage "FFmpeg configure"
mkdir -p "$work/build" && cd "$work/build"
PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" "$work/src/ffmpeg-$FFMPEG_UPSTREAM/configure" --prefix="$PREFIX" "${FFMPEG_CONFIGURE[@]}" \
	--extra-cflags="-I$PREFIX/vulkan/include -I$PREFIX/include" --extra-ldflags="-L$PREFIX/zlib -L$PREFIX/lib" \
	>>"$log" 2>&1 || fail "FFmpeg configure"
grep -q '^CONFIG_LIBSRT_PROTOCOL=yes' ffbuild/config.mak || fail "FFmpeg configure left out the libsrt protocol"

stage "FFmpeg make -j$jobs"
make -j "$jobs" >>"$log" 2>&1 || fail "FFmpeg make"
stage "FFmpeg make install"
make install >>"$log" 2>&1 || fail "FFmpeg make install"
stage
touch "$PREFIX/.complete"
# Builds of earlier recipes: the three newest stay (other checkouts of the project, on branches older
# or newer than this one, may still link them); older ones go.
ls -1dt "$CACHE"/ffmpeg-*/ 2>/dev/null | tail -n +4 | while read -r old; do rm -rf "$old"; done
cpu_now
echo "build-ffmpeg: done in $(($(date +%s) - start)) s wall, $cpu s CPU: $PREFIX"
