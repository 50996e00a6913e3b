package vkx

/*
#include <stdlib.h>
#include "vkx.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// Shifter is the compute pass of shift.c: a set of four storage-buffer bindings (three sources, one
// destination), its pipeline, and the set itself, updated by each CmdShift.
type Shifter struct {
	c         C.VkxShifter
	pushBytes uint32
	group     uint32
}

// ShiftPlane is one plane's push constants for the shift shader (shaders/shift.comp's Params).
type ShiftPlane struct {
	Plane, SrcOffset, SrcStride, SrcWidth, SrcHeight uint32
	DstOffset, DstWidth, DstHeight, PerTexel, Shift  uint32
}

var (
	_ [unsafe.Sizeof(ShiftPlane{}) - unsafe.Sizeof(C.VkxShiftPlane{})]byte
	_ [unsafe.Sizeof(C.VkxShiftPlane{}) - unsafe.Sizeof(ShiftPlane{})]byte
)

// NewShifter creates the pass from the shader's SPIR-V, its push-constant size and workgroup width.
func NewShifter(dev vk.Device, spv []byte, pushBytes, group uint32) (*Shifter, error) {
	if len(spv) == 0 || len(spv)%4 != 0 {
		return nil, fmt.Errorf("vkx: shifter: SPIR-V of %d bytes", len(spv))
	}
	s := &Shifter{pushBytes: pushBytes, group: group}
	code := C.CBytes(spv) // 4-byte aligned, as the module needs
	defer C.free(code)
	if err := Check(vk.Result(C.vkx_shifter_create(cDevice(dev), (*C.uint32_t)(code), C.size_t(len(spv)),
		C.uint32_t(pushBytes), &s.c)), "shifter: create"); err != nil {
		s.Destroy(dev)
		return nil, err
	}
	return s, nil
}

// Destroy frees the pass. The GPU must be done with it.
func (s *Shifter) Destroy(dev vk.Device) {
	if s != nil {
		C.vkx_shifter_destroy(cDevice(dev), &s.c)
	}
}

// CmdShift records the pass for planes: it points the set at src (three buffer handles, unused ones
// repeating a used one) and dst, which the previous use of the set must have finished with, and
// leaves dst's writes visible to transfers. The slices are read during the call only.
func (s *Shifter) CmdShift(dev vk.Device, cb vk.CommandBuffer, src *[3]uint64, dst uint64, planes []ShiftPlane) {
	if len(planes) == 0 {
		return
	}
	C.vkx_cmd_shift(cDevice(dev), cCommandBuffer(cb), &s.c, (*C.VkBuffer)(unsafe.Pointer(&src[0])),
		*(*C.VkBuffer)(unsafe.Pointer(&dst)), (*C.VkxShiftPlane)(unsafe.Pointer(&planes[0])), C.uint32_t(len(planes)),
		C.uint32_t(s.pushBytes), C.uint32_t(s.group))
}
