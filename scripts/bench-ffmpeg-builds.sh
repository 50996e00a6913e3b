#!/usr/bin/env bash
# Decoding speed of two builds of the ffmpeg program side by side (say the prefix of an earlier
# build-ffmpeg.sh recipe against the current one): `ffmpeg -benchmark -threads T -i CLIP -f null -`
# on each clip, RUNS interleaved rounds (A then B in odd rounds, B then A in even ones), and per
# clip the median CPU seconds (user + system, as -benchmark reports them: less disturbed than wall
# time on a busy machine) of each build, their ratio B/A, and the geometric mean of the ratios.
# Usage: scripts/bench-ffmpeg-builds.sh [-r RUNS] [-t THREADS] [-s SECONDS] FFMPEG_A FFMPEG_B CLIP...
# RUNS defaults to 5, THREADS to 1 (one core's work: on a shared machine a second thread measures
# the neighbours). A first, untimed decode of each clip by A sets how often the clip is played in
# one run (-stream_loop) so that a run takes about SECONDS (default 2) of CPU.
set -euo pipefail
runs=5 threads=1 target=2
while getopts r:t:s: o; do
	case $o in
	r) runs=$OPTARG ;;
	t) threads=$OPTARG ;;
	s) target=$OPTARG ;;
	*) echo "error: usage: $0 [-r RUNS] [-t THREADS] [-s SECONDS] FFMPEG_A FFMPEG_B CLIP..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then echo "error: usage: $0 [-r RUNS] [-t THREADS] [-s SECONDS] FFMPEG_A FFMPEG_B CLIP..." >&2; exit 2; fi
a=$1 b=$2
shift 2
for f in "$a" "$b"; do [ -x "$f" ] || { echo "error: $f is not an executable" >&2; exit 2; }; done
declare -A loops
one() { # build label, binary, clip: one line "label clip cpu_s"
	local line
	line=$("$2" -hide_banner -nostdin -benchmark -threads "$threads" -stream_loop "${loops[$3]:-0}" -i "$3" -f null - 2>&1 | grep 'bench: utime') ||
		{ echo "error: $2 could not decode $3" >&2; exit 1; }
	# bench: utime=1.234s stime=0.012s rtime=1.300s
	echo "$1 $(basename "$3") $(echo "$line" | sed -E 's/.*utime=([0-9.]+)s stime=([0-9.]+)s.*/\1 \2/' | awk '{print $1 + $2}')"
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for clip in "$@"; do
	loops[$clip]=$(one A "$a" "$clip" | awk -v t="$target" '{p = int(t / ($3 + 0.001) + 0.5); print (p > 1 ? p - 1 : 0)}')
done
for ((r = 1; r <= runs; r++)); do
	echo "round $r/$runs" >&2
	for clip in "$@"; do
		if ((r % 2)); then one A "$a" "$clip"; one B "$b" "$clip"; else one B "$b" "$clip"; one A "$a" "$clip"; fi >>"$tmp"
	done
done
echo "A: $a"
echo "B: $b"
echo "$runs rounds, -threads $threads; CPU s = median of user + system of one run (the clip played 1 + -stream_loop times)"
awk '
function median(s,   n, v, i, j, t) { n = split(s, v, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
	return n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2 }
FNR == NR { lp[$1] = $2; next }
{ if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } c[$1, $2] = c[$1, $2] " " $3 }
END {
	printf "%-24s %5s %9s %9s %7s\n", "clip", "loop", "A CPU s", "B CPU s", "B/A"
	for (i = 1; i <= k; i++) { ma = median(c["A", order[i]]); mb = median(c["B", order[i]]); q = mb / ma; lg += log(q)
		if (q > worst) { worst = q; wc = order[i] }
		printf "%-24s %5d %9.3f %9.3f %7.3f\n", order[i], lp[order[i]], ma, mb, q }
	printf "geometric mean of B/A: %.3f; worst: %s %.3f\n", exp(lg / k), wc, worst }' <(for c in "$@"; do echo "$(basename "$c") ${loops[$c]}"; done) "$tmp"
