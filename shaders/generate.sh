#!/usr/bin/env bash
# Writes bluenoise.glsl (the blue-noise dither matrix, bluenoise.go), then compiles every GLSL source
# here to SPIR-V with glslc and validates it with spirv-val.
# Run through `go generate ./shaders`; the .spv files are committed and embedded.
set -euo pipefail
cd "$(dirname "$0")"
go run bluenoise.go > bluenoise.glsl
for src in *.vert *.frag *.comp; do
  glslc --target-env=vulkan1.1 -O -o "$src.spv" "$src"
  spirv-val --target-env vulkan1.1 "$src.spv"
done
