#!/usr/bin/env bash
# bench-player.sh: the player side by side with its peers on this machine, on the same H.264 files:
#   ffmpeg -f null (decode only), ycbcrplay -untimed -headless, ycbcrplay -untimed in a window
#   under Xvfb, and mpv --vo=gpu-next --gpu-api=vulkan on lavapipe under Xvfb.
# Runs are interleaved (each round runs every tool once), RUNS rounds; prints medians and ratios.
# Usage: scripts/bench-player.sh [RUNS]   (default 3). Needs `make build`; installs mpv if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
DIR=${BENCH_DIR:-/tmp/ycbcrkit-bench}
mkdir -p "$DIR"
command -v mpv >/dev/null || { echo "installing mpv"; ${SUDO:-$( [ "$(id -u)" -ne 0 ] && echo sudo )} apt-get install -y -qq --no-install-recommends mpv >/dev/null; }
for size in 1920x1080 3840x2160; do
  f="$DIR/testsrc2-$size.mkv"
  [ -f "$f" ] || ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=$size:rate=30:duration=10" \
    -c:v libx264 -preset fast -crf 23 -pix_fmt yuv420p -color_range tv -colorspace bt709 \
    -color_primaries bt709 -color_trc bt709 "$f"
done
lavapipe=$(bin/ycbcrplay -list-devices | sed -n 's/^[0-9]*: \(llvmpipe[^(]*([^)]*)\).*/\1/p' | head -1)
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
declare -A T RSS
run() { # name, command...: appends wall seconds and peak RSS (KB)
  local name=$1; shift
  local tmp; tmp=$(mktemp)
  /usr/bin/time -f "%e %M" -o "$tmp" "$@" >/dev/null 2>&1 || { echo "error: $name failed: $*" >&2; exit 1; }
  local out; out=$(tail -1 "$tmp"); rm -f "$tmp"
  T[$name]+="${out% *} "; RSS[$name]+="${out#* } "
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for size in 1920x1080 3840x2160; do
  f="$DIR/testsrc2-$size.mkv"
  frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$f")
  T=(); RSS=()
  for ((r = 1; r <= RUNS; r++)); do
    run ffmpeg ffmpeg -hide_banner -loglevel error -i "$f" -f null -
    run ycbcrplay-headless bin/ycbcrplay -untimed -headless "$f"
    run ycbcrplay-window xvfb-run -a -s "-screen 0 1920x1080x24" bin/ycbcrplay -untimed "$f"
    run mpv xvfb-run -a -s "-screen 0 1920x1080x24" mpv --vo=gpu-next --gpu-api=vulkan "--vulkan-device=$lavapipe" --untimed --no-audio --really-quiet "$f"
  done
  base=$(echo "${T[ffmpeg]}" | median)
  mpvt=$(echo "${T[mpv]}" | median)
  echo "== $size, $frames frames, $RUNS interleaved runs (median wall time)"
  printf "%-20s %8s %8s %12s %12s %10s\n" tool wall_s fps vs_ffmpeg vs_mpv_fps peak_rss_MB
  for k in ffmpeg ycbcrplay-headless ycbcrplay-window mpv; do
    t=$(echo "${T[$k]}" | median); m=$(echo "${RSS[$k]}" | median)
    awk -v k="$k" -v t="$t" -v b="$base" -v mp="$mpvt" -v n="$frames" -v m="$m" \
      'BEGIN {printf "%-20s %8.2f %8.1f %11.2fx %11.2fx %10.0f\n", k, t, n/t, t/b, mp/t, m/1024}'
  done
done
