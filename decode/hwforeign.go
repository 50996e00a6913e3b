package decode

import (
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/planes"
)

// ForeignFrame is a HWFrame as a picture in an image the toolkit does not own (stream.Foreign):
// Lock, Submitted and Unlock with Vulkan's types.
type ForeignFrame struct{ h *HWFrame }

// Foreign returns h for the stream's in-place and GPU-copy routes.
func (h *HWFrame) Foreign() ForeignFrame { return ForeignFrame{h} }

// Lock locks the frame and reads its image and state (lock_frame).
func (f ForeignFrame) Lock() (planes.ForeignState, error) {
	v, err := f.h.Lock()
	if err != nil {
		return planes.ForeignState{}, err
	}
	return planes.ForeignState{
		Image: planes.Foreign{Image: handle[vk.Image](v.Image), VkFormat: formats.VkFormat(v.Format),
			Width: v.Width, Height: v.Height, Usage: vk.ImageUsageFlags(v.Usage), Flags: vk.ImageCreateFlags(v.Flags),
			Tiling: vk.ImageTiling(v.Tiling), Images: v.Images},
		Layout: vk.ImageLayout(v.Layout), Semaphore: handle[vk.Semaphore](v.Semaphore), Value: v.SemValue,
		QueueFamily: v.QueueFamily,
	}, nil
}

// Submitted writes back the layout and access the submission left and the semaphore's new value.
func (f ForeignFrame) Submitted(layout vk.ImageLayout, access vk.AccessFlags) {
	f.h.Submitted(uint32(layout), uint32(access))
}

// Unlock releases Lock's lock.
func (f ForeignFrame) Unlock() { f.h.Unlock() }

// handle turns a raw Vulkan handle (a pointer on 64-bit platforms) into vulkan-go's type for it.
func handle[T any](h uint64) T {
	p := uintptr(h)
	return *(*T)(unsafe.Pointer(&p))
}
