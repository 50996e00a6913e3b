#!/usr/bin/env bash
# badinputs.sh — writes a corpus of broken, hostile and unusual inputs into DIR, made from the
# committed vectors in testvectors/media/ and from ffmpeg's lavfi sources. Nothing it writes is
# committed: cmd/ycbcrplay's TestRobustCorpus runs it into a temporary directory and plays every file.
#
# Reproducible: "random" bytes and bit flips come from perl's srand/rand with fixed seeds (perl ships
# its own drand48, so the bytes are the same on every platform); ffmpeg-made files are single-threaded
# and bitexact (same ffmpeg, same bytes). Takes about 2 s.
#
# File names say what each case is; the prefix says what a player should do with it:
#   play_*   decodable (perhaps after conversion, perhaps partly): play it, exit 0
#   fail_*   nothing decodable or unsupported: one "error: ..." line, non-zero exit
#   any_*    damaged: play what survives or fail cleanly, either is right
#
# Usage: testvectors/badinputs.sh DIR
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
media=$here/media
mkdir -p "$1"
out=$(cd "$1" && pwd)
command -v ffmpeg >/dev/null || { echo "error: ffmpeg not found" >&2; exit 1; }
command -v perl >/dev/null || { echo "error: perl not found" >&2; exit 1; }

ff=(ffmpeg -hide_banner -nostdin -loglevel error -y)
bitexact=(-fflags +bitexact -flags:v +bitexact -map_metadata -1 -threads 1)
# lavfi sources are bounded with d= (an unbounded source next to an attached picture never ends).
src() { echo "testsrc2=s=$1:r=25:d=$2"; }

