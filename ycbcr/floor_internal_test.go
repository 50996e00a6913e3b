package ycbcr

import (
	"testing"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/shaders"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
)

// BenchmarkFloor puts a 1080p yuv420p conversion next to the cheapest passes that write the same
// target, on the default device without the validation layer: a render pass that only clears, a
// constant-colour draw (shaders/floor.frag), both drawn paths, the shader path in compute, a
// constant store per pixel into a buffer (shaders/floor.comp) and the buffer variant. Each op is one
// submission waited for; ms/frame is its wall time. Last, the buffer variant reading the frame's own
// memory, imported (planes.Importer.Import): no upload at all. On lavapipe this says what any conversion
// costs there at least (docs/performance.md).
//
//	go test -run '^$' -bench Floor -benchtime 20x ./ycbcr
func BenchmarkFloor(b *testing.B) {
	dev, err := gpu.Open(gpu.Options{Index: -1})
	if err != nil {
		b.Fatalf("no usable Vulkan device: %v", err)
	}
	defer dev.Close()
	const w, h = 1920, 1080
	pf, _ := formats.Lookup("yuv420p")
	f, err := synth.Noise(pf, w, h, 1)
	if err != nil {
		b.Fatal(err)
	}
	p := Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	target, err := dev.NewOffscreen(w, h)
	if err != nil {
		b.Fatal(err)
	}
	defer target.Destroy()
	conv, err := NewPaths(dev)
	if err != nil {
		b.Fatal(err)
	}
	defer conv.Destroy()
	paths := []formats.Path{formats.PathSampler, formats.PathShader}
	samplerOK := true
	if _, err := SamplerKey(dev, pf, p); err != nil {
		paths, samplerOK = paths[1:], false
	}
	im, err := planes.New(dev, pf, w, h, paths...)
	if err != nil {
		b.Fatal(err)
	}
	defer im.Destroy()
	var loadErr error
	if err := dev.Submit(func(cb vk.CommandBuffer) { _, loadErr = im.Load(cb, f, planes.UploadCopy) }); err != nil || loadErr != nil {
		b.Fatal(err, loadErr)
	}
	im.Done()

	run := func(b *testing.B, record func(cb vk.CommandBuffer)) {
		record2 := func(cb vk.CommandBuffer) { record(cb) }
		if err := dev.Submit(record2); err != nil { // warm-up: pipelines, caches
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := dev.Submit(record2); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
	}
	drawWith := func(draw func(cb vk.CommandBuffer)) func(cb vk.CommandBuffer) {
		return func(cb vk.CommandBuffer) {
			target.Begin(cb)
			draw(cb)
			vk.CmdEndRenderPass(cb)
		}
	}
	b.Run("clear", func(b *testing.B) { run(b, drawWith(func(vk.CommandBuffer) {})) })

	floorKit, err := drawPass(dev, "floor", nil, nil, shaders.FloorFrag, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer floorKit.Destroy()
	floorPipe, err := floorKit.Pipeline(0, target.RenderPass, gpu.TargetFormat, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("floor-draw", func(b *testing.B) {
		run(b, drawWith(func(cb vk.CommandBuffer) {
			vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, floorPipe)
			vk.CmdDraw(cb, 3, 1, 0, 0)
		}))
	})
	for _, path := range []formats.Path{formats.PathSampler, formats.PathShader} {
		if path == formats.PathSampler && !samplerOK {
			b.Logf("sampler path: %s cannot be sampled at top-left siting here", pf.Name)
			continue
		}
		bind, err := conv.Bind(im, p, path)
		if err != nil {
			b.Fatal(err)
		}
		defer bind.Destroy()
		b.Run(path.String()+"-draw", func(b *testing.B) {
			run(b, drawWith(func(cb vk.CommandBuffer) { bind.Draw(cb, target) }))
		})
	}
	storage, err := dev.NewStorageOffscreen(w, h)
	if err == nil {
		defer storage.Destroy()
		cb, err := conv.BindCompute(im, p, formats.PathShader, storage.View)
		if err != nil {
			b.Fatal(err)
		}
		defer cb.Destroy()
		b.Run("shader-compute", func(b *testing.B) {
			run(b, func(c vk.CommandBuffer) {
				storage.BeginCompute(c)
				cb.Dispatch(c, w, h)
				storage.EndCompute(c)
			})
		})
	} else {
		b.Logf("no storage target: %v", err)
	}

	bp, err := NewBufferPath(dev)
	if err != nil {
		b.Fatal(err)
	}
	defer bp.Destroy()
	out, err := dev.NewBuffer(4*w*h, vk.BufferUsageStorageBufferBit, vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Destroy()
	floor, err := dev.NewKit(gpu.KitDesc{Name: "floor", Bindings: gpu.StorageBuffers(4), PushStages: vk.ShaderStageComputeBit,
		PushBytes: shaders.BufferParamsSize, Shaders: []gpu.Shader{{Kind: gpu.Compute, Code: shaders.FloorComp}}})
	if err != nil {
		b.Fatal(err)
	}
	defer floor.Destroy()
	floorComp, err := floor.Pipeline(0, vk.NullRenderPass, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	set, err := floor.Allocate()
	if err != nil {
		b.Fatal(err)
	}
	bs := vkx.BufferSet{Set: set.Set}
	o := vkx.BufferHandle(out.Handle)
	push := &BufferParams{Offsets: [4]uint32{w * h}} // floor.comp reads its pixel count from the first word
	b.Run("floor-compute", func(b *testing.B) {
		run(b, func(cb vk.CommandBuffer) {
			vkx.CmdBindBuffers(dev.Device, cb, floor.Layout, floorComp, &bs, []uint64{o, o, o, o})
			vkx.CmdDispatchGroups(cb, floor.Layout, unsafe.Pointer(push), shaders.BufferParamsSize, (w*h+shaders.BufferGroup-1)/shaders.BufferGroup)
		})
	})
	// The planes as buffers: the staging layout Stage wrote is one buffer with the planes in a row.
	in, err := dev.NewBuffer(len(f.Planes[0])+2*len(f.Planes[1])+16, vk.BufferUsageStorageBufferBit,
		vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Destroy()
	mem := in.Bytes()
	o1 := copy(mem, f.Planes[0])
	o2 := o1 + copy(mem[o1:], f.Planes[1])
	copy(mem[o2:], f.Planes[2])
	bb, err := bp.Bind(pf, w, h, p, false)
	if err != nil {
		b.Fatal(err)
	}
	defer bb.Destroy()
	ih := vkx.BufferHandle(in.Handle)
	b.Run("buffer-compute", func(b *testing.B) {
		run(b, func(cb vk.CommandBuffer) {
			bb.Record(cb, [3]uint64{ih, ih, ih}, [3]uint64{0, uint64(o1), uint64(o2)},
				[3]int{f.Strides[0], f.Strides[1], f.Strides[2]}, o, 0, w)
		})
	})
	// The same from the frame's own memory, imported: nothing copied at all.
	imp, err := planes.NewImporter(dev, planes.DefaultImportCapacity)
	if err != nil {
		b.Logf("no import: %v", err)
		return
	}
	defer imp.Destroy()
	var fr planes.ImportedFrame
	if err := imp.Import(f, &fr); err != nil {
		b.Fatal(err)
	}
	defer func() {
		fr.Release()
		imp.ForgetFrame(f)
	}()
	b.Run("buffer-compute-imported", func(b *testing.B) {
		run(b, func(cb vk.CommandBuffer) {
			bb.Record(cb, fr.Buffers, fr.Offsets, fr.Strides, o, 0, w)
		})
	})
}
