package ycbcr_test

import (
	"encoding/binary"
	"image"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// frameBuffers copies f's planes into host-visible storage buffers, lead bytes into each and rows
// pad bytes longer than f's, as a decoder's buffers would lie.
func frameBuffers(t testing.TB, dev *gpu.Device, f *formats.Frame, lead, pad int) (bufs []*gpu.Buffer, handles [3]uint64, offs [3]uint64, strides [3]int) {
	t.Helper()
	for i, p := range f.Planes {
		rows := (len(p) + f.Strides[i] - 1) / f.Strides[i]
		stride := f.Strides[i] + pad
		b, err := dev.NewBuffer(lead+rows*stride+4, vk.BufferUsageStorageBufferBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
		if err != nil {
			t.Fatal(err)
		}
		mem := b.Bytes()
		for y := 0; y < rows; y++ {
			copy(mem[lead+y*stride:], p[y*f.Strides[i]:min(len(p), (y+1)*f.Strides[i])])
		}
		bufs = append(bufs, b)
		handles[i], offs[i], strides[i] = vkx.BufferHandle(b.Handle), uint64(lead), stride
	}
	return bufs, handles, offs, strides
}

// convertBuffer runs f through the buffer path and reads the packed RGBA8 output back.
func convertBuffer(t testing.TB, dev *gpu.Device, bp *ycbcr.BufferPath, f *formats.Frame, p ycbcr.Params, lead, pad int) *image.RGBA {
	t.Helper()
	b, err := bp.Bind(f.Format, f.Width, f.Height, p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Destroy()
	bufs, handles, offs, strides := frameBuffers(t, dev, f, lead, pad)
	defer func() {
		for _, b := range bufs {
			b.Destroy()
		}
	}()
	const outLead = 3 // words before the picture, and a pitch wider than it: both honoured
	pitch := f.Width + 5
	out, err := dev.NewBuffer(4*(outLead+pitch*f.Height), vk.BufferUsageStorageBufferBit,
		vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Destroy()
	var recErr error
	if err := dev.Submit(func(cb vk.CommandBuffer) {
		recErr = b.Record(cb, handles, offs, strides, vkx.BufferHandle(out.Handle), outLead, pitch)
	}); err != nil || recErr != nil {
		t.Fatal(err, recErr)
	}
	img := image.NewRGBA(image.Rect(0, 0, f.Width, f.Height))
	mem := out.Bytes()
	for y := 0; y < f.Height; y++ {
		for x := 0; x < f.Width; x++ {
			v := binary.LittleEndian.Uint32(mem[4*(outLead+y*pitch+x):])
			copy(img.Pix[img.PixOffset(x, y):], []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
		}
	}
	return img
}

// TestBufferPathMatchesOracle: the buffer variant of the shader path, for every layout of the
// table, every siting, both ranges, two matrices, noise and the siting probe at an odd size, from
// planes at odd offsets with padded rows, against the oracle's per-pixel bounds (the shader path's
// tolerance: fp32 filtering with exact weights).
func TestBufferPathMatchesOracle(t *testing.T) {
	dev := vktest.Open(t)
	bp, err := ycbcr.NewBufferPath(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer bp.Destroy()
	for _, pf := range formats.All() {
		t.Run(pf.Name, func(t *testing.T) {
			eachParams(t, pf, 17, 9, func(f *formats.Frame, p ycbcr.Params) {
				img := convertBuffer(t, dev, bp, f, p, 2*(1+int(pf.ContainerBits/16)), 6)
				prm, err := ycbcrcheck.OracleParams(f.Format, p)
				if err != nil {
					t.Fatal(err)
				}
				prm.X6 = false // exact codes, like the shader path
				tol := oracle.ShaderTolerance(0)
				tol.UnormBits = 8
				if fails, worst, where := pictest.Mismatch(img, oracle.ImageBounds(ycbcrcheck.OraclePicture(f), prm, tol)); fails > 0 {
					t.Errorf("%dx%d %s: %d values outside the oracle's bounds, worst %.2f LSB at %s", f.Width, f.Height, p, fails, worst, where)
				}
			})
		})
	}
}

// TestBufferPathFromImport: frames read where they lie — imported host memory, no image and no
// copy — give the same picture as from buffers the test filled, for a layout of each family.
func TestBufferPathFromImport(t *testing.T) {
	dev := vktest.Open(t)
	bp, err := ycbcr.NewBufferPath(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer bp.Destroy()
	imp, err := planes.NewImporter(dev, planes.DefaultImportCapacity)
	if err != nil {
		t.Fatal(err)
	}
	defer imp.Destroy()
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaLeft}
	for _, name := range []string{"yuv420p", "nv12", "p010le", "yuv420p10le", "yuyv422", "yuv444p16le"} {
		pf, _ := formats.Lookup(name)
		f, err := synth.Noise(pf, 33, 17, 4)
		if err != nil {
			t.Fatal(err)
		}
		want := convertBuffer(t, dev, bp, f, p, 0, 0)
		b, err := bp.Bind(pf, f.Width, f.Height, p, false)
		if err != nil {
			t.Fatal(err)
		}
		out, err := dev.NewBuffer(4*f.Width*f.Height, vk.BufferUsageStorageBufferBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
		if err != nil {
			t.Fatal(err)
		}
		var fr planes.ImportedFrame
		if err := imp.Import(f, &fr); err != nil {
			t.Fatal(err)
		}
		var recErr error
		if err := dev.Submit(func(cb vk.CommandBuffer) {
			recErr = b.Record(cb, fr.Buffers, fr.Offsets, fr.Strides, vkx.BufferHandle(out.Handle), 0, f.Width)
		}); err != nil || recErr != nil {
			t.Fatal(err, recErr)
		}
		fr.Release()
		got := image.NewRGBA(image.Rect(0, 0, f.Width, f.Height))
		copy(got.Pix, out.Bytes())
		if d := pictest.FirstDiff(want, got); d != "" {
			t.Errorf("%s: imported planes differ from copied ones at %s", name, d)
		}
		if err := imp.ForgetFrame(f); err != nil {
			t.Fatal(err)
		}
		out.Destroy()
		b.Destroy()
	}
	if st := imp.Stats(); st.Imports == 0 {
		t.Fatalf("nothing imported: %+v", st)
	}
}
