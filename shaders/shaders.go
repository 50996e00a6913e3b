package shaders

import _ "embed"

//go:generate ./generate.sh

// FullscreenVert draws one triangle over the viewport and passes uv in 0..1.
//
//go:embed fullscreen.vert.spv
var FullscreenVert []byte

// SamplerFrag samples through a Y′CbCr conversion (immutable combined image sampler at binding 0).
//
//go:embed sampler.frag.spv
var SamplerFrag []byte

// ShaderFrag converts from up to three plain textures (bindings 0..2) with push-constant parameters.
//
//go:embed shader.frag.spv
var ShaderFrag []byte

// ShaderParamsSize is the size in bytes of shader.frag's push-constant block.
const ShaderParamsSize = 128

// ShaderSpecConstants is the number of shader.frag's specialization constants (constant_id 0..5:
// texture and component of Y, Cb and Cr; 6..25: the colour stage of colour.glsl; 26..27: dither.glsl).
const ShaderSpecConstants = 28

// DitherConstant is the constant_id of dither.glsl's DITHER (0 off, 1 blue noise, 2 ordered); the
// next is DITHER_BITS, the target's bits per component. Every shader that writes the picture into
// its target declares them: sampler.frag, shader.frag, sampler.comp, shader.comp, scale.frag,
// scale_target.comp and blit.frag.
const DitherConstant = 26

// SamplerParamsSize is the size in bytes of sampler.frag's push-constant block.
const SamplerParamsSize = 8

// SamplerCompParamsSize is the size in bytes of sampler.comp's push-constant block: sampler.frag's
// and the origin of a placed picture (place.glsl).
const SamplerCompParamsSize = 16

// PlaceConstant is the constant_id of place.glsl's PLACE_W (the next is PLACE_H): the size of a
// picture sampler.comp and shader.comp write at an origin of a larger target (0: into its own
// image). ComputeSpecConstants counts the compute conversions' constants with them.
const (
	PlaceConstant        = ShaderSpecConstants
	ComputeSpecConstants = ShaderSpecConstants + 2
)

// DiffFrag draws the amplified absolute difference of two RGBA textures (bindings 0 and 1).
//
//go:embed diff.frag.spv
var DiffFrag []byte

// DiffParamsSize is the size in bytes of diff.frag's push-constant block (the gain).
const DiffParamsSize = 4

// BlendFrag mixes two RGBA textures (bindings 0 and 1) by a weight: the player's frame blending.
//
//go:embed blend.frag.spv
var BlendFrag []byte

// BlendParamsSize is the size in bytes of blend.frag's push-constant block (the weight).
const BlendParamsSize = 4

// BlitFrag draws an RGBA texture (binding 0) over the viewport: a compute conversion's picture onto
// a render target. No push constants.
//
//go:embed blit.frag.spv
var BlitFrag []byte

// SamplerComp is the sampler path as a compute shader: immutable Y′CbCr sampler at binding 0, an
// rgba8 storage image at binding 1, SamplerFrag's push constants and a placed picture's origin
// (SamplerCompParamsSize), dither.glsl's and place.glsl's specialization constants.
//
//go:embed sampler.comp.spv
var SamplerComp []byte

// ShaderComp is the shader path as a compute shader: textures at bindings 0..2, an rgba8 storage
// image at binding 3, the same push constants and specialization constants as ShaderFrag (a placed
// picture's origin in the rows' w) and place.glsl's.
//
//go:embed shader.comp.spv
var ShaderComp []byte

// ComputeGroup is the compute shaders' workgroup size (local_size_x, local_size_y).
var ComputeGroup = [2]int{16, 8}

// ShiftComp shifts LSB-aligned 16-bit samples to the MSB from up to three storage buffers (bindings
// 0..2, the decoder's planes) into one (binding 3), padding each plane by repeating its edge.
//
//go:embed shift.comp.spv
var ShiftComp []byte

// ShiftParamsSize is the size in bytes of shift.comp's push-constant block.
const ShiftParamsSize = 40

// ShiftGroup is shift.comp's workgroup size (local_size_x); each invocation writes two samples.
const ShiftGroup = 64

// BufferComp is the shader path computed from the planes' own bytes: three storage buffers with the
// planes (bindings 0..2) and one for packed RGBA8 output (binding 3); push constants of
// BufferParamsSize bytes; specialization constants 0..BufferSpecConstants−1 describe the layout.
//
//go:embed buffer.comp.spv
var BufferComp []byte

// BufferParamsSize is the size in bytes of buffer.comp's push-constant block.
const BufferParamsSize = 128

// BufferSpecConstants is the number of buffer.comp's specialization constants.
const BufferSpecConstants = 14

// BufferGroup is buffer.comp's workgroup size (local_size_x); one invocation per output pixel.
const BufferGroup = 64

// FloorFrag writes a constant colour: the floor of a drawn conversion, for benchmarks.
//
//go:embed floor.frag.spv
var FloorFrag []byte