# --- Damaged copies of every committed vector -------------------------------------------------------
# Truncated at 10 %, 50 % and 90 % of its bytes: the header may be cut (10 % of a small file) or a
# frame in the middle.
# Bit flips: 24 single-bit flips at seeded positions in the middle third (headers stay intact, so the
# damage reaches the decoder rather than the probe).
seed=1
for f in "$media"/*.mkv "$media"/*.nut "$media"/*.y4m; do
	base=$(basename "$f")
	size=$(stat -c %s "$f")
	for pct in 10 50 90; do
		head -c $((size * pct / 100)) "$f" >"$out/any_trunc${pct}_$base"
	done
	perl -e '
		my ($in, $outp, $seed) = @ARGV;
		open(my $fh, "<:raw", $in) or die; local $/; my $b = <$fh>; close $fh;
		srand($seed);
		my $n = length $b; my $lo = int($n / 3); my $span = int($n / 3) || 1;
		for (1 .. 24) {
			my $i = $lo + int(rand($span)); my $bit = int(rand(8));
			substr($b, $i, 1) = chr(ord(substr($b, $i, 1)) ^ (1 << $bit));
		}
		open(my $o, ">:raw", $outp) or die; print $o $b; close $o;
	' "$f" "$out/any_flip_$base" "$seed"
	seed=$((seed + 1))
done

# --- Not video at all -------------------------------------------------------------------------------
: >"$out/fail_empty.mkv"
printf 'this is not a video\njust a text file with a video extension\n' >"$out/fail_text.mp4"
# 64 KiB of noise, under two extensions (the extension steers nothing in FFmpeg's probe, but names
# the case).
perl -e 'srand(7); binmode STDOUT; print pack("C*", map { int(rand(256)) } 1 .. 65536)' >"$out/any_noise.mkv"
perl -e 'srand(8); binmode STDOUT; print pack("C*", map { int(rand(256)) } 1 .. 16384)' >"$out/any_noise.ts"
# A valid Matroska header followed by noise instead of clusters.
{ head -c 600 "$media/default.mkv"; perl -e 'srand(9); binmode STDOUT; print pack("C*", map { int(rand(256)) } 1 .. 32768)'; } >"$out/any_header_then_noise.mkv"

# --- Headers that lie -------------------------------------------------------------------------------
# y4m headers are plain text, so every claim is easy to make. A little data follows each.
y4m() { # NAME HEADER BYTES
	{ printf '%s\nFRAME\n' "$2"; head -c "$3" /dev/zero | tr '\0' '\200'; } >"$out/$1"
}
y4m fail_absurd_100000x100000.y4m 'YUV4MPEG2 W100000 H100000 F25:1 C420' 4096
# Within the decoder's 16384 limit but 384 MiB a frame, and only 4 KiB of it present.
y4m any_huge_16384x16384_short.y4m 'YUV4MPEG2 W16384 H16384 F25:1 C420' 4096
y4m fail_zero_size.y4m 'YUV4MPEG2 W0 H0 F25:1 C420' 4096
y4m fail_negative_size.y4m 'YUV4MPEG2 W-64 H48 F25:1 C420' 4096
y4m fail_bad_colorspace.y4m 'YUV4MPEG2 W64 H48 F25:1 C999' 4608
y4m any_zero_rate.y4m 'YUV4MPEG2 W64 H48 F0:0 C420' 4608
# Legal but extreme sizes: 1×1 4:2:0 (chroma 1×1), 8192×2 (aspect 4096:1), 2×4096 (1:2048),
# 16384×16; two whole frames each (frame = W·H + 2·⌈W/2⌉·⌈H/2⌉ bytes).
tinyframe() { printf 'FRAME\n'; head -c "$1" /dev/zero | tr '\0' '\200'; }
{ printf 'YUV4MPEG2 W1 H1 F25:1 C420jpeg\n'; tinyframe 3; tinyframe 3; } >"$out/play_1x1.y4m"
{ printf 'YUV4MPEG2 W8192 H2 F25:1 C420jpeg\n'; tinyframe 24576; tinyframe 24576; } >"$out/play_8192x2.y4m"
{ printf 'YUV4MPEG2 W2 H4096 F25:1 C420jpeg\n'; tinyframe 12288; tinyframe 12288; } >"$out/play_2x4096.y4m"
# The widest picture the decoder accepts (16384, Vulkan's common maxImageDimension2D).
{ printf 'YUV4MPEG2 W16384 H16 F25:1 C420jpeg\n'; tinyframe 393216; tinyframe 393216; } >"$out/play_16384x16.y4m"

# --- Formats ----------------------------------------------------------------------------------------
# Pixel formats outside the toolkit's table: yuv411p, pal8 and rgb48le are converted with swscale;
# rgb4 (4-bit packed RGB, a bitstream format) is one swscale can write but not read: truly unsupported.
for pf in yuv411p pal8 rgb48le; do
	"${ff[@]}" -f lavfi -i "$(src 64x48 0.12)" -pix_fmt "$pf" -c:v rawvideo "${bitexact[@]}" "$out/play_$pf.nut"
done
"${ff[@]}" -f lavfi -i "$(src 64x48 0.12)" -pix_fmt rgb4 -c:v rawvideo "${bitexact[@]}" "$out/fail_rgb4.nut"
# A codec FFmpeg has no decoder for: the Matroska codec ID renamed, same length, so the file stays valid.
perl -e '
	my ($in, $outp) = @ARGV;
	open(my $fh, "<:raw", $in) or die; local $/; my $b = <$fh>; close $fh;
	(my $n = ($b =~ s{V_MPEG4/ISO/AVC}{V_YCBCRKIT/NONE})) == 1 or die "codec id not found once\n";
	open(my $o, ">:raw", $outp) or die; print $o $b; close $o;
' "$media/bt709.mkv" "$out/fail_unknown_codec.mkv"

# Size and pixel format change mid-stream: H.264 elementary streams (64×48 4:2:0, 96×64 4:2:0,
# 64×48 4:4:4) and MPEG-TS segments (64×48 4:2:0 then 96×64 4:4:4), concatenated. The decoder meets a
# new SPS and hands out frames of the new size and layout.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for seg in "64x48 yuv420p" "96x64 yuv420p" "64x48 yuv444p"; do
	set -- $seg
	"${ff[@]}" -f lavfi -i "$(src "$1" 0.12)" -pix_fmt "$2" -c:v libx264 -qp 10 -bf 0 "${bitexact[@]}" "$tmp/$i.h264"
	i=$((i + 1))
done
cat "$tmp"/0.h264 "$tmp"/1.h264 "$tmp"/2.h264 >"$out/play_change_size_format.h264"
for seg in "64x48 yuv420p" "96x64 yuv444p"; do
	set -- $seg
	"${ff[@]}" -f lavfi -i "$(src "$1" 0.2)" -pix_fmt "$2" -c:v libx264 -qp 10 -bf 0 -g 5 "${bitexact[@]}" "$tmp/$1.ts"
done
cat "$tmp/64x48.ts" "$tmp/96x64.ts" >"$out/play_change_size_format.ts"

# No colour metadata anywhere: x264 without VUI colour description in Matroska without a Colour
# element (everything is left to formats.Resolve's defaults).
"${ff[@]}" -f lavfi -i "$(src 64x48 0.2)" -pix_fmt yuv420p -c:v libx264 -qp 10 "${bitexact[@]}" "$out/play_no_color_metadata.mkv"

# No video: audio only, and audio whose only picture is cover art (an attached picture: one frame).
"${ff[@]}" -f lavfi -i "sine=frequency=440:duration=0.5" "${bitexact[@]}" "$out/fail_audio_only.wav"
"${ff[@]}" -f lavfi -i "sine=frequency=440:duration=0.5" -c:a flac "${bitexact[@]}" "$out/fail_audio_only.mka"
"${ff[@]}" -f lavfi -i "sine=frequency=440:duration=0.5" -f lavfi -i "testsrc=s=32x32:d=0.04" \
	-map 0 -map 1 -c:a flac -c:v png -disposition:v attached_pic "${bitexact[@]}" "$out/play_audio_with_cover.mka"

n=$(find "$out" -maxdepth 1 -type f | wc -l)
echo "badinputs: $n files in $out"
