package gpu

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// GPUTimer measures GPU time between two points of a command buffer with timestamp queries, one
// pair per frame slot, and optionally a second pair in another command buffer of the same
// submission (StartPre/StopPre: a stream's Pre batch, which holds a hardware-decoded frame's copy or
// conversion): a slot's time is the sum of both intervals. Results are read after the slot's fence
// says the GPU is done.
type GPUTimer struct {
	pool    vk.QueryPool
	period  float64 // nanoseconds per tick
	mask    uint64  // timestampValidBits
	pending []bool
	pre     []bool // the slot's second pair was written
	on      []bool // the slot's current frame is timed (Every)
	frames  int
	dev     *Device
	// Total and Count accumulate measured intervals.
	Total float64 // milliseconds
	Count int
	// Every, above 1, times one frame in Every: reading a result back (vkGetQueryPoolResults) is a
	// driver call a frame that a wall's step makes for each of its streams, and NVIDIA's driver
	// takes a device-wide lock in each (docs/performance.md, "Live walls").
	Every int
}

// NewGPUTimer makes a timer for slots frame slots, or returns nil when the queue has no timestamps.
func (d *Device) NewGPUTimer(slots int) (*GPUTimer, error) {
	var n uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(d.Physical, &n, nil)
	qs := make([]vk.QueueFamilyProperties, n)
	vkx.NoGC(func() { vk.GetPhysicalDeviceQueueFamilyProperties(d.Physical, &n, qs) })
	qs[d.QueueFamily].Deref()
	bits := qs[d.QueueFamily].TimestampValidBits
	if bits == 0 || d.Limits.TimestampPeriod == 0 {
		return nil, nil
	}
	ci := &vk.QueryPoolCreateInfo{SType: vk.StructureTypeQueryPoolCreateInfo, QueryType: vk.QueryTypeTimestamp, QueryCount: uint32(4 * slots)}
	var pool vk.QueryPool
	err := vkx.Check(vk.CreateQueryPool(d.Device, ci, nil, &pool), "vkCreateQueryPool")
	ci.Free()
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	t := &GPUTimer{pool: pool, period: float64(d.Limits.TimestampPeriod), pending: make([]bool, slots), pre: make([]bool, slots), on: make([]bool, slots), dev: d}
	t.mask = ^uint64(0)
	if bits < 64 {
		t.mask = 1<<bits - 1
	}
	return t, nil
}

// Due says the next frame is one the timer measures (one in Every): Start will record timestamps.
func (t *GPUTimer) Due() bool { return t != nil && (t.Every <= 1 || t.frames%t.Every == 0) }

// Skip counts a frame recorded without Start (Stream.Replay's), which the timer does not measure.
func (t *GPUTimer) Skip() {
	if t != nil {
		t.frames++
	}
}

// Start records the first timestamp of slot (after collecting the slot's previous interval, whose
// fence the caller has waited for).
func (t *GPUTimer) Start(cb vk.CommandBuffer, slot int) {
	if t == nil {
		return
	}
	t.collect(slot)
	t.pre[slot] = false
	t.on[slot] = t.Every <= 1 || t.frames%t.Every == 0
	t.frames++
	if !t.on[slot] {
		return
	}
	vk.CmdResetQueryPool(cb, t.pool, uint32(4*slot), 2)
	vk.CmdWriteTimestamp(cb, vk.PipelineStageTopOfPipeBit, t.pool, uint32(4*slot))
}

// Stop records the second timestamp of slot.
func (t *GPUTimer) Stop(cb vk.CommandBuffer, slot int) {
	if t == nil || !t.on[slot] {
		return
	}
	vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, t.pool, uint32(4*slot+1))
	t.pending[slot] = true
}

// StartPre records the first timestamp of slot's second interval, at the start of cb, a command
// buffer submitted with the slot's (after Start).
func (t *GPUTimer) StartPre(cb vk.CommandBuffer, slot int) {
	if t == nil || !t.on[slot] {
		return
	}
	vk.CmdResetQueryPool(cb, t.pool, uint32(4*slot+2), 2)
	vk.CmdWriteTimestamp(cb, vk.PipelineStageTopOfPipeBit, t.pool, uint32(4*slot+2))
}

// StopPre records the second timestamp of slot's second interval, at the end of cb.
func (t *GPUTimer) StopPre(cb vk.CommandBuffer, slot int) {
	if t == nil || !t.on[slot] {
		return
	}
	vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, t.pool, uint32(4*slot+3))
	t.pre[slot] = true
}

func (t *GPUTimer) collect(slot int) {
	if !t.pending[slot] {
		return
	}
	t.pending[slot] = false
	n := 2
	if t.pre[slot] {
		n = 4
	}
	t.pre[slot] = false
	var ts [4]uint64
	r := vk.GetQueryPoolResults(t.dev.Device, t.pool, uint32(4*slot), uint32(n), uint(8*n), unsafe.Pointer(&ts[0]), 8,
		vk.QueryResultFlags(vk.QueryResult64Bit))
	if r != vk.Success {
		return
	}
	ticks := (ts[1] - ts[0]) & t.mask
	if n == 4 {
		ticks += (ts[3] - ts[2]) & t.mask
	}
	t.Total += float64(ticks) * t.period / 1e6
	t.Count++
}

// Finish collects every pending interval; the GPU must be idle.
func (t *GPUTimer) Finish() {
	if t == nil {
		return
	}
	for i := range t.pending {
		t.collect(i)
	}
}

// MeanMs is the mean interval in milliseconds, or 0 with no measurement.
func (t *GPUTimer) MeanMs() float64 {
	if t == nil || t.Count == 0 {
		return 0
	}
	return t.Total / float64(t.Count)
}

// Destroy frees the query pool.
func (t *GPUTimer) Destroy() {
	if t != nil {
		vk.DestroyQueryPool(t.dev.Device, t.pool, nil)
	}
}
