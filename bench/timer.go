package bench

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// queries is a timestamp query pool that hands back every interval, not only their mean as
// gpu.GPUTimer does: medians and percentiles need the samples.
type queries struct {
	dev    *gpu.Device
	pool   vk.QueryPool
	pairs  int
	period float64 // nanoseconds per tick
	mask   uint64  // timestampValidBits
}

// newQueries makes room for pairs intervals. A queue without timestamps is an error: this package
// exists to time GPU work, and wall-clock time around a fence would include the submission.
func newQueries(dev *gpu.Device, pairs int) (*queries, error) {
	var n uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(dev.Physical, &n, nil)
	qs := make([]vk.QueueFamilyProperties, n)
	vkx.NoGC(func() { vk.GetPhysicalDeviceQueueFamilyProperties(dev.Physical, &n, qs) })
	qs[dev.QueueFamily].Deref()
	bits := qs[dev.QueueFamily].TimestampValidBits
	if bits == 0 || dev.Limits.TimestampPeriod == 0 {
		return nil, fmt.Errorf("bench: device %s has no timestamp queries on its graphics queue", dev.Info.Name)
	}
	ci := &vk.QueryPoolCreateInfo{SType: vk.StructureTypeQueryPoolCreateInfo, QueryType: vk.QueryTypeTimestamp,
		QueryCount: uint32(2 * pairs)}
	var pool vk.QueryPool
	err := vkx.Check(vk.CreateQueryPool(dev.Device, ci, nil, &pool), "vkCreateQueryPool")
	ci.Free()
	if err != nil {
		return nil, fmt.Errorf("bench: timestamps: %w", err)
	}
	q := &queries{dev: dev, pool: pool, pairs: pairs, period: float64(dev.Limits.TimestampPeriod), mask: ^uint64(0)}
	if bits < 64 {
		q.mask = 1<<bits - 1
	}
	return q, nil
}

// reset records the reset of pairs [first, first+count); outside a render pass.
func (q *queries) reset(cb vk.CommandBuffer, first, count int) {
	vk.CmdResetQueryPool(cb, q.pool, uint32(2*first), uint32(2*count))
}

// start records a full execution and memory barrier, then the first timestamp of pair i. The
// barrier makes everything recorded before it finish before anything after it starts, so the
// interval holds only the work between start and stop; BOTTOM_OF_PIPE timestamps are written
// once all earlier commands have completed, which is what "finished" means here.
func (q *queries) start(cb vk.CommandBuffer, i int) {
	serialize(cb)
	vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, q.pool, uint32(2*i))
}

// stop records the second timestamp of pair i, written when the work since start has completed.
func (q *queries) stop(cb vk.CommandBuffer, i int) {
	vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, q.pool, uint32(2*i+1))
}

// intervals reads count intervals from pair first on, in milliseconds; their submission must have
// completed (the caller waited for its fence).
func (q *queries) intervals(first, count int) ([]float64, error) {
	ts := make([]uint64, 2*count)
	r := vk.GetQueryPoolResults(q.dev.Device, q.pool, uint32(2*first), uint32(2*count), uint(8*len(ts)),
		unsafe.Pointer(&ts[0]), 8, vk.QueryResultFlags(vk.QueryResult64Bit|vk.QueryResultWaitBit))
	if err := vkx.Check(r, "vkGetQueryPoolResults"); err != nil {
		return nil, fmt.Errorf("bench: timestamps: %w", err)
	}
	out := make([]float64, count)
	for i := range out {
		out[i] = float64((ts[2*i+1]-ts[2*i])&q.mask) * q.period / 1e6
	}
	return out, nil
}

func (q *queries) destroy() {
	if q != nil && q.pool != vk.NullQueryPool {
		vk.DestroyQueryPool(q.dev.Device, q.pool, nil)
		q.pool = vk.NullQueryPool
	}
}

// serialize records an execution and memory dependency from all earlier commands to all later ones.
func serialize(cb vk.CommandBuffer) {
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageAllCommandsBit, vk.AccessMemoryWriteBit,
		vk.PipelineStageAllCommandsBit, vk.AccessMemoryReadBit|vk.AccessMemoryWriteBit)
}
