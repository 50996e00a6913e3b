package avx

/*
#include "avx.h"
*/
import "C"

import (
	"errors"
	"fmt"

	"github.com/asticode/go-astiav"
)

// Page is the alignment every plane the Pool hands out has at least.
const Page = C.AVX_PAGE

// PlaneAlign is where the Pool's planes start: each owns the bytes up to the next multiple of it
// (or the buffer's end), a whole number of the 64 KiB NVIDIA rounds LINEAR plane memory to.
const PlaneAlign = C.AVX_PLANE_ALIGN

// Pool allocates aligned picture buffers (posix_memalign(PlaneAlign) through an AVBufferPool): one
// buffer per frame, each plane starting on its own PlaneAlign boundary with spare bytes after it, rows
// padded to 64 bytes. Installed on a codec context it is that decoder's get_buffer2.
//
// Buffers are reference counted by FFmpeg: a frame that holds one keeps it valid after Free.
type Pool struct {
	p *C.AvxPool
}

// NewPool makes a pool that refuses pictures wider than maxW or taller than maxH.
func NewPool(maxW, maxH int) (*Pool, error) {
	p := C.avx_pool_new(C.int(maxW), C.int(maxH))
	if p == nil {
		return nil, errors.New("avx: pool: out of memory")
	}
	return &Pool{p: p}, nil
}

// Install makes the pool the get_buffer2 of cc. Call it before cc.Open; the pool must outlive cc.
// Decoders without AV_CODEC_CAP_DR1 keep FFmpeg's allocator (their frames need Copy).
func (p *Pool) Install(cc *astiav.CodecContext) error {
	c, err := codecContext(cc)
	if err != nil {
		return err
	}
	C.avx_pool_install(p.p, c)
	return nil
}

// Alloc gives dst page-aligned planes for a width×height picture of format (dst is unreferenced first).
func (p *Pool) Alloc(dst *astiav.Frame, format astiav.PixelFormat, width, height int) error {
	if ret := C.avx_pool_alloc(p.p, frame(dst), C.int(format), C.int(width), C.int(height)); ret < 0 {
		return fmt.Errorf("avx: allocate %dx%d %s: %w", width, height, format.Name(), astiav.Error(ret))
	}
	return nil
}

// Copy makes dst a page-aligned copy of src: pixels, size, format and properties (timestamps, colour).
func (p *Pool) Copy(dst, src *astiav.Frame) error {
	if ret := C.avx_pool_copy(p.p, frame(dst), frame(src)); ret < 0 {
		return fmt.Errorf("avx: copy frame: %w", astiav.Error(ret))
	}
	return nil
}

// Allocations is how many buffers the pool has allocated (reused buffers are not counted).
func (p *Pool) Allocations() int64 { return int64(C.avx_pool_allocations(p.p)) }

// Bytes is the host memory of the pool's buffers of the current picture size: those in frames and
// those back in the pool, which keeps them for the next frames.
func (p *Pool) Bytes() int64 { return int64(C.avx_pool_held_bytes(p.p)) }

// Refused returns the last picture size get_buffer2 refused as over the limit, or 0, 0.
func (p *Pool) Refused() (w, h int) {
	var cw, ch C.int
	C.avx_pool_refused(p.p, &cw, &ch)
	return int(cw), int(ch)
}

// Free drops the pool. Call after the codec context it is installed on is freed.
func (p *Pool) Free() {
	if p.p != nil {
		C.avx_pool_free(p.p)
		p.p = nil
	}
}

// PictureBytes is how much memory every Pool of the process holds in picture buffers now, and the
// most it held at once: the decoded pictures' part of the resident set. A buffer back in its pool
// still counts (pools keep their buffers for reuse until they go).
func PictureBytes() (live, peak int64) {
	var l, p C.int64_t
	C.avx_pool_bytes(&l, &p)
	return int64(l), int64(p)
}

// FFmpegDeviceBytes is the device memory FFmpeg has allocated on the toolkit's devices (Vulkan
// Video's images, DPB, bitstream buffers, session memory), now and at most: every vkAllocateMemory
// FFmpeg makes goes through the toolkit's entry point lookup (hw.c).
func FFmpegDeviceBytes() (now, peak int64) {
	var n, p C.int64_t
	C.avx_mem_ffmpeg(0, &n, &p)
	return int64(n), int64(p)
}

// DeviceBytes is the part of FFmpegDeviceBytes the pool's decoder allocated while making hardware
// frames (its frames pool's images), now and at most.
func (p *Pool) DeviceBytes() (now, peak int64) {
	o := C.avx_pool_owner(p.p)
	if o == 0 {
		return 0, 0
	}
	var n, pk C.int64_t
	C.avx_mem_ffmpeg(o, &n, &pk)
	return int64(n), int64(pk)
}
