#!/usr/bin/env bash
# colour.sh — makes the colour-system test vectors in testvectors/colour/: YCgCo (limited and full
# range), BT.2020 constant luminance, PQ with mastering and content-light metadata, and HLG, each a
# tiny lossless file with its tags in the codec's VUI and the container, its reference picture made
# by zscale (zimg, independent of the project) and an entry in colour/manifest.json. See README.md
# ("Colour-system vectors").
#
# Like make.sh: reproducible (lavfi sources, no randomness, single-threaded bitexact encoders and
# muxers), made with ffmpeg 5.1.9-0+deb12u1 (Debian 12: libx264 164, libx265 3.5, zimg 3.0.4).
#
# Usage: testvectors/colour.sh    (from anywhere; rewrites testvectors/colour/, about 3 s)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$here/colour
. "$here/common.sh"
vectors_into "$out"

# The picture, in R′G′B′ (gbrp, 8 bits), the same in every frame: rows 0–7 a grey ramp (R′ = G′ = B′,
# where zimg's per-component HLG OOTF equals BT.2100's), the rest smooth colours of every hue. lo/hi
# bound every component (codes), so that constant luminance's R′ and B′ stay inside BT.2020 Table 4's
# ranges after 4:2:0 reconstruction (zimg takes negative values as 0, docs/ycbcr-math.md §12).
content() {
	local lo=$1 hi=$2
	local s="($hi-$lo)/255"
	echo "nullsrc=s=64x48:r=25,format=gbrp,geq=r='$lo+$s*if(lt(Y,8),X*4,128+120*sin(X/6+Y/9))':g='$lo+$s*if(lt(Y,8),X*4,128+120*sin(X/7-Y/5+2))':b='$lo+$s*if(lt(Y,8),X*4,128+120*sin(Y/4+X/11+4))'"
}

# The mastering display of the PQ vector: BT.2020 primaries and D65 in 0.00002 units, 0.005–4000
# cd/m² in 0.0001 units (x265 master-display, SMPTE ST 2086), MaxCLL 1000 and MaxFALL 400 cd/m².
pq_master="G(8500,39850)B(6550,2300)R(35400,14600)WP(15635,16450)L(40000000,50)"
pq_cll="1000,400"

x264=(-c:v libx264 -qp 0 -preset medium)
x265base="lossless=1:log-level=error:frame-threads=1:pools=none:info=0"

entries=()
table=()

# vector NAME FILE PIX MATRIX RANGE CHROMA PRIMARIES TRANSFER LO HI ZTO REF HDR -- ENCODER ARGS...
#   MATRIX..TRANSFER: the tags (FFmpeg's names). The R′G′B′ content is converted to Y′CbCr by zscale
#   with zimg's names in ZTO (matrix, range, chroma location, transfer, primaries); REF is the zscale
#   options that turn the decoded file back into the reference picture (16-bit RGB PNG), and the
#   manifest's "reference" says what it holds. HDR is the manifest's "hdr" object or "null".
vector() {
	local name=$1 file=$2 pix=$3 matrix=$4 range=$5 chroma=$6 prim=$7 trc=$8 lo=$9 hi=${10} zto=${11} ref=${12} refkind=${13} hdr=${14}
	shift 14
	[[ ${1-} == -- ]] && shift
	local enc=("$@")
	"${ff[@]}" -f lavfi -i "$(content "$lo" "$hi")" -frames:v 2 \
		-vf "zscale=matrixin=gbr:rangein=full:$zto:filter=bilinear,format=$pix" "${enc[@]}" \
		-colorspace "$matrix" -color_range "$range" -chroma_sample_location "$chroma" \
		-color_primaries "$prim" -color_trc "$trc" "${bitexact[@]}" "$file"
	local graph="zscale=$ref:filter=bilinear,format=gbrp16le,format=rgb48be"
	"${ff[@]}" -i "$file" -frames:v 1 -vf "$graph" -fflags +bitexact -flags +bitexact "$name.zscale.png"

	local got want codec
	got=$(ffprobe -v error -count_frames -select_streams v:0 -of default=noprint_wrappers=1:nokey=1 \
		-show_entries stream=codec_name,pix_fmt,width,height,nb_read_frames,color_space,color_range,chroma_location,color_primaries,color_transfer \
		"$file" | paste -sd' ')
	codec=${got%% *}
	want="$codec 64 48 $pix $range $matrix $trc $prim $chroma 2"
	if [[ $got != "$want" ]]; then
		echo "error: $file: ffprobe reports '$got', want '$want'" >&2
		exit 1
	fi
	if [[ $hdr != null ]]; then
		# The first frame carries the mastering display and content light level as side data.
		local sd
		sd=$(ffprobe -v error -read_intervals %+#1 -select_streams v:0 -show_frames -of default=noprint_wrappers=1 "$file" |
			grep -E '^(min_luminance|max_luminance|max_content|max_average)=' | paste -sd' ')
		if [[ $sd != "min_luminance=50/10000 max_luminance=40000000/10000 max_content=1000 max_average=400" ]]; then
			echo "error: $file: side data '$sd'" >&2
			exit 1
		fi
	fi
	table+=("$(printf '%-16s %-5s %-12s %-9s %-3s %-8s %-7s %-13s %6s' "$file" "$codec" "$pix" "$matrix" "$range" "$chroma" "$prim" "$trc" "$(stat -c %s "$file")")")
	entries+=("$(printf '    {"name": "%s", "file": "%s", "codec": "%s", "pix_fmt": "%s", "width": 64, "height": 48, "frames": 2, "frame_rate": "25/1",
      "matrix": "%s", "range": "%s", "chroma_location": "%s", "primaries": "%s", "transfer": "%s",
      "expected": {"matrix": "%s", "range": "%s", "chroma_location": "%s", "primaries": "%s", "transfer": "%s"},
      "hdr": %s,
      "png": "%s.zscale.png", "reference": "%s", "filter": "%s"}' \
		"$name" "$file" "$codec" "$pix" "$matrix" "$range" "$chroma" "$prim" "$trc" \
		"$matrix" "$range" "$chroma" "$prim" "$trc" "$hdr" "$name" "$refkind" "$graph")")
}

