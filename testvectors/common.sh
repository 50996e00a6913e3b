# common.sh: what testvectors/make.sh and testvectors/colour.sh share, sourced by both after
# setting `here` (the testvectors folder): `vectors_into DIR` makes DIR, goes there, checks for
# ffmpeg and ffprobe and prints ffmpeg's version; `ff` runs ffmpeg quietly, `bitexact` asks for
# output without encoder/muxer version strings, random Matroska UIDs or dates (same input, same bytes).
vectors_into() {
	mkdir -p "$1"
	cd "$1"
	command -v ffmpeg >/dev/null || { echo "error: ffmpeg not found" >&2; exit 1; }
	command -v ffprobe >/dev/null || { echo "error: ffprobe not found" >&2; exit 1; }
	ffver=$(ffmpeg -hide_banner -version | sed -n '1s/^ffmpeg version \([^ ]*\).*/\1/p')
	echo "ffmpeg $ffver"
}
ff=(ffmpeg -hide_banner -nostdin -loglevel error -y)
bitexact=(-fflags +bitexact -flags:v +bitexact -map_metadata -1 -threads 1)
