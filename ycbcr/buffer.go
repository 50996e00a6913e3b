package ycbcr

import (
	"fmt"
	"math"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// The buffer variant of the shader path (shaders/buffer.comp) converts from the planes' bytes as the
// decoder laid them out, bound as storage buffers — for example the decoder's own memory imported
// with planes.Importer — into packed RGBA8 words in a buffer. No image, sampler or upload is
// involved. It computes what the shader path computes (bilinear chroma at the sited position in
// fp32, range expansion, matrix), one output pixel per invocation at the picture's size.
//
// Why: on a CPU renderer (lavapipe) texture sampling is most of a conversion's cost, and "device"
// memory is host memory, so reading the decoder's planes where they lie with plain loads is the
// cheapest conversion there is (docs/performance.md has the figures).

// BufferParams is buffer.comp's push-constant block.
type BufferParams struct {
	Rows    [3][4]float32 // xyz: matrix rows; w: range offset of Y, Cb, Cr
	Scale   [4]float32    // xyz: code → range-expanded value for Y, Cb, Cr
	Chroma  [4]float32    // chroma sample coordinate of luma pixel (x, y): (x, y)·xy + zw
	Offsets [4]uint32     // xyz: byte offset of each plane in its buffer; w: word offset of the output
	Strides [4]uint32     // xyz: bytes per row of each plane; w: words per output row
	Size    [4]uint32     // xy: picture size; zw: chroma size
}

var _ [shaders.BufferParamsSize - unsafe.Sizeof(BufferParams{})]byte // the sizes agree

// BufferSpec is buffer.comp's specialization constants: where the layout's samples sit.
type BufferSpec [shaders.BufferSpecConstants]int32

// Buffer computes the buffer variant's specialization constants and push constants for a
// width×height picture of layout pf (plane offsets and strides, and the output's, are filled per
// frame by BufferBinding.Record). bgra writes B, G, R, A for B8G8R8A8 targets.
func (p Params) Buffer(pf *formats.PixelFormat, width, height int, bgra bool) (BufferSpec, *BufferParams, error) {
	var spec BufferSpec
	c, err := p.shader(pf, width, height, 1)
	if err != nil {
		return spec, nil, err
	}
	if c.Colour.System == formats.SystemCL || c.Colour.System == formats.SystemYCgCoR || c.Colour.Tone != 0 {
		return spec, nil, fmt.Errorf("ycbcr: buffer path: %s: the colour stage (shaders/colour.glsl) is not in buffer.comp; use the shader path", c.Colour.Applied)
	}
	if pf.ContainerBits != 8 && pf.ContainerBits != 16 {
		return spec, nil, fmt.Errorf("ycbcr: buffer path: %d-bit containers", pf.ContainerBits)
	}
	b := &BufferParams{}
	codeMax := math.Exp2(float64(pf.Depth)) - 1
	for i := 0; i < 3; i++ {
		b.Rows[i] = [4]float32{c.Rows[i][0], c.Rows[i][1], c.Rows[i][2], c.Offset[i]}
		b.Scale[i] = float32(float64(c.Scale[i]) / codeMax) // codes, not code/(2^n−1)
	}
	b.Chroma = [4]float32{1, 1, 0, 0}
	if !pf.Gray && (pf.Log2ChromaW > 0 || pf.Log2ChromaH > 0) {
		px, py, err := p.ChromaLocation.Position()
		if err != nil {
			return spec, nil, fmt.Errorf("ycbcr: %w", err)
		}
		// Chroma sample i sits at luma position i·2^log2 + pos: luma pixel x reads chroma (x − pos)/2^log2.
		axis := func(log2 int, pos float64) (float32, float32) {
			if log2 == 0 {
				return 1, 0
			}
			f := math.Exp2(float64(log2))
			return float32(1 / f), float32(-pos / f)
		}
		b.Chroma[0], b.Chroma[2] = axis(pf.Log2ChromaW, px)
		b.Chroma[1], b.Chroma[3] = axis(pf.Log2ChromaH, py)
	}
	cw, ch := pf.ChromaSize(width, height)
	b.Size = [4]uint32{uint32(width), uint32(height), uint32(cw), uint32(ch)}

	// Where each channel's samples sit, from the planes' channel lists.
	type site struct{ plane, samples, pos0, pos1 int }
	find := func(ch formats.Channel) (site, bool) {
		for i, pl := range pf.Planes {
			var at []int
			for k, c := range pl.Channels {
				if c == ch {
					at = append(at, k)
				}
			}
			if len(at) > 0 {
				s := site{plane: i, samples: len(pl.Channels), pos0: at[0], pos1: at[0]}
				if len(at) > 1 {
					s.pos1 = at[1]
				}
				return s, true
			}
		}
		return site{}, false
	}
	y, ok := find(formats.Y)
	if !ok {
		return spec, nil, fmt.Errorf("ycbcr: buffer path: %s has no luma plane", pf.Name)
	}
	cb, cr := y, y // gray: chroma reads luma, scaled to nothing
	if !pf.Gray {
		if cb, ok = find(formats.Cb); !ok {
			return spec, nil, fmt.Errorf("ycbcr: buffer path: %s has no Cb", pf.Name)
		}
		if cr, ok = find(formats.Cr); !ok {
			return spec, nil, fmt.Errorf("ycbcr: buffer path: %s has no Cr", pf.Name)
		}
	}
	yPixels := 1
	if y.pos0 != y.pos1 { // packed 4:2:2: two luma samples per block
		yPixels = 2
	}
	shift := 0
	if pf.ContainerBits == 16 && pf.Align == formats.AlignMSB {
		shift = 16 - pf.Depth
	}
	bgr := 0
	if bgra {
		bgr = 1
	}
	spec = BufferSpec{int32(pf.ContainerBits / 8), int32(shift),
		int32(y.plane), int32(y.samples), int32(y.pos0), int32(y.pos1), int32(yPixels),
		int32(cb.plane), int32(cb.samples), int32(cb.pos0),
		int32(cr.plane), int32(cr.samples), int32(cr.pos0), int32(bgr)}
	return spec, b, nil
}

// BufferPath holds the buffer variant's pass (its pipelines: one per layout).
type BufferPath struct {
	kit *gpu.Kit
	dev *gpu.Device
}

// bufferSets is how many bindings (streams × frames in flight) one BufferPath's pool serves
// before another is added.
const bufferSets = 32

// NewBufferPath makes the pass.
func NewBufferPath(dev *gpu.Device) (*BufferPath, error) {
	kit, err := dev.NewKit(gpu.KitDesc{Name: "ycbcr: buffer path", Bindings: gpu.StorageBuffers(4), SetsPerPool: bufferSets,
		PushStages: vk.ShaderStageComputeBit, PushBytes: shaders.BufferParamsSize,
		Shaders: []gpu.Shader{{Kind: gpu.Compute, Code: shaders.BufferComp}}})
	if err != nil {
		return nil, fmt.Errorf("ycbcr: buffer path: %w", err)
	}
	return &BufferPath{kit: kit, dev: dev}, nil
}

// Destroy frees the pass, its pipelines and every binding's set. The GPU must be done with them.
func (bp *BufferPath) Destroy() {
	bp.kit.Destroy()
	bp.kit = nil // bindings destroyed later have nothing left to return their sets to
}

// BufferBinding is one stream's conversion through the buffer path: a set and the constants.
type BufferBinding struct {
	bp      *BufferPath
	pipe    vk.Pipeline
	set     vkx.BufferSet
	kitSet  gpu.Set // set's, for Free
	buffers [4]uint64
	// params is its own allocation: cgo checks all the memory an unsafe.Pointer argument points
	// into for Go pointers.
	params *BufferParams
	pf     *formats.PixelFormat
}

// Bind prepares the conversion of width×height pictures of layout pf with p.
func (bp *BufferPath) Bind(pf *formats.PixelFormat, width, height int, p Params, bgra bool) (*BufferBinding, error) {
	spec, params, err := p.Buffer(pf, width, height, bgra)
	if err != nil {
		return nil, err
	}
	pipe, err := bp.kit.Pipeline(0, vk.NullRenderPass, 0, spec[:])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pf.Name, err)
	}
	set, err := bp.kit.Allocate()
	if err != nil {
		return nil, err
	}
	return &BufferBinding{bp: bp, pipe: pipe, set: vkx.BufferSet{Set: set.Set}, kitSet: set, params: params, pf: pf}, nil
}

