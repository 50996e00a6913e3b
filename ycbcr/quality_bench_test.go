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

// BenchmarkQualityPasses times, on the GPU (timestamps, one submission each, interleaved in every
// iteration), what issue 27's passes cost at 3840×2160 → 1920×1080, a 10-bit p010le picture (a
// gradient):
//
//   - dithering: the compute conversion (the variant the H100 uses) through the sampler path (SDR
//     BT.709) and through the shader path (PQ, tone-mapped), each with dither off and blue noise,
//     and the scale pass written into the target (RecordInto) off and blue: the *-dither-ms
//     metrics are the differences;
//
//   - peak-ms: the peak pass over the PQ picture (shaders/peak.comp);
//
//   - deband-ms: the debanding pass over the converted picture (DefaultDeband: four directions),
//     deband3-ms with three (which also meets issue 27's +6 dB: TestDeband), deband1-ms with
//     libplacebo's one direction.
//
//     go test -run '^$' -bench BenchmarkQualityPasses -benchtime 3x ./ycbcr/
func BenchmarkQualityPasses(b *testing.B) {
	const w, h, dw, dh = 3840, 2160, 1920, 1080
	dev := vktest.Open(b)
	conv, err := ycbcr.NewPaths(dev)
	if err != nil {
		b.Fatal(err)
	}
	defer conv.Destroy()
	pf, _ := formats.Lookup("p010le")
	f, err := formats.NewFrame(pf, w, h)
	if err != nil {
		b.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			f.SetCode(formats.Y, x, y, uint16(64+x*876/w))
		}
	}
	for y := 0; y < h/2; y++ {
		for x := 0; x < w/2; x++ {
			f.SetCode(formats.Cb, x, y, uint16(448+y*128/(h/2)))
			f.SetCode(formats.Cr, x, y, uint16(448+x*128/(w/2)))
		}
	}
	sdr := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	pq := ycbcr.Params{Matrix: formats.MatrixBT2020NCL, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft,
		Transfer: formats.TransferSMPTE2084, Primaries: formats.PrimariesBT2020, HDR: formats.HDRMetadata{MaxLuminance: 4000}}
	paths := []formats.Path{formats.PathShader}
	samplerOK := false
	if _, err := ycbcr.SamplerKey(dev, pf, sdr); err == nil {
		paths, samplerOK = append(paths, formats.PathSampler), true
	}
	im, err := planes.New(dev, pf, w, h, paths...)
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
	type variant struct {
		name string
		path formats.Path
		p    ycbcr.Params
		d    ycbcr.Dither
	}
	variants := []variant{{"shader-pq", formats.PathShader, pq, ycbcr.DitherOff}, {"shader-pq-blue", formats.PathShader, pq, ycbcr.DitherBlue}}
	if samplerOK {
		variants = append(variants, variant{"sampler", formats.PathSampler, sdr, ycbcr.DitherOff}, variant{"sampler-blue", formats.PathSampler, sdr, ycbcr.DitherBlue})
	} else {
		b.Logf("the sampler path cannot express p010le here: shader path only")
	}
	bindings := make([]*ycbcr.ComputeBinding, len(variants))
	for i, v := range variants {
		v.p.Dither = v.d
		if bindings[i], err = conv.BindCompute(im, v.p, v.path, store.View); err != nil {
			b.Fatal(err)
		}
		defer bindings[i].Destroy()
	}
	drawn, err := conv.Bind(im, pq, formats.PathShader)
	if err != nil {
		b.Fatal(err)
	}
	defer drawn.Destroy()
	pic, err := dev.NewSampledOffscreen(w, h)
	if err != nil {
		b.Fatal(err)
	}
	defer pic.Destroy()
	var recErr error
	if err := dev.Submit(func(cb vk.CommandBuffer) { // the picture the scale and deband passes read
		im.RecordUpload(cb)
		pic.Begin(cb)
		recErr = drawn.Draw(cb, pic)
		vk.CmdEndRenderPass(cb)
	}); err != nil || recErr != nil {
		b.Fatal(err, recErr)
	}
	intoTarget, err := dev.NewStorageOffscreen(dw, dh)
	if err != nil {
		b.Fatal(err)
	}
	defer intoTarget.Destroy()
	intoDst := ycbcr.StorageTarget{Image: intoTarget.Image, View: intoTarget.View, Format: gpu.TargetFormat, Width: dw, Height: dh}
	view := ycbcr.Fit(w, h, dw, dh, formats.Orientation{}, ycbcr.DefaultFilter)
	sc, err := ycbcr.NewScaler(dev)
	if err != nil {
		b.Fatal(err)
	}
	defer sc.Destroy()
	scaled, err := sc.Bind(pic.View, view)
	if err != nil {
		b.Fatal(err)
	}
	defer scaled.Destroy()
	peak, err := conv.Shader.BindPeak(im, pq)
	if err != nil {
		b.Fatal(err)
	}
	defer peak.Destroy()
	deb, err := ycbcr.NewDebander(dev)
	if err != nil {
		b.Fatal(err)
	}
	defer deb.Destroy()
	debanded, err := deb.Bind(pic.View, w, h)
	if err != nil {
		b.Fatal(err)
	}
	defer debanded.Destroy()
	one, three := ycbcr.DefaultDeband, ycbcr.DefaultDeband
	one.Samples, three.Samples = 1, 3

	type job struct {
		name   string
		record func(cb vk.CommandBuffer) error
		timer  *gpu.GPUTimer
	}
	var jobs []*job
	for i, v := range variants {
		bd := bindings[i]
		jobs = append(jobs, &job{name: "conv-" + v.name, record: func(cb vk.CommandBuffer) error {
			store.BeginCompute(cb)
			err := bd.Dispatch(cb, w, h)
			store.EndCompute(cb)
			return err
		}})
	}
	for _, d := range []ycbcr.Dither{ycbcr.DitherOff, ycbcr.DitherBlue} {
		d := d
		jobs = append(jobs, &job{name: "scale-into-" + d.String(), record: func(cb vk.CommandBuffer) error {
			scaled.Dither = d
			if err := scaled.RecordInto(cb, view, intoDst, 0, 0); err != nil {
				return err
			}
			gpu.BeginPass(cb, intoTarget.LoadPass, intoTarget.Framebuffer, dw, dh)
			vk.CmdEndRenderPass(cb)
			return nil
		}})
	}
	jobs = append(jobs,
		&job{name: "peak", record: func(cb vk.CommandBuffer) error { return peak.Record(cb, w, h) }},
		&job{name: "deband", record: func(cb vk.CommandBuffer) error { return debanded.Record(cb, ycbcr.DefaultDeband) }},
		&job{name: "deband3", record: func(cb vk.CommandBuffer) error { return debanded.Record(cb, three) }},
		&job{name: "deband1", record: func(cb vk.CommandBuffer) error { return debanded.Record(cb, one) }})
	for _, j := range jobs {
		if j.timer, err = dev.NewGPUTimer(1); err != nil || j.timer == nil {
			b.Fatalf("GPU timer: %v (timestamps: %v)", err, j.timer != nil)
		}
		defer j.timer.Destroy()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, j := range jobs {
			var recErr error
			err := dev.Submit(func(cb vk.CommandBuffer) {
				j.timer.Start(cb, 0)
				recErr = j.record(cb)
				j.timer.Stop(cb, 0)
			})
			if err != nil || recErr != nil {
				b.Fatal(j.name, err, recErr)
			}
		}
	}
	b.StopTimer()
	ms := map[string]float64{}
	for _, j := range jobs {
		j.timer.Finish()
		ms[j.name] = j.timer.MeanMs()
		b.ReportMetric(ms[j.name], j.name+"-ms")
	}
	b.ReportMetric(ms["conv-shader-pq-blue"]-ms["conv-shader-pq"], "shader-dither-ms")
	if samplerOK {
		b.ReportMetric(ms["conv-sampler-blue"]-ms["conv-sampler"], "sampler-dither-ms")
	}
	b.ReportMetric(ms["scale-into-blue"]-ms["scale-into-off"], "scale-dither-ms")
}
