package ycbcr_test

import (
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// BenchmarkScalePass times, on the GPU (timestamps, one submission each), the scale pass of a
// 3840×2160 picture into 1920×1080 — the case — with the weight table and with the kernel
// evaluated per sample (the pass before the table), side by side in each iteration, and the
// compute conversion of a 2160p yuv420p picture through the sampler path (the variant the H100
// uses there) as the yardstick: table/conv is the pass's cost as a fraction of the conversion.
// The table's pass is also timed in its two halves, each in a submission of its own: table-comp-ms
// the filtering in compute (Record alone) and draw-ms the last step (Draw alone: scale.frag's one
// fetch per pixel onto the 1080p target, after that Record), as its cost splits between them.
// into-ms is the table's pass with its last step written by compute straight into a storage target
// (RecordInto: the rows, then scale_target.comp's columns into the target, then the pass that loads
// it for the on-screen display, empty here), the player's choice where the target allows storage:
// into/table is its cost against the drawn pass's.
//
//	go test -run '^$' -bench BenchmarkScalePass -benchtime 3x ./ycbcr/
func BenchmarkScalePass(b *testing.B) {
	const w, h, dw, dh = 3840, 2160, 1920, 1080
	dev := vktest.Open(b)
	conv, err := ycbcr.NewPaths(dev)
	if err != nil {
		b.Fatal(err)
	}
	defer conv.Destroy()
	pf, _ := formats.Lookup("yuv420p")
	f, err := formats.NewFrame(pf, w, h)
	if err != nil {
		b.Fatal(err)
	}
	zp := zonePlate(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			f.SetCode(formats.Y, x, y, uint16(16+int(zp(x, y)[0])*219/255))
		}
	}
	for y := 0; y < h/2; y++ {
		for x := 0; x < w/2; x++ {
			f.SetCode(formats.Cb, x, y, 128)
			f.SetCode(formats.Cr, x, y, 128)
		}
	}
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaLeft}
	// The sampler path where the device can (the H100 can), else the shader path (lavapipe has no
	// MIDPOINT chroma samples for 4:2:0).
	path := formats.PathSampler
	if _, err := ycbcr.SamplerKey(dev, pf, p); err != nil {
		path = formats.PathShader
	}
	b.Logf("conversion: %s path, compute variant", path)
	im, err := planes.New(dev, pf, w, h, path)
	if err != nil {
		b.Fatal(err)
	}
	defer im.Destroy()
	if err := im.Stage(f); err != nil {
		b.Fatal(err)
	}
	store, err := dev.NewStorageOffscreen(w, h)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Destroy()
	cb1, err := conv.BindCompute(im, p, path, store.View)
	if err != nil {
		b.Fatal(err)
	}
	defer cb1.Destroy()
	drawn, err := conv.Bind(im, p, path)
	if err != nil {
		b.Fatal(err)
	}
	defer drawn.Destroy()
	pic, err := dev.NewSampledOffscreen(w, h)
	if err != nil {
		b.Fatal(err)
	}
	defer pic.Destroy()
	target, err := dev.NewOffscreen(dw, dh)
	if err != nil {
		b.Fatal(err)
	}
	defer target.Destroy()
	intoTarget, err := dev.NewStorageOffscreen(dw, dh)
	if err != nil {
		b.Fatal(err)
	}
	defer intoTarget.Destroy()
	intoDst := ycbcr.StorageTarget{Image: intoTarget.Image, View: intoTarget.View, Format: gpu.TargetFormat, Width: dw, Height: dh}
	// The picture the scale pass reads: converted once.
	var recErr error
	if err := dev.Submit(func(cb vk.CommandBuffer) {
		im.RecordUpload(cb)
		pic.Begin(cb)
		recErr = drawn.Draw(cb, pic)
		vk.CmdEndRenderPass(cb)
	}); err != nil || recErr != nil {
		b.Fatal(err, recErr)
	}
	for _, filter := range []ycbcr.Filter{ycbcr.FilterLanczos, ycbcr.FilterCatmullRom} {
		b.Run(filter.String(), func(b *testing.B) {
			v := ycbcr.Fit(w, h, dw, dh, formats.Orientation{}, filter)
			var timers [6]*gpu.GPUTimer // conversion, direct, table, table's Record, table's Draw, table into the target
			var targets [2]*ycbcr.ScaleTarget
			for i := range timers {
				if timers[i], err = dev.NewGPUTimer(1); err != nil || timers[i] == nil {
					b.Fatalf("GPU timer: %v (timestamps: %v)", err, timers[i] != nil)
				}
				defer timers[i].Destroy()
			}
			for i := range targets {
				s, err := ycbcr.NewScaler(dev)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Destroy()
				ycbcr.SetScalerDirect(s, i == 0)
				if targets[i], err = s.Bind(pic.View, v); err != nil {
					b.Fatal(err)
				}
				defer targets[i].Destroy()
			}
			submit := func(timer *gpu.GPUTimer, record func(cb vk.CommandBuffer) error) {
				var recErr error
				err := dev.Submit(func(cb vk.CommandBuffer) {
					timer.Start(cb, 0)
					recErr = record(cb)
					timer.Stop(cb, 0)
				})
				if err != nil || recErr != nil {
					b.Fatal(err, recErr)
				}
			}
			scale := func(t *ycbcr.ScaleTarget) func(cb vk.CommandBuffer) error {
				return func(cb vk.CommandBuffer) error {
					if err := t.Record(cb, v); err != nil {
						return err
					}
					target.Begin(cb)
					err := t.Draw(cb, target, v)
					vk.CmdEndRenderPass(cb)
					return err
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				submit(timers[0], func(cb vk.CommandBuffer) error {
					store.BeginCompute(cb)
					err := cb1.Dispatch(cb, w, h)
					store.EndCompute(cb)
					return err
				})
				submit(timers[1], scale(targets[0]))
				submit(timers[2], scale(targets[1]))
				submit(timers[3], func(cb vk.CommandBuffer) error { return targets[1].Record(cb, v) })
				submit(timers[4], func(cb vk.CommandBuffer) error {
					target.Begin(cb)
					err := targets[1].Draw(cb, target, v)
					vk.CmdEndRenderPass(cb)
					return err
				})
				submit(timers[5], func(cb vk.CommandBuffer) error {
					if err := targets[1].RecordInto(cb, v, intoDst, 0, 0); err != nil {
						return err
					}
					gpu.BeginPass(cb, intoTarget.LoadPass, intoTarget.Framebuffer, dw, dh)
					vk.CmdEndRenderPass(cb)
					return nil
				})
			}
			b.StopTimer()
			for _, t := range timers {
				t.Finish()
			}
			c, d, t := timers[0].MeanMs(), timers[1].MeanMs(), timers[2].MeanMs()
			b.ReportMetric(c, "conv-ms")
			b.ReportMetric(d, "direct-ms")
			b.ReportMetric(t, "table-ms")
			b.ReportMetric(timers[3].MeanMs(), "table-comp-ms")
			b.ReportMetric(timers[4].MeanMs(), "draw-ms")
			into := timers[5].MeanMs()
			b.ReportMetric(into, "into-ms")
			b.ReportMetric(into/t, "into/table")
			b.ReportMetric(into/c, "into/conv")
			b.ReportMetric(t/d, "table/direct")
			b.ReportMetric(d/c, "direct/conv")
			b.ReportMetric(t/c, "table/conv")
		})
	}
}
