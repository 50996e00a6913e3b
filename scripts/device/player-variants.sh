#!/bin/bash
# Device run: what costs the player throughput against ffmpeg -f null, variants side by side in one
# run (3 interleaved rounds, 10 plays of each clip): the conversion chosen by measurement (auto), the
# drawn conversion, planes on 4 KiB instead of 64 KiB boundaries in the decoder's pool, GOGC=400, and
# the number of garbage collections (gctrace).
# Prepare here (.gpu/exp/bin.tar.xz holding bin/ycbcrplay, bin/ycbcrplay-a4k and bin/ffmpeg):
#   eval "$(scripts/build-ffmpeg.sh --env)"; mkdir -p .gpu/exp/bin
#   go build -tags nowindow -ldflags=-s -o .gpu/exp/bin/ ./cmd/ycbcrplay; cp "$YCBCRKIT_FFMPEG" .gpu/exp/bin/
#   (AVX_PLANE_ALIGN 4096 in internal/avx/avx.h) go build -tags nowindow -ldflags=-s -o .gpu/exp/bin/ycbcrplay-a4k ./cmd/ycbcrplay
#   (cd .gpu/exp && XZ_OPT=-9 tar -cJf bin.tar.xz bin); scripts/device/build.sh (for .gpu/clips and .gl)
# Run there with .gl, .gpu/exp and .gpu/clips carried: bash scripts/device/player-variants.sh
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
tar -C .gpu/exp -xJf .gpu/exp/bin.tar.xz
B=$PWD/.gpu/exp/bin
"$B/ycbcrplay" -list-devices >/dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
"$B/ycbcrplay" -list-devices
T=8
now() { date +%s.%N; }
for r in 1 2 3; do
 for clip in h264-1080p h264-2160p; do
  f=.gpu/clips/$clip.mkv
  t0=$(now); "$B/ffmpeg" -hide_banner -nostdin -nostats -threads $T -stream_loop 9 -i $f -f null - 2>/dev/null; t1=$(now)
  echo "$clip ffmpeg $(awk "BEGIN{print $t1-$t0}")"
  for v in auto draw a4k gogc400 gctrace; do
    bin=$B/ycbcrplay; args=(-headless -untimed -stats -threads $T -loop 10); env=()
    case $v in draw) args+=(-conversion draw);; a4k) bin=$B/ycbcrplay-a4k;; gogc400) env=(GOGC=400);; gctrace) env=(GODEBUG=gctrace=1);; esac
    t0=$(now); js=$(env "${env[@]}" "$bin" "${args[@]}" $f 2>/tmp/err); t1=$(now)
    gcs=$(grep -c '^gc ' /tmp/err)
    echo "$clip $v $(awk "BEGIN{print $t1-$t0}") gcs=$gcs $(echo "$js" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["frames_decoded"], round(s["wall_s"],3), round(s["decode_ms_per_frame"],3), round(s["gpu_ms_per_frame"],3), round(s["cpu_ms_per_frame"],2), s["first_frame_ms"], s.get("conversion"))')"
  done
 done
done
