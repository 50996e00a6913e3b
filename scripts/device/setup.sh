# Sourced by the scripts/device/*.sh runs on the GPU machine: unpacks the carried Vulkan loader, GL
# vendor-neutral libraries and validation layer (.gl), points the loader at NVIDIA's ICD when it does
# not find it by itself, and records the GPU in $OUT/gpu.txt. $1 is a carried program that can list
# devices (ycbcrbench or ycbcrcheck).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
if ! "$1" -list-devices >/dev/null 2>&1; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
"$1" -list-devices >> "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
