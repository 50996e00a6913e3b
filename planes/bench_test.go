package planes_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
)

// cpuTime is the process's user+system CPU time: on lavapipe it includes the "GPU", whose work runs
// on the process's own threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// mbps is n bytes per d in MB/s (10^6 bytes).
func mbps(n int, d time.Duration) float64 { return float64(n) / d.Seconds() / 1e6 }

// baselines measures, for n bytes, a plain memcpy and a plain GPU copy from a host-visible buffer to
// a device-local one (recorded, submitted, waited for), in MB/s.
func baselines(b *testing.B, dev *gpu.Device, n int) (memcpy, gpuCopyRate float64) {
	src, dst := make([]byte, n), make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	const reps = 30
	copy(dst, src) // first touch: page faults are not memcpy's cost
	t0 := time.Now()
	for i := 0; i < reps; i++ {
		copy(dst, src)
	}
	memcpy = mbps(n*reps, time.Since(t0))

	from, err := dev.NewBuffer(n, vk.BufferUsageTransferSrcBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		b.Fatal(err)
	}
	defer from.Destroy()
	to, err := dev.NewBuffer(n, vk.BufferUsageTransferDstBit, vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		b.Fatal(err)
	}
	defer to.Destroy()
	gpuCopy := func() {
		if err := dev.Submit(func(cb vk.CommandBuffer) {
			vkx.NoGC(func() { // vulkan-go frees its copy of the slice from a finalizer (vkx.NoGC)
				vk.CmdCopyBuffer(cb, from.Handle, to.Handle, 1, []vk.BufferCopy{{Size: vk.DeviceSize(n)}})
			})
		}); err != nil {
			b.Fatal(err)
		}
	}
	gpuCopy()
	t0 = time.Now()
	for i := 0; i < reps; i++ {
		gpuCopy()
	}
	return memcpy, mbps(n*reps, time.Since(t0))
}

// BenchmarkUpload uploads yuv420p frames from a pool of four decoder-like page-aligned buffers into
// the sampler path's disjoint 3-plane image, one frame in flight (load, submit, wait), by each path.
//
// Metrics: cpu-bytes/frame (bytes the CPU copied), load-µs/frame (time in Image.Load: staging copy
// and recording), cpu-ms/frame (process CPU time per frame; on lavapipe this includes the GPU's
// work), MB/s (frame bytes per wall-clock time, from SetBytes), x-memcpy and x-gpucopy (that MB/s over a plain
// memcpy's and a plain GPU buffer-to-buffer copy's MB/s of the same bytes, measured just before).
func BenchmarkUpload(b *testing.B) {
	// No validation layer: it would dominate the timings.
	dev, err := gpu.Open(gpu.Options{Index: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer dev.Close()
	pf, _ := formats.Lookup("yuv420p")
	for _, size := range []struct {
		name string
		w, h int
	}{{"1080p", 1920, 1080}, {"2160p", 3840, 2160}} {
		var pool []*mapped
		for i := 0; i < 4; i++ {
			src, err := synth.Moving(pf, size.w, size.h, 7*i)
			if err != nil {
				b.Fatal(err)
			}
			pool = append(pool, mapFrame(b, src, 0))
		}
		frameBytes := size.w * size.h * 3 / 2
		memcpy, gpuRate := baselines(b, dev, frameBytes)
		b.Run(size.name+"/memcpy", func(b *testing.B) {
			src, dst := make([]byte, frameBytes), make([]byte, frameBytes)
			copy(dst, src)
			b.SetBytes(int64(frameBytes))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				copy(dst, src)
			}
		})
		for _, how := range []planes.Upload{planes.UploadCopy, planes.UploadImport, planes.UploadDirect} {
			b.Run(fmt.Sprintf("%s/%v", size.name, how), func(b *testing.B) {
				im, err := planes.New(dev, pf, size.w, size.h, formats.PathSampler)
				if err != nil {
					b.Fatal(err)
				}
				defer im.Destroy()
				if err := im.Can(pool[0].Frame, how); err != nil {
					b.Skipf("%v: %v", how, err)
				}
				cb, err := dev.NewCommandBuffer()
				if err != nil {
					b.Fatal(err)
				}
				defer dev.FreeCommandBuffer(cb)
				fence, err := dev.NewFence(true)
				if err != nil {
					b.Fatal(err)
				}
				defer vk.DestroyFence(dev.Device, fence, nil)
				frame := func(i int) (planes.Loaded, time.Duration) {
					if err := dev.WaitFence(fence); err != nil {
						b.Fatal(err)
					}
					if err := gpu.Begin(cb); err != nil {
						b.Fatal(err)
					}
					t0 := time.Now()
					l, err := im.Load(cb, pool[i%len(pool)].Frame, how)
					d := time.Since(t0)
					if err != nil {
						b.Fatal(err)
					}
					if err := submitFrame(dev, cb, fence); err != nil {
						b.Fatal(err)
					}
					return l, d
				}
				for i := range pool { // warm: imports made, plans cached
					frame(i)
				}
				var l planes.Loaded
				var inLoad time.Duration
				b.SetBytes(int64(frameBytes))
				b.ResetTimer()
				cpu0, t0 := cpuTime(), time.Now()
				for i := 0; i < b.N; i++ {
					var d time.Duration
					l, d = frame(i)
					inLoad += d
				}
				if err := dev.WaitFence(fence); err != nil {
					b.Fatal(err)
				}
				wall, cpu := time.Since(t0), cpuTime()-cpu0
				b.StopTimer()
				n := float64(b.N)
				rate := mbps(frameBytes*b.N, wall)
				b.ReportMetric(float64(l.CPUBytes), "cpu-bytes/frame")
				b.ReportMetric(float64(inLoad.Microseconds())/n, "load-µs/frame")
				b.ReportMetric(float64(cpu.Microseconds())/n/1000, "cpu-ms/frame")
				b.ReportMetric(rate/memcpy, "x-memcpy")
				b.ReportMetric(rate/gpuRate, "x-gpucopy")
				if imp := im.Importer(); imp != nil && how == planes.UploadImport {
					if st := imp.Stats(); st.Imports != int64(len(pool)*3) {
						b.Errorf("steady state imported %d times, want %d: %+v", st.Imports, len(pool)*3, st)
					}
				}
			})
		}
		b.Logf("%s: memcpy %.0f MB/s, GPU buffer copy %.0f MB/s (%d bytes)", size.name, memcpy, gpuRate, frameBytes)
		for _, m := range pool {
			m.unmap(b)
		}
	}
}
