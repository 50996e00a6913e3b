package planes_test

import (
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// BenchmarkDirectDraw puts the direct route next to import: yuv420p frames in the decoder pool's
// layout (four buffers, reused in turn), each loaded and converted through the sampler path into an
// offscreen target, one frame in flight (record, submit, wait), no validation layer. ms/frame is the
// wall time per frame; sampling in place reads the frame over the bus while drawing, import copies
// it to the GPU first. Where the device cannot sample these frames in place (lavapipe), the direct
// runs are skipped with the reason.
//
//	go test -run '^$' -bench DirectDraw ./planes
func BenchmarkDirectDraw(b *testing.B) {
	dev, err := gpu.Open(gpu.Options{Index: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer dev.Close()
	conv, err := ycbcr.NewPaths(dev)
	if err != nil {
		b.Fatal(err)
	}
	defer conv.Destroy()
	pf, _ := formats.Lookup("yuv420p")
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	for _, size := range []struct {
		name string
		w, h int
	}{{"1080p", 1920, 1080}, {"2160p", 3840, 2160}} {
		var pool []*mapped
		for i := 0; i < 4; i++ {
			src, err := synth.Moving(pf, size.w, size.h, 3*i)
			if err != nil {
				b.Fatal(err)
			}
			pool = append(pool, poolFrame(b, src))
		}
		for _, how := range []planes.Upload{planes.UploadImport, planes.UploadDirect} {
			b.Run(size.name+"/"+how.String(), func(b *testing.B) {
				im, err := planes.New(dev, pf, size.w, size.h, formats.PathSampler)
				if err != nil {
					b.Fatal(err)
				}
				defer im.Destroy()
				if err := im.Can(pool[0].Frame, how); err != nil {
					b.Skipf("%v: %v", how, err)
				}
				bind, err := conv.Bind(im, p, formats.PathSampler)
				if err != nil {
					b.Fatal(err)
				}
				defer bind.Destroy()
				target, err := dev.NewOffscreen(size.w, size.h)
				if err != nil {
					b.Fatal(err)
				}
				defer target.Destroy()
				frame := func(i int) {
					var loadErr, drawErr error
					err := dev.Submit(func(cb vk.CommandBuffer) {
						if _, loadErr = im.Load(cb, pool[i%len(pool)].Frame, how); loadErr != nil {
							return
						}
						target.Begin(cb)
						drawErr = bind.Draw(cb, target)
						vk.CmdEndRenderPass(cb)
					})
					for _, e := range []error{err, loadErr, drawErr} {
						if e != nil {
							b.Fatal(e)
						}
					}
				}
				for i := 0; i < 2*len(pool); i++ { // the first frame in each buffer is imported
					frame(i)
				}
				b.ResetTimer()
				start := time.Now()
				for i := 0; i < b.N; i++ {
					frame(i)
				}
				b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/frame")
				b.StopTimer()
				im.Done()
				im.DropDirect()
			})
		}
		for _, m := range pool {
			m.unmap(b)
		}
	}
}
