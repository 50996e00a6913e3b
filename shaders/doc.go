// Package shaders holds the GLSL sources and their SPIR-V, compiled by `go generate` (glslc, then
// spirv-val) and embedded. The test recompiles every source and fails when a committed .spv differs.
package shaders
