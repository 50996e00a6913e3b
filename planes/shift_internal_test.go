package planes

import (
	"bytes"
	"strings"
	"testing"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
)

// TestGPUShiftMatchesStage: the GPU shift pass, reading a frame's planes where they lie (imported)
// or from the staging buffer's unshifted copy, writes exactly the bytes Stage's CPU shift writes:
// samples shifted to the MSB, edges repeated into the padding. Every LSB layout, even and odd sizes. lavapipe samples none of the X6/X4 formats these
// layouts need, so the image holds the sampler path's shifted layout without its multi-planar image
// (the whole sampler path through this pass runs in the tests on devices that sample them).
func TestGPUShiftMatchesStage(t *testing.T) {
	dev := vktest.Open(t)
	ran := 0
	for _, pf := range formats.All() {
		if pf.SamplerShift == 0 {
			continue
		}
		for _, size := range [][2]int{{32, 16}, {63, 47}} {
			src, err := synth.Noise(pf, size[0], size[1], 5)
			if err != nil {
				t.Fatal(err)
			}
			// Rows padded past the picture, so that stride and width differ.
			f := padRows(src, 96)
			im, err := New(dev, pf, size[0], size[1], formats.PathShader)
			if err != nil {
				t.Fatal(err)
			}
			defer im.Destroy() // also drops the imports (and their pins) if the test stops early
			addShiftedLayout(t, im)
			if err := im.Stage(f); err != nil {
				t.Fatal(err)
			}
			if err := im.Can(f, UploadImport); err != nil {
				t.Fatalf("%s: import: %v", pf.Name, err)
			}
			var bufs, offs [maxPlanes]uint64
			var entries []*importEntry
			for i := range pf.Planes {
				e, off, err := im.imported.cache.acquire(unsafe.Pointer(&f.Planes[i][0]), len(f.Planes[i]))
				if err != nil {
					t.Fatal(err)
				}
				entries = append(entries, e)
				bufs[i], offs[i] = vkx.BufferHandle(e.buffer), off
			}
			// The pass's buffer is device-local (not mappable on discrete GPUs): copied back to read it.
			back, err := dev.NewBuffer(im.lsb.pass.out.Size, vk.BufferUsageTransferDstBit,
				vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
			if err != nil {
				t.Fatal(err)
			}
			defer back.Destroy()
			// From the frame's own memory (import path), then from the staging buffer's unshifted
			// copy (copy path): both must give Stage's CPU-shifted bytes.
			st := vkx.BufferHandle(im.staged.staging.Handle)
			var fromStage [maxPlanes]shiftSource
			for i, l := range im.staged.layout {
				fromStage[i] = shiftSource{offset: uint64(l.offset), stride: l.rowBytes, width: l.width, height: l.height}
			}
			for _, route := range []string{"import", "copy"} {
				var recErr error
				err = dev.Submit(func(cb vk.CommandBuffer) {
					if route == "import" {
						_, _, recErr = im.recordImportShift(cb, f, &bufs, &offs, nil, nil)
					} else {
						recErr = im.recordShift(cb, &[maxPlanes]uint64{st, st, st}, &fromStage)
					}
					if recErr != nil {
						return
					}
					vkx.NoGC(func() {
						vk.CmdCopyBuffer(cb, im.lsb.pass.out.Handle, back.Handle, 1, []vk.BufferCopy{{Size: vk.DeviceSize(back.Size)}})
					})
				})
				if err != nil || recErr != nil {
					t.Fatal(err, recErr)
				}
				got := back.Bytes()
				want := im.staged.staging.Bytes()
				for i, sp := range im.staged.shifted {
					n := sp.rowBytes * sp.height
					if !bytes.Equal(got[sp.offset:sp.offset+n], want[sp.offset:sp.offset+n]) {
						k := 0
						for got[sp.offset+k] == want[sp.offset+k] {
							k++
						}
						t.Errorf("%s %dx%d plane %d, %s route: GPU shift differs from Stage at byte %d (row %d): %d vs %d",
							pf.Name, size[0], size[1], i, route, k, k/sp.rowBytes, got[sp.offset+k], want[sp.offset+k])
					}
				}
				clear(back.Bytes())
			}
			for _, e := range entries {
				im.imported.cache.release(e)
			}
			if err := im.imported.cache.ForgetFrame(f); err != nil {
				t.Fatal(err)
			}
			ran++
		}
	}
	vktest.Check(t, dev)
	if ran == 0 {
		t.Fatal("no LSB layout in the table")
	}
}

// padRows copies f into rows of extra more bytes (page-aligned Go memory is not needed: the pass
// reads 16-bit samples from wherever the import rounds down to).
func padRows(f *formats.Frame, extra int) *formats.Frame {
	out := &formats.Frame{Format: f.Format, Width: f.Width, Height: f.Height}
	for i, p := range f.Planes {
		rows := (len(p) + f.Strides[i] - 1) / f.Strides[i]
		stride := f.Strides[i] + extra
		buf := make([]byte, rows*stride)
		for y := 0; y < rows; y++ {
			copy(buf[y*stride:], p[y*f.Strides[i]:min(len(p), (y+1)*f.Strides[i])])
		}
		out.Planes = append(out.Planes, buf)
		out.Strides = append(out.Strides, stride)
	}
	return out
}

// TestShiftFallback: when the shift pass cannot be made (a failure injected into its pipeline), the
// copy path shifts on the CPU as it copies — both copies staged, the shifted one equal to the
// GPU's — and import is refused with the reason. The image again holds the sampler path's shifted
// layout without its multi-planar image (lavapipe samples no X6/X4 3-plane format).
func TestShiftFallback(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("yuv420p10le")
	f, err := synth.Noise(pf, 34, 18, 3)
	if err != nil {
		t.Fatal(err)
	}
	vkx.InjectFault("vkCreateComputePipelines", vk.ErrorOutOfDeviceMemory, 0)
	defer vkx.ClearFaults()
	im, err := New(dev, pf, f.Width, f.Height, formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	defer im.Destroy()
	addShiftedLayout(t, im)
	if err := im.ensureShift(); err == nil || !strings.Contains(err.Error(), "could not be made") {
		t.Fatalf("shift pass with an injected failure: %v", err)
	}
	plain := pf.FrameBytes(f.Width, f.Height)
	if got := im.StagedBytes(); got != 2*plain {
		t.Errorf("staged bytes %d, want %d: both copies on the CPU", got, 2*plain)
	}
	if err := im.Stage(f); err != nil {
		t.Fatal(err)
	}
	buf := im.staged.staging.Bytes()
	for i, sp := range im.staged.shifted {
		raw := im.staged.layout[i]
		for k := 0; k+1 < sp.rowBytes*sp.height; k += 2 {
			v := uint16(buf[raw.offset+k]) | uint16(buf[raw.offset+k+1])<<8
			s := uint16(buf[sp.offset+k]) | uint16(buf[sp.offset+k+1])<<8
			if s != v<<uint(pf.SamplerShift) {
				t.Fatalf("plane %d byte %d: shifted %#x, unshifted %#x", i, k, s, v)
			}
		}
	}
	if err := im.Can(f, UploadImport); err == nil || !strings.Contains(err.Error(), "could not be made") {
		t.Errorf("import without the shift pass: %v, want the reason", err)
	}
}

// addShiftedLayout gives a shader-path image the sampler path's shifted staging layout, as New does
// for an image with the sampler path on a device that samples the X6/X4 format (lavapipe does not).
func addShiftedLayout(t *testing.T, im *Image) {
	t.Helper()
	im.staged.shifted, im.staged.size = im.stagedLayout(im.staged.size)
	im.staged.staging.Destroy() // made again, of the new size, by the next Stage
	im.staged.staging = nil
}
