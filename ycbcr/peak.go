package ycbcr

import (
	"encoding/binary"
	"fmt"
	"math"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// HDR peak detection: PQ streams whose metadata states a mastering peak (say 4000 cd/m²) far above
// what their pictures reach come out dim, as the tone curve keeps room for highlights that never
// come. The peak pass (shaders/peak.comp) measures each picture's brightest and mean PQ signal on
// the GPU; PeakFilter smooths the measurements over frames and starts again at a scene cut; the
// tone stage then takes the detected peak as the source's where it is below the metadata's
// (Params.DetectedPeak). libplacebo's pl_shader_detect_peak and mpv's --hdr-compute-peak do the
// same; here the measurement is read back after the frame's fence, so it steers the frames that are
// recorded after that (a slot's ring later: two frames with two slots).

// peakBytes is the size of the peak pass's result: its slices (shaders.PeakSlices).
const peakBytes = shaders.PeakSlices * shaders.PeakSliceSize

// PeakMeasure is one picture's measurement.
type PeakMeasure struct {
	Peak float64 // cd/m²: the largest max(R, G, B) over the 2×2-averaged picture
	Mean float64 // the mean of max(R′, G′, B′), as a PQ signal (0..1)
}

// PeakBinding is a picture's peak pass: the shader path's textures of a planes.Image, the
// device-local buffer the pass writes its result to, and the host-visible one it is copied to.
type PeakBinding struct {
	set     gpu.Set
	sampler vk.Sampler
	im      *planes.Image // whose textures set holds
	kit     *computeKit
	spec    Spec
	push    []byte
	result  *gpu.Buffer // device-local: the pass's atomics
	buf     *gpu.Buffer // host-visible: the result copied for the CPU
	points  int         // grid points of the last Record
	dev     *gpu.Device
}

// BindPeak makes the peak pass of im (its shader path textures) for a PQ stream with p.
func (sp *ShaderPath) BindPeak(im *planes.Image, p Params) (*PeakBinding, error) {
	if p.Transfer.Kind() != formats.TransferPQ {
		return nil, fmt.Errorf("ycbcr: peak detection: %s is not PQ", p.Transfer)
	}
	views, consts, err := shaderInputs(im, p)
	if err != nil {
		return nil, err
	}
	sp.kits.Lock()
	defer sp.kits.Unlock()
	k, err := sp.computeKit(&sp.peak, shaders.PeakComp, vk.DescriptorTypeStorageBuffer, shaders.ShaderSpecConstants)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: peak detection: %w", err)
	}
	// The workgroups' atomics go to device memory: a host-visible buffer is, on discrete GPUs,
	// usually system memory across the bus, where thousands of atomics a frame cost more than the
	// measurement itself. The result's slices are then copied to a host-visible, coherent buffer,
	// which the CPU reads after the frame's fence.
	result, err := sp.dev.NewBuffer(peakBytes, vk.BufferUsageStorageBufferBit|vk.BufferUsageTransferSrcBit|vk.BufferUsageTransferDstBit,
		vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: peak detection: %w", err)
	}
	buf, err := sp.dev.NewBuffer(peakBytes, vk.BufferUsageTransferDstBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		result.Destroy()
		return nil, fmt.Errorf("ycbcr: peak detection: %w", err)
	}
	set, err := k.bind(sp.dev, views, sp.Sampler, vk.NullImageView)
	if err != nil {
		buf.Destroy()
		result.Destroy()
		return nil, fmt.Errorf("ycbcr: peak detection: %w", err)
	}
	vkx.WriteBuffer(sp.dev.Device, set.Set, int(k.storage), result.Handle)
	return &PeakBinding{set: set, sampler: sp.Sampler, im: im, kit: k, spec: consts.Spec(), push: consts.Bytes(),
		result: result, buf: buf, dev: sp.dev}, nil
}

// Rebind makes the binding read im's textures (a hardware decoder's picture sampled in place, or
// the image it was made for again) for a stream with p. im must convert with the same
// specialization as the binding's image (the same layout and colour system); the GPU must be done
// with the binding's earlier Records (the slot's fence). Rebinding the image it reads already does
// nothing.
func (b *PeakBinding) Rebind(im *planes.Image, p Params) error {
	if im == b.im {
		return nil
	}
	views, consts, err := shaderInputs(im, p)
	if err != nil {
		return err
	}
	if consts.Spec() != b.spec {
		return fmt.Errorf("ycbcr: peak detection: the image converts with another specialization than the binding's")
	}
	writeImages(b.dev.Device, b.set.Set, views, b.sampler)
	b.im = im
	return nil
}

// Record records the measurement of a width×height picture, outside a render pass, after the
// upload of its planes: the result cleared, the pass, and its writes made visible to the host.
func (b *PeakBinding) Record(cb vk.CommandBuffer, width, height int) error {
	pipe, err := b.kit.pipeline(b.spec[:])
	if err != nil {
		return err
	}
	vk.CmdFillBuffer(cb, b.result.Handle, 0, peakBytes, 0)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit,
		vk.PipelineStageComputeShaderBit, vk.AccessShaderReadBit|vk.AccessShaderWriteBit)
	b.kit.Bind(cb, pipe, b.set.Set, b.push)
	// The grid: half the picture's width and height, rounded up to whole workgroups of
	// ComputeGroup's width by PeakRows times its height (peak.comp spreads it over the picture).
	gw, gh := shaders.ComputeGroup[0], shaders.ComputeGroup[1]*shaders.PeakRows
	gx, gy := ((width+1)/2+gw-1)/gw, ((height+1)/2+gh-1)/gh
	vk.CmdDispatch(cb, uint32(gx), uint32(gy), 1)
	b.points = gx * gy * gw * gh
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit, vk.PipelineStageTransferBit, vk.AccessTransferReadBit)
	vkx.CmdCopyBuffer(cb, b.result.Handle, b.buf.Handle, 0, 0, peakBytes)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
	return nil
}

