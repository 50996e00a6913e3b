# Sourced, from the checkout's root on the GPU machine, by hwdec-final.sh and hwdec-seek.sh once they
# have set H (the carried folder): unpacks H/bin.tar.xz, sets up the Vulkan loader, layer and ICD
# (setup.sh, with the folder's ycbcrplay) and defines R (the root), B (the programs), C (the clips),
# L (the logs under $OUT), S (the summary), say (a line to the summary and stdout) and get (a field of
# a -stats JSON file).
R=$PWD
tar -C "$H" -xJf "$H/bin.tar.xz"
. scripts/device/setup.sh "$R/$H/bin/ycbcrplay" >/dev/null
B=$R/$H/bin C=$R/$H/clips L=$OUT/logs S=$OUT/summary.txt
mkdir -p "$L"
say() { echo "$*" | tee -a "$S"; }
say "gpu: $(timeout -s KILL 10 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1) date: $(date -u +%FT%TZ)"
get() { tr ',' '\n' <"$1" | grep "\"$2\"" | head -1 | cut -d: -f2- | tr -d '"}'; }
