package decode

import (
	"sync"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/planes"
)

// Foreign is a picture in an image whose owner synchronizes it: stream.Foreign's methods, which
// ForeignFrame has, and a copy of a picture on another device (stream.Relay) too.
type Foreign interface {
	Lock() (planes.ForeignState, error)
	Submitted(layout vk.ImageLayout, access vk.AccessFlags)
	Unlock()
}

// Relayed returns a frame of f's picture and metadata in img, a copy of f's image on another device
// of the GPU (stream.Relay), and release, which releases f: the copy may still be reading f's image
// until it has been waited for. done, if not nil, runs at the relayed frame's Release (it gives img
// back to its relay), and so does release, if it has not run before.
func Relayed(f *Frame, img Foreign, done func()) (out *Frame, release func()) {
	var once sync.Once
	release = func() { once.Do(f.Release) }
	o := *f
	o.av, o.done = nil, func() {
		if done != nil {
			done()
		}
		release()
	}
	if f.HW != nil {
		o.HW = &HWFrame{SWFormat: f.HW.SWFormat, CodedWidth: f.HW.CodedWidth, CodedHeight: f.HW.CodedHeight, relayed: img}
	}
	if f.Picture != nil {
		pic := *f.Picture
		o.Picture = &pic
	}
	return &o, release
}

// ForeignFrame is a HWFrame as a picture in an image the toolkit does not own (stream.Foreign):
// Lock, Submitted and Unlock with Vulkan's types.
type ForeignFrame struct{ h *HWFrame }

// Foreign returns h for the stream's in-place and GPU-copy routes.
func (h *HWFrame) Foreign() ForeignFrame { return ForeignFrame{h} }

// Lock locks the frame and reads its image and state (lock_frame).
func (f ForeignFrame) Lock() (planes.ForeignState, error) {
	if f.h.relayed != nil {
		return f.h.relayed.Lock()
	}
	v, err := f.h.Lock()
	if err != nil {
		return planes.ForeignState{}, err
	}
	return foreignState(v), nil
}

// TryLock is Lock without waiting: ok false, and nothing locked, when FFmpeg's decoder holds the
// frame's lock (it records a decoding that reads the picture and holds the lock until that
// submission returns: libavutil/vulkan.c). A relayed copy's lock, which only its user takes, is
// waited for.
func (f ForeignFrame) TryLock() (st planes.ForeignState, ok bool, err error) {
	if f.h.relayed != nil {
		st, err = f.h.relayed.Lock()
		return st, err == nil, err
	}
	v, ok, err := avx.TryLockVkFrame(f.h.av)
	if !ok || err != nil {
		return planes.ForeignState{}, false, err
	}
	return foreignState(v), true, nil
}

// foreignState is v with Vulkan's types.
func foreignState(v avx.VkFrame) planes.ForeignState {
	return planes.ForeignState{
		Image: planes.Foreign{Image: handle[vk.Image](v.Image), VkFormat: formats.VkFormat(v.Format),
			Width: v.Width, Height: v.Height, Usage: vk.ImageUsageFlags(v.Usage), Flags: vk.ImageCreateFlags(v.Flags),
			Tiling: vk.ImageTiling(v.Tiling), Images: v.Images},
		Layout: vk.ImageLayout(v.Layout), Semaphore: handle[vk.Semaphore](v.Semaphore), Value: v.SemValue,
		ReadSemaphore: handle[vk.Semaphore](v.ReadSemaphore), ReadValue: v.ReadValue,
		QueueFamily: v.QueueFamily, Epoch: v.Epoch,
	}
}

// Submitted writes back the layout and access the submission left and the semaphore's new value.
func (f ForeignFrame) Submitted(layout vk.ImageLayout, access vk.AccessFlags) {
	if f.h.relayed != nil {
		f.h.relayed.Submitted(layout, access)
		return
	}
	f.h.Submitted(uint32(layout), uint32(access))
}

// Unlock releases Lock's lock.
func (f ForeignFrame) Unlock() {
	if f.h.relayed != nil {
		f.h.relayed.Unlock()
		return
	}
	f.h.Unlock()
}

// handle turns a raw Vulkan handle (a pointer on 64-bit platforms) into vulkan-go's type for it.
func handle[T any](h uint64) T {
	p := uintptr(h)
	return *(*T)(unsafe.Pointer(&p))
}