sdr709="transferin=709:transfer=709:primariesin=709:primaries=709"
vector ycgco_tv ycgco_tv.mkv yuv420p ycgco tv left bt709 bt709 0 255 \
	"matrix=ycgco:range=limited:chromal=left:transferin=709:transfer=709:primariesin=709:primaries=709" \
	"matrixin=ycgco:rangein=limited:chromalin=left:$sdr709:range=full" rgb null -- "${x264[@]}"
# H.264 decoders report left for 4:4:4 without chroma_loc_info (h2645_vui.c); set so that "as set"
# and "as read" agree. Siting has no effect on 4:4:4.
vector ycgco_pc ycgco_pc.mkv yuv444p10le ycgco pc left bt709 bt709 0 255 \
	"matrix=ycgco:range=full:chromal=left:transferin=709:transfer=709:primariesin=709:primaries=709" \
	"matrixin=ycgco:rangein=full:chromalin=left:$sdr709:range=full" rgb null -- "${x264[@]}"
vector bt2020cl bt2020cl.mkv yuv420p10le bt2020c tv topleft bt2020 bt2020-10 16 240 \
	"matrix=2020_cl:range=limited:chromal=topleft:transferin=2020_10:transfer=2020_10:primariesin=2020:primaries=2020" \
	"matrixin=2020_cl:rangein=limited:chromalin=topleft:transferin=2020_10:transfer=linear:primariesin=2020:primaries=2020:range=full" \
	linear-bt2020 null -- -c:v libx265 -x265-params "$x265base"
vector pq pq.mkv yuv420p10le bt2020nc tv topleft bt2020 smpte2084 0 255 \
	"matrix=2020_ncl:range=limited:chromal=topleft:transferin=smpte2084:transfer=smpte2084:primariesin=2020:primaries=2020" \
	"matrixin=2020_ncl:rangein=limited:chromalin=topleft:transferin=smpte2084:transfer=linear:primariesin=2020:primaries=709:npl=100:range=full" \
	linear-bt709-100 '{"min_luminance": 0.005, "max_luminance": 4000, "max_cll": 1000, "max_fall": 400}' \
	-- -c:v libx265 -x265-params "$x265base:master-display=$pq_master:max-cll=$pq_cll"
vector hlg hlg.mkv yuv420p10le bt2020nc tv topleft bt2020 arib-std-b67 0 255 \
	"matrix=2020_ncl:range=limited:chromal=topleft:transferin=arib-std-b67:transfer=arib-std-b67:primariesin=2020:primaries=2020" \
	"matrixin=2020_ncl:rangein=limited:chromalin=topleft:transferin=arib-std-b67:transfer=linear:primariesin=2020:primaries=709:npl=100:range=full" \
	linear-bt709-100 null -- -c:v libx265 -x265-params "$x265base"

{
	printf '{\n  "ffmpeg": "%s",\n  "made_by": "testvectors/colour.sh",\n  "vectors": [\n' "$ffver"
	for i in "${!entries[@]}"; do
		printf '%s' "${entries[$i]}"
		((i < ${#entries[@]} - 1)) && printf ','
		printf '\n'
	done
	printf '  ]\n}\n'
} >manifest.json

printf '%-16s %-5s %-12s %-9s %-3s %-8s %-7s %-13s %6s\n' file codec pix_fmt matrix rng chroma prim transfer bytes
printf '%s\n' "${table[@]}"
echo "total: $(du -cb -- *.mkv *.png | tail -1 | cut -f1) bytes in $out"