// Result is the last Record's measurement; the submission that ran it must have completed (its
// fence signalled).
func (b *PeakBinding) Result() PeakMeasure {
	mem := b.buf.Bytes()
	var peak float32
	var sum uint64
	for k := 0; k < shaders.PeakSlices; k++ {
		at := k * shaders.PeakSliceSize
		peak = max(peak, math.Float32frombits(binary.LittleEndian.Uint32(mem[at:])))
		sum += uint64(binary.LittleEndian.Uint32(mem[at+4:]))
	}
	m := PeakMeasure{Peak: PQEOTF(float64(peak))}
	if b.points > 0 {
		m.Mean = float64(sum) / 256 / float64(b.points)
	}
	return m
}

// Destroy frees the binding's buffers and descriptor set. The GPU must be done with them.
func (b *PeakBinding) Destroy() {
	b.kit.Free(b.set)
	b.buf.Destroy()
	b.result.Destroy()
}

// PQEOTF is SMPTE ST 2084's EOTF: the luminance in cd/m² of PQ signal e.
func PQEOTF(e float64) float64 {
	const m1, m2 = 2610.0 / 16384, 2523.0 / 4096 * 128
	const c1, c2, c3 = 3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32
	p := math.Pow(math.Max(0, math.Min(1, e)), 1/m2)
	return 10000 * math.Pow(math.Max(p-c1, 0)/(c2-c3*p), 1/m1)
}

// PeakFilter smooths per-picture measurements into the peak the tone stage uses. Within a scene the
// peak follows the measurements as an exponential moving average over Period frames of their PQ
// signal (a perceptual scale), so that a highlight entering the picture does not make the picture
// jump; a scene cut, seen as the mean brightness changing by more than SceneHigh dB (10·log10 of
// the ratio of the mean's luminances), starts the average again from the new picture; between
// SceneLow and SceneHigh dB the average moves proportionally faster. The zero value uses the
// defaults (20 frames, 1 and 3 dB: mpv's --hdr-peak-decay-rate and --hdr-scene-threshold-low/-high).
type PeakFilter struct {
	Period              float64
	SceneLow, SceneHigh float64
	peak, mean          float64 // smoothed, PQ signals
	primed              bool
}

// Update takes the next picture's measurement and returns the smoothed peak in cd/m².
func (f *PeakFilter) Update(m PeakMeasure) float64 {
	period, low, high := f.Period, f.SceneLow, f.SceneHigh
	if period <= 0 {
		period = 20
	}
	if high <= 0 {
		low, high = 1, 3
	}
	pk := PQInverseEOTF(m.Peak)
	if !f.primed {
		f.peak, f.mean, f.primed = pk, m.Mean, true
		return PQEOTF(f.peak)
	}
	// Luminances below 0.01 cd/m² (black frames) count as 0.01, so that a fade from black is a cut
	// of finite size.
	db := 10 * math.Abs(math.Log10(math.Max(PQEOTF(m.Mean), 0.01)/math.Max(PQEOTF(f.mean), 0.01)))
	a := 1 / period
	switch {
	case db >= high:
		a = 1
	case db > low:
		a += (1 - a) * (db - low) / (high - low)
	}
	f.peak += a * (pk - f.peak)
	f.mean += a * (m.Mean - f.mean)
	return PQEOTF(f.peak)
}

// Reset forgets the measurements (a seek, a new stream).
func (f *PeakFilter) Reset() { f.primed = false }

// WithPeak is p with the detected peak (cd/m²) as the source's content light level (MaxCLL) where
// it is below the peak the metadata gives the tone stage (ToneInputs), or where the stream has no
// luminance metadata: the tone stage then maps the picture's real highlights, not the mastering
// display's, to the target's peak. Peaks below the SDR target's count as SDRPeak (the curve is then
// the identity up to the target's peak: a dark picture is not brightened). peak 0 leaves p as it is.
func (p Params) WithPeak(peak float64) Params {
	if peak <= 0 || p.Transfer.Kind() != formats.TransferPQ {
		return p
	}
	peak = math.Min(math.Max(peak, SDRPeak), 10000)
	h := p.HDR
	switch {
	case !h.Valid():
		p.HDR = formats.HDRMetadata{MaxCLL: peak}
	case h.MaxLuminance == 0 && h.MaxCLL == 0:
		p.HDR.MaxCLL = peak
	case peak < p.ToneInputs().SourcePeak:
		p.HDR.MaxCLL = peak
	}
	return p
}

// SetConstants replaces the push constants of a shader-path binding with c's (Params.WithPeak's
// new tone constants, each frame); c must be of the same image and specialization. The GPU must be
// done with the binding's earlier draws, or the caller records the new constants only into a
// command buffer recorded after this call (push constants are recorded, not referenced).
func (b *Binding) SetConstants(c *ShaderConstants) error {
	if b.spec != c.Spec() {
		return fmt.Errorf("ycbcr: set constants: another specialization (the stream's configuration changed)")
	}
	b.push = c.Bytes()
	return nil
}

// SetConstants is Binding.SetConstants for the compute variant.
func (b *ComputeBinding) SetConstants(c *ShaderConstants) error {
	if withDither(b.spec, DitherOff, 0) != withDither(c.Spec(), DitherOff, 0) {
		return fmt.Errorf("ycbcr: set constants: another specialization (the stream's configuration changed)")
	}
	b.setPush(c.Bytes())
	return nil
}