// FloorComp writes one constant word per pixel to binding 3 (push constant: the pixel count): the
// floor of BufferComp, for benchmarks. It fits BufferComp's pass (4 bindings, BufferParamsSize).
//
//go:embed floor.comp.spv
var FloorComp []byte

// ScaleComp is the scale pass's filtering along one axis (specialization constant 1: 0 the rows,
// 1 the columns): binding 0 (a combined image sampler read with texelFetch) resampled with the
// weight table (binding 1, a storage buffer) into an rgba32f storage image (binding 2), with push
// constants of ScaleCompParamsSize bytes; specialization constant 0 (DIRECT) evaluates the kernel
// per sample instead of the table. Its workgroup is ComputeGroup.
//
//go:embed scale.comp.spv
var ScaleComp []byte

// ScaleCompParamsSize is the size in bytes of scale.comp's push-constant block.
const ScaleCompParamsSize = 44

// ScaleFrag draws ScaleComp's output (binding 0) onto the target, turned for display, with push
// constants of ScaleFragParamsSize bytes; with DIRECT (specialization constant 0) binding 0 holds
// the rows only and it resamples the columns itself.
//
//go:embed scale.frag.spv
var ScaleFrag []byte

// ScaleFragParamsSize is the size in bytes of scale.frag's push-constant block.
const ScaleFragParamsSize = 44

// ScaleTargetComp is the scale pass's columns written turned into the target itself (binding 2,
// an rgba8 storage image: the letterbox too, in the clear colour), from the rows image (binding 0)
// with the weight table (binding 1): ScaleComp's columns and ScaleFrag's draw in one dispatch, for
// targets that allow storage writes. Push constants of ScaleTargetParamsSize bytes; its workgroup is
// ComputeGroup; the same descriptor set layout as ScaleComp.
//
//go:embed scale_target.comp.spv
var ScaleTargetComp []byte

// ScaleTargetParamsSize is the size in bytes of scale_target.comp's push-constant block.
const ScaleTargetParamsSize = 44

// OSDVert draws the on-screen display's quads: a storage buffer of quads at binding 1 (rect, uv,
// colour: 3 vec4 each), one instance per quad, 6 vertices; push constants: the target size (vec2).
//
//go:embed osd.vert.spv
var OSDVert []byte

// OSDFrag shades the on-screen display: the quad's colour with the atlas's R8 coverage (binding 0)
// as alpha.
//
//go:embed osd.frag.spv
var OSDFrag []byte

// OSDParamsSize is the size in bytes of osd.vert's push-constant block.
const OSDParamsSize = 8

// OSDQuadSize is the size in bytes of one quad in osd.vert's storage buffer.
const OSDQuadSize = 48

// PeakComp measures a PQ picture's peak and mean signal (HDR peak detection) from the shader path's
// textures (bindings 0..2, its push constants and specialization constants 0..25) into a storage
// buffer at binding 3 (PeakSlices copies of two words, peak: float bits; sum: fixed point, 1/256).
// Its workgroup is ComputeGroup; each invocation measures PeakRows points of the dispatched grid (ComputeGroup's
// width × PeakRows times its height per workgroup), which spans the picture.
//
//go:embed peak.comp.spv
var PeakComp []byte

// PeakRows is how many grid points each invocation of PeakComp measures, one above the other.
const PeakRows = 4

// PeakSlices is how many copies of its result PeakComp's storage buffer holds, PeakSliceSize bytes
// apart: the peak's float bits and the fixed-point sum at the start of each; the result is the
// largest peak and the sum of the sums.
const PeakSlices, PeakSliceSize = 32, 32

// DebandComp debands a converted picture (binding 0, a combined image sampler with linear
// filtering) into an rgba32f storage image of its size (binding 1), with push constants of
// DebandParamsSize bytes (iterations, samples, threshold, radius, grain). Its workgroup is ComputeGroup.
//
//go:embed deband.comp.spv
var DebandComp []byte

// DebandParamsSize is the size in bytes of deband.comp's push-constant block.
const DebandParamsSize = 20

// SubtitleVert draws the subtitle overlay's one quad (6 vertices) from push constants: its rect in
// target pixels (vec4), the target's size (vec2), the image's stride in pixels and the output mode
// (ints): SubtitleParamsSize bytes, read by both stages.
//
//go:embed subtitle.vert.spv
var SubtitleVert []byte

// SubtitleFrag shades the subtitle overlay from a storage buffer of premultiplied RGBA8 pixels
// (binding 0), into the output's colour space (SDR as is; HDR10: PQ at 203 cd/m² graphics white).
//
//go:embed subtitle.frag.spv
var SubtitleFrag []byte

// SubtitleParamsSize is the size in bytes of the subtitle shaders' push-constant block.
const SubtitleParamsSize = 32

// ICCFrag draws a picture (binding 0, fetched texel for pixel) through a 3D LUT in a storage buffer
// (binding 1: size³ vec4 entries, red fastest): the display's ICC profile.
//
//go:embed icc.frag.spv
var ICCFrag []byte

// ICCParamsSize is the size in bytes of icc.frag's push-constant block (the LUT's points per axis).
const ICCParamsSize = 4
