package planes_test

import (
	"image"
	"syscall"
	"testing"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

const page = 4096

func roundUp(v, a int) int { return (v + a - 1) / a * a }

// mapped is a frame in anonymous mmap'd memory, laid out like decode's pool (internal/avx): every
// plane starts lead bytes after a page boundary, rows padded to 64 bytes, spare bytes after each
// plane, the whole a number of pages. Go's collector knows nothing of this memory, as of a decoder's.
type mapped struct {
	Frame *formats.Frame
	mem   []byte
}

func mapFrame(t testing.TB, src *formats.Frame, lead int) *mapped {
	t.Helper()
	pf := src.Format
	type pl struct{ off, stride, rowBytes, h int }
	var pls []pl
	off := 0
	for i, p := range pf.Planes {
		w, h := pf.PlaneSize(i, src.Width, src.Height)
		rb := w * p.BytesPerTexel
		off = roundUp(off, page) + lead
		pls = append(pls, pl{off, roundUp(rb, 64), rb, h})
		off += (h-1)*roundUp(rb, 64) + rb + 80
	}
	mem, err := syscall.Mmap(-1, 0, roundUp(off, page), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	f := &formats.Frame{Format: pf, Width: src.Width, Height: src.Height}
	for i, p := range pls {
		plane := mem[p.off : p.off+(p.h-1)*p.stride+p.rowBytes : p.off+(p.h-1)*p.stride+p.rowBytes]
		for y := 0; y < p.h; y++ {
			copy(plane[y*p.stride:y*p.stride+p.rowBytes], src.Planes[i][y*src.Strides[i]:])
		}
		f.Planes = append(f.Planes, plane)
		f.Strides = append(f.Strides, p.stride)
	}
	return &mapped{Frame: f, mem: mem}
}

// poolFrame lays src out as decode's buffer pool does (internal/avx): one mapping, every plane on a
// 64 KiB boundary, rows padded to 64 bytes, and each plane's slice running to the next boundary.
func poolFrame(t testing.TB, src *formats.Frame) *mapped {
	t.Helper()
	const align = 64 << 10
	pf := src.Format
	type pl struct{ off, stride, rowBytes, h, end int }
	var pls []pl
	off := 0
	for i, p := range pf.Planes {
		w, h := pf.PlaneSize(i, src.Width, src.Height)
		rb := w * p.BytesPerTexel
		stride := roundUp(rb, 64)
		end := roundUp(off+(h-1)*stride+rb+80, align)
		pls = append(pls, pl{off, stride, rb, h, end})
		off = end
	}
	mem, err := syscall.Mmap(-1, 0, off+align, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	base := roundUp(int(uintptr(unsafe.Pointer(&mem[0]))), align) - int(uintptr(unsafe.Pointer(&mem[0])))
	f := &formats.Frame{Format: pf, Width: src.Width, Height: src.Height}
	for i, p := range pls {
		plane := mem[base+p.off : base+p.end : base+p.end]
		for y := 0; y < p.h; y++ {
			copy(plane[y*p.stride:y*p.stride+p.rowBytes], src.Planes[i][y*src.Strides[i]:])
		}
		f.Planes = append(f.Planes, plane)
		f.Strides = append(f.Strides, p.stride)
	}
	return &mapped{Frame: f, mem: mem}
}

// mappedPlanes gives each plane of a w×h frame of pf an anonymous mapping of size bytes of its own,
// rows tightly packed, each plane's slice the whole mapping (a plane's span is taken from its
// slice). The returned function unmaps them.
func mappedPlanes(t testing.TB, pf *formats.PixelFormat, w, h, size int) (*formats.Frame, func()) {
	t.Helper()
	f := &formats.Frame{Format: pf, Width: w, Height: h}
	var maps [][]byte
	unmap := func() {
		for _, m := range maps {
			syscall.Munmap(m)
		}
	}
	for i, p := range pf.Planes {
		pw, _ := pf.PlaneSize(i, w, h)
		mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			unmap()
			t.Fatal(err)
		}
		maps = append(maps, mem)
		f.Planes = append(f.Planes, mem)
		f.Strides = append(f.Strides, pw*p.BytesPerTexel)
	}
	return f, unmap
}

// unmap frees the memory. The imports made from it must have been forgotten.
func (m *mapped) unmap(t testing.TB) {
	t.Helper()
	if m.mem == nil {
		return
	}
	if err := syscall.Munmap(m.mem); err != nil {
		t.Fatalf("munmap: %v", err)
	}
	m.mem, m.Frame = nil, nil
}

// render loads f into im by upload how, converts it through path into an offscreen target and reads
// it back.
func render(t testing.TB, conv *ycbcr.Paths, im *planes.Image, f *formats.Frame, p ycbcr.Params, path formats.Path,
	how planes.Upload) (*image.RGBA, planes.Loaded, error) {
	t.Helper()
	imgs, loaded, err := renderPaths(t, conv, im, f, p, how, path)
	return imgs[path], loaded, err
}

// renderPaths loads f into im once and converts it through each of paths in the same submission,
// each into its own offscreen target, read back. Only Load's error is returned; others fail t.
func renderPaths(t testing.TB, conv *ycbcr.Paths, im *planes.Image, f *formats.Frame, p ycbcr.Params,
	how planes.Upload, paths ...formats.Path) (map[formats.Path]*image.RGBA, planes.Loaded, error) {
	t.Helper()
	var binds []*ycbcr.Binding
	var targets []*gpu.Offscreen
	for _, path := range paths {
		b, err := conv.Bind(im, p, path)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Destroy()
		target, err := conv.Dev.NewOffscreen(f.Width, f.Height)
		if err != nil {
			t.Fatal(err)
		}
		defer target.Destroy()
		binds, targets = append(binds, b), append(targets, target)
	}
	var loaded planes.Loaded
	var loadErr, drawErr error
	err := conv.Dev.Submit(func(cb vk.CommandBuffer) {
		if loaded, loadErr = im.Load(cb, f, how); loadErr != nil {
			return
		}
		for i, b := range binds {
			targets[i].Begin(cb)
			if err := b.Draw(cb, targets[i]); err != nil && drawErr == nil {
				drawErr = err
			}
			targets[i].End(cb)
		}
	})
	im.Done() // Submit waited for the fence
	if loadErr != nil {
		return nil, loaded, loadErr
	}
	if err == nil {
		err = drawErr
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[formats.Path]*image.RGBA{}
	for i, path := range paths {
		out[path] = targets[i].RGBA()
	}
	return out, loaded, nil
}

func oracleBounds(t testing.TB, dev *gpu.Device, f *formats.Frame, p ycbcr.Params, path formats.Path) []oracle.Bounds {
	t.Helper()
	prm, err := check.OracleParams(f.Format, p)
	if err != nil {
		t.Fatal(err)
	}
	var tol oracle.Tolerance
	if path == formats.PathSampler {
		tol = oracle.HardwareTolerance(f.Format.Depth, int(dev.Limits.SubTexelPrecisionBits))
	} else {
		prm.X6 = false // the shader path reads exact 16-bit containers
		tol = oracle.ShaderTolerance(0)
	}
	tol.UnormBits = 8
	return oracle.ImageBounds(check.OraclePicture(f), prm, tol)
}

// submitFrame ends cb and submits it with fence: one frame of a test's own ring of command buffers
// (what stream.Ring does, without it).
func submitFrame(dev *gpu.Device, cb vk.CommandBuffer, fence vk.Fence) error {
	if err := vkx.Check(vk.EndCommandBuffer(cb), "vkEndCommandBuffer"); err != nil {
		return err
	}
	return vkx.QueueSubmit(dev.Queue, cb, vk.NullSemaphore, 0, vk.NullSemaphore, fence)
}
