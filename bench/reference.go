package bench

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Reference holds the ceilings the conversion and upload figures are read against, measured on the
// same device in the same run.
type Reference struct {
	// DeviceCopy: vkCmdCopyBuffer between two device-local buffers; Bytes counts bytes read plus
	// bytes written, so GBps is the memory traffic the device sustained.
	DeviceCopy Bandwidth `json:"device_copy"`
	// HostToDevice: vkCmdCopyBuffer from a host-visible buffer (memory of the kind staging buffers
	// get) into a device-local one; Bytes counts the bytes transferred.
	HostToDevice Bandwidth `json:"host_to_device"`
	// MemcpyToStaging: a CPU copy from the Go heap into mapped host-visible memory, what
	// planes.Image.Stage does row by row; Bytes counts the bytes copied.
	MemcpyToStaging Bandwidth `json:"memcpy_to_staging"`
	// MemcpyHeap: the same copy between two Go heap buffers, for comparison: write-combined or
	// uncached staging memory shows as a gap between the two.
	MemcpyHeap Bandwidth `json:"memcpy_heap"`
	// HostMemory names the memory type host-visible buffers (staging included) were given.
	HostMemory string `json:"host_memory"`
}

// Bandwidth is one copy repeated: the bytes each repetition counts, the spread of its times, and
// the rate at the median time.
type Bandwidth struct {
	Bytes int64   `json:"bytes"`
	Time  Stats   `json:"ms"`
	GBps  float64 `json:"gbps"`
}

func bandwidth(bytes int64, ms []float64) Bandwidth {
	s := summarize(ms)
	return Bandwidth{Bytes: bytes, Time: s, GBps: gbps(bytes, s.Median)}
}

// memoryFlags names a memory type's property flags, e.g. "HOST_VISIBLE|HOST_COHERENT".
func memoryFlags(d *gpu.Device, index uint32) string {
	f := vk.MemoryPropertyFlagBits(d.Memory.MemoryTypes[index].PropertyFlags)
	var names []string
	for _, n := range []struct {
		bit  vk.MemoryPropertyFlagBits
		name string
	}{{vk.MemoryPropertyDeviceLocalBit, "DEVICE_LOCAL"}, {vk.MemoryPropertyHostVisibleBit, "HOST_VISIBLE"},
		{vk.MemoryPropertyHostCoherentBit, "HOST_COHERENT"}, {vk.MemoryPropertyHostCachedBit, "HOST_CACHED"}} {
		if f&n.bit != 0 {
			names = append(names, n.name)
		}
	}
	return fmt.Sprintf("type %d: %s", index, strings.Join(names, "|"))
}

// measureReference measures the four ceilings. The device-local source is filled with random bytes
// through the host→device copies themselves, so no copy is timed on zeros (which some GPUs move
// faster, through compression).
func measureReference(d *gpu.Device, o *Options) (Reference, error) {
	var ref Reference
	hostBytes, devBytes := o.HostToDeviceBytes, o.DeviceCopyBytes
	host, err := d.NewBuffer(int(hostBytes), vk.BufferUsageTransferSrcBit,
		vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return ref, fmt.Errorf("bench: host→device reference: %w", err)
	}
	defer host.Destroy()
	var req vk.MemoryRequirements
	vk.GetBufferMemoryRequirements(d.Device, host.Handle, &req)
	req.Deref()
	if idx, err := d.MemoryType(req.MemoryTypeBits, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit); err == nil {
		ref.HostMemory = memoryFlags(d, idx)
	}

	// CPU copies first: they also fill the host buffer with the random bytes the GPU copies move.
	src := make([]byte, hostBytes)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i+8 <= len(src); i += 8 {
		binary.LittleEndian.PutUint64(src[i:], rng.Uint64())
	}
	heap := make([]byte, hostBytes)
	var toStaging, toHeap []float64
	for r := 0; r < o.RefWarmup+o.RefReps; r++ {
		t0 := time.Now()
		copy(host.Bytes(), src)
		t1 := time.Now()
		copy(heap, src)
		t2 := time.Now()
		if r >= o.RefWarmup {
			toStaging = append(toStaging, ms(t1.Sub(t0)))
			toHeap = append(toHeap, ms(t2.Sub(t1)))
		}
	}
	ref.MemcpyToStaging = bandwidth(hostBytes, toStaging)
	ref.MemcpyHeap = bandwidth(hostBytes, toHeap)
	heap = nil

	usage := vk.BufferUsageTransferSrcBit | vk.BufferUsageTransferDstBit
	a, err := d.NewBuffer(int(devBytes), usage, vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		return ref, fmt.Errorf("bench: device copy reference: %w", err)
	}
	defer a.Destroy()
	b, err := d.NewBuffer(int(devBytes), usage, vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		return ref, fmt.Errorf("bench: device copy reference: %w", err)
	}
	defer b.Destroy()

	n := o.RefWarmup + o.RefReps
	q, err := newQueries(d, 2*n)
	if err != nil {
		return ref, err
	}
	defer q.destroy()
	copyBuf := func(cb vk.CommandBuffer, from, to *gpu.Buffer, srcOff, dstOff, size int64) {
		vkx.CmdCopyBuffer(cb, from.Handle, to.Handle, uint64(srcOff), uint64(dstOff), uint64(size))
	}
	err = d.Submit(func(cb vk.CommandBuffer) {
		q.reset(cb, 0, 2*n)
		// Fill all of a, chunk by chunk, so the device copy reads random bytes everywhere.
		for off := int64(0); off < devBytes; off += hostBytes {
			copyBuf(cb, host, a, 0, off, min(hostBytes, devBytes-off))
		}
		// Host → device: the same source into each chunk of a in turn (chunk-aligned offsets; there
		// is at least one chunk, as defaults keep HostToDeviceBytes ≤ DeviceCopyBytes).
		chunks := devBytes / hostBytes
		for r := 0; r < n; r++ {
			q.start(cb, r)
			copyBuf(cb, host, a, 0, (int64(r)%chunks)*hostBytes, hostBytes)
			q.stop(cb, r)
		}
		for r := 0; r < n; r++ {
			q.start(cb, n+r)
			copyBuf(cb, a, b, 0, 0, devBytes)
			q.stop(cb, n+r)
		}
	})
	if err != nil {
		return ref, fmt.Errorf("bench: reference copies: %w", err)
	}
	h2d, err := q.intervals(o.RefWarmup, o.RefReps)
	if err != nil {
		return ref, err
	}
	d2d, err := q.intervals(n+o.RefWarmup, o.RefReps)
	if err != nil {
		return ref, err
	}
	ref.HostToDevice = bandwidth(hostBytes, h2d)
	ref.DeviceCopy = bandwidth(2*devBytes, d2d)
	return ref, nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
