#!/bin/bash
# Device runs as data: scripts/device/runs.json lists each run (what it carries, what passes, its
# steps' commands) and scripts/device/run.py runs them, printing one summary table. Prepare here with
# scripts/device/build.sh SET...; there, from the checkout's root:
#   bash scripts/device/run.sh RUN...      OLD=DIR: A/B against an earlier build (build.sh old);
#                                          ROUNDS=N: N rounds of every measured step
#   bash scripts/device/run.sh -n RUN...   (here) the commands and the paths to carry, nothing run
# $OUT gets summary.txt (the table), runs.jsonl (every run of every step), gpu.txt and logs.tgz.
set -u
cd "$(dirname "$0")/../.."
[ "${1:-}" = -n ] && exec python3 scripts/device/run.py "$@"
export OUT=${OUT:?OUT: the folder whose files come back}
# The carried programs; the Vulkan loader, glvnd and the validation layer (without glvnd the loader
# finds NVIDIA's driver but cannot start it), pointed at NVIDIA's ICD where it does not find it.
for a in .gpu/*.tar.xz; do [ -e "$a" ] && tar -C .gpu -xJf "$a"; done
if [ -d .gl ]; then
	for f in .gl/*.deb; do dpkg -x "$f" /; done
	ldconfig
fi
lister=$(ls .gpu/nowindow/ycbcrcheck .gpu/nowindow/ycbcrplay 2>/dev/null | head -1)
nv=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -e $nv ] && ! timeout -s KILL 30 "${lister:-false}" -list-devices >/dev/null 2>&1; then export VK_DRIVER_FILES=$nv; fi
{
	timeout -s KILL 10 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
	[ -n "$lister" ] && timeout -s KILL 30 "$lister" -list-devices 2>&1
	echo "date: $(date -u +%FT%TZ) commit: $(git rev-parse --short HEAD 2>/dev/null)"
} >"$OUT/gpu.txt"
cat "$OUT/gpu.txt"
python3 scripts/device/run.py "$@" | tee "$OUT/summary.txt"
rc=${PIPESTATUS[0]}
# Screenshots stay there (1080p PNGs would make logs.tgz too large to come back).
cd "$OUT" && find logs -name '*.png' -delete && tar czf logs.tgz logs && rm -rf logs
exit "$rc"