// Destroy returns the binding's set. The GPU must be done with it.
func (b *BufferBinding) Destroy() {
	if b.bp.kit != nil {
		b.bp.kit.Free(b.kitSet)
	}
}

// Record records the conversion of one frame: its planes lie in buffers planes[i] (BufferHandle)
// at byte offsets offs[i], rows strides[i] bytes apart; the packed RGBA8 output goes to buffer out
// from word outOffset, pitch words a row. When the buffers differ from the last Record's, the
// binding's set is rewritten: the submissions that used it must have completed, and it cannot be
// recorded twice into one command buffer with different buffers. The output is made visible to
// transfers and to shaders that follow.
func (b *BufferBinding) Record(cb vk.CommandBuffer, planes [3]uint64, offs [3]uint64, strides [3]int, out uint64, outOffset, pitch int) error {
	n := len(b.pf.Planes)
	for i := 0; i < 3; i++ {
		k := min(i, n-1) // unused bindings repeat a used buffer
		if offs[k] > math.MaxUint32 || strides[k] < 0 {
			return fmt.Errorf("ycbcr: buffer path: plane %d at offset %d", k, offs[k])
		}
		b.buffers[i] = planes[k]
		b.params.Offsets[i] = uint32(offs[k])
		b.params.Strides[i] = uint32(strides[k])
	}
	b.buffers[3] = out
	b.params.Offsets[3], b.params.Strides[3] = uint32(outOffset), uint32(pitch)
	pixels := int(b.params.Size[0]) * int(b.params.Size[1])
	vkx.CmdBindBuffers(b.bp.dev.Device, cb, b.bp.kit.Layout, b.pipe, &b.set, b.buffers[:])
	vkx.CmdDispatchGroups(cb, b.bp.kit.Layout, unsafe.Pointer(b.params), shaders.BufferParamsSize, (pixels+shaders.BufferGroup-1)/shaders.BufferGroup)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit,
		vk.PipelineStageTransferBit|vk.PipelineStageFragmentShaderBit|vk.PipelineStageComputeShaderBit,
		vk.AccessTransferReadBit|vk.AccessShaderReadBit)
	return nil
}
