package videotex_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// hwEngine is an engine that creates its Vulkan 1.3 instance and device itself for hardware
// decoding, as docs/engine.md says: HWRequirements' extensions, feature chain and decode queues,
// validation on (the layer's version decides VK_KHR_video_maintenance1, as HWQuery says).
type hwEngine struct {
	ed     videotex.EngineDevice
	req    videotex.HWDecode
	helper *gpu.Device // a wrap of the engine's device for the test engine's helpers
	lock   *bridgeLock
	isq    bool // queues internally synchronized: the engine submits without its lock
	valid  bool // the validation layer is on
}

// hwOptions change newHWEngineWith's device.
type hwOptions struct {
	// isq: the first device that offers VK_KHR_internally_synchronized_queues (Requirements says
	// which; the test skips without one), its queues created with the flag and fetched with
	// vkGetDeviceQueue2, EngineDevice.InternallySynchronizedQueues set, the lock still lent (so that
	// a call to it shows). The validation layer is on where it knows the extension (layerKnowsISQ),
	// else off, as the log says: an older one reports the flag and the feature struct as unknown
	// and the queue's concurrent use as a threading error.
	isq bool
}

// layerKnowsISQ is the first Vulkan header version with VK_KHR_internally_synchronized_queues
// (Vulkan-Headers 1.4.340, January 2026), so the first validation layer that knows its flag,
// feature struct and threading rules. Debian 12's layer, carried to the GPU machine, is 1.3.239.
var layerKnowsISQ = vk.MakeVersion(1, 4, 340)

// bridgeLock is the engine's queue lock; it counts the times FFmpeg took it through lock_queue
// (the C bridge's exported Go function is on the stack then).
type bridgeLock struct {
	sync.Mutex
	ffmpeg, all int
}

func (l *bridgeLock) Lock() {
	l.Mutex.Lock()
	l.all++
	buf := make([]byte, 8192)
	if bytes.Contains(buf[:runtime.Stack(buf, false)], []byte("avxEngineQueueLock")) {
		l.ffmpeg++
	}
}

func (l *bridgeLock) counts() (ffmpeg, all int) {
	l.Mutex.Lock()
	defer l.Mutex.Unlock()
	return l.ffmpeg, l.all
}

func newHWEngine(t *testing.T) *hwEngine {
	t.Helper()
	return newHWEngineWith(t, hwOptions{})
}

func newHWEngineWith(t *testing.T, o hwOptions) *hwEngine {
	t.Helper()
	validate := true
	if o.isq {
		if v := gpu.ValidationLayerVersion(); v < layerKnowsISQ {
			validate = false
			t.Logf("validation off: the installed layer is %d.%d.%d; it knows %s from 1.4.340 on",
				v>>22, (v>>12)&0x3ff, v&0xfff, videotex.ExtInternallySynchronizedQueues)
		}
	}
	inst, pds := engineInstanceWith(t, vkx.APIVersion13, validate)
	if len(pds) == 0 {
		t.Fatal("no Vulkan device")
	}
	if o.isq {
		var offering []vk.PhysicalDevice
		var missing []string
		for _, pd := range pds {
			var props vk.PhysicalDeviceProperties
			vk.GetPhysicalDeviceProperties(pd, &props)
			props.Deref()
			name := vk.ToString(props.DeviceName[:])
			r, err := videotex.Requirements(inst, pd)
			if err != nil {
				t.Logf("%s: %v", name, err)
				continue
			}
			dn, di := vkx.DriverProperties(pd)
			if r.InternallySynchronized.Offered {
				t.Logf("%s (%s %s): offers %s with its feature", name, dn, di, videotex.ExtInternallySynchronizedQueues)
				offering = append(offering, pd)
			} else {
				t.Logf("%s (%s %s): %s", name, dn, di, r.InternallySynchronized.Missing)
				missing = append(missing, r.InternallySynchronized.Missing)
			}
		}
		if len(offering) == 0 {
			vk.DestroyInstance(inst, nil)
			t.Skipf("no device offers %s (%s)", videotex.ExtInternallySynchronizedQueues, strings.Join(missing, "; "))
		}
		pds = offering
	}
	// The first device that decodes, else the first.
	pd := pds[0]
	var req videotex.HWDecode
	for i := len(pds) - 1; i >= 0; i-- {
		r, err := videotex.HWRequirements(inst, pds[i], videotex.HWQuery{Validation: validate})
		if err != nil {
			t.Fatal(err)
		}
		if r.Available || i == 0 {
			pd, req = pds[i], r
		}
		if r.Available {
			break
		}
	}
	base, err := videotex.Requirements(inst, pd)
	if err != nil {
		t.Fatal(err)
	}
	var msgr vkx.Messenger
	if validate {
		if msgr, err = vkx.CreateDebugMessenger(inst); err != nil {
			t.Fatal(err)
		}
	}
	family := queueFamily(pd, base.QueueFlags)
	exts := append([]string{}, req.Extensions...)
	var flags vk.DeviceQueueCreateFlags
	var next unsafe.Pointer
	freeISQ := func() {}
	if o.isq {
		flags = videotex.DeviceQueueCreateInternallySynchronized
		exts = append(exts, videotex.ExtInternallySynchronizedQueues)
		next, freeISQ = base.InternallySynchronizedChain(nil)
	}
	qcis := []vk.DeviceQueueCreateInfo{{SType: vk.StructureTypeDeviceQueueCreateInfo, Flags: flags, QueueFamilyIndex: family,
		QueueCount: 1, PQueuePriorities: []float32{1}}}
	if req.Available && req.DecodeFamily != family {
		prio := make([]float32, req.DecodeQueues)
		for i := range prio {
			prio[i] = 1
		}
		qcis = append(qcis, vk.DeviceQueueCreateInfo{SType: vk.StructureTypeDeviceQueueCreateInfo, Flags: flags,
			QueueFamilyIndex: req.DecodeFamily, QueueCount: req.DecodeQueues, PQueuePriorities: prio})
	}
	chain, free := req.FeatureChain(next) // samplerYcbcrConversion included: not base.FeatureChain too
	device := createEngineDevice(t, pd, qcis, exts, chain)
	free()
	freeISQ()
	var queue vk.Queue
	if o.isq {
		queue = vkx.GetDeviceQueue2(device, family, 0, uint32(flags))
	} else {
		vk.GetDeviceQueue(device, family, 0, &queue)
	}
	e := &hwEngine{req: req, lock: &bridgeLock{}, isq: o.isq, valid: validate}
	e.ed = videotex.EngineDevice{Instance: inst, Physical: pd, Device: device, Queue: queue, QueueFamily: family,
		Extensions: exts, QueueLock: e.lock, HWDecode: &e.req, InternallySynchronizedQueues: o.isq}
	if e.helper, err = gpu.Wrap(inst, pd, device, queue, family, exts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		vk.DeviceWaitIdle(device) // the engine's exit: every queue's work (FFmpeg's included) is done
		e.helper.Release()
		vk.DestroyDevice(device, nil)
		if validate {
			vkx.DestroyDebugMessenger(inst, msgr)
		}
		vk.DestroyInstance(inst, nil)
	})
	return e
}

// play draws frames pictures of url, picked by next, with the engine's queue lock held around its
// submissions (FFmpeg submits to the same queue from its threads), one frame in flight, and keeps
// what was drawn for the frame numbers in grab. It returns how the texture decoded.
func (e *hwEngine) play(t *testing.T, url string, opts videotex.Options, hooks videotex.Hooks, frames int, w, h int,
	next func(*videotex.Texture) (*videotex.Frame, error), grab map[int]bool) (played, map[int]*image.RGBA, error) {
	t.Helper()
	te := newTestEngine(t, e.helper, w, h)
	defer te.destroy() // before the device goes
	te.readback = true
	d := e.ed.Device
	tex, err := videotex.OpenHooked(e.ed, url, opts, hooks)
	if err != nil {
		return played{}, nil, err
	}
	defer tex.Close()
	result := func() played { return played{tex.Decoding(), tex.Stats()} }
	var gen uint64
	var setLayout vk.DescriptorSetLayout
	var pool vk.DescriptorPool
	var set vk.DescriptorSet
	defer func() {
		vk.DestroyDescriptorPool(d, pool, nil)
		vk.DestroyDescriptorSetLayout(d, setLayout, nil)
	}()
	pics := map[int]*image.RGBA{}
	for n := 0; n < frames; n++ {
		f, err := next(tex)
		if err != nil {
			return result(), pics, err
		}
		if f.Generation != gen {
			vk.DestroyDescriptorPool(d, pool, nil)
			vk.DestroyDescriptorSetLayout(d, setLayout, nil)
			lci := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: 1,
				PBindings: []vk.DescriptorSetLayoutBinding{f.LayoutBinding(0, vk.ShaderStageFlags(vk.ShaderStageFragmentBit))}}
			err := vkx.Check(vk.CreateDescriptorSetLayout(d, lci, nil, &setLayout), "vkCreateDescriptorSetLayout")
			lci.Free()
			pci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: 1,
				PoolSizeCount: 1, PPoolSizes: []vk.DescriptorPoolSize{f.PoolSize(1)}}
			if err == nil {
				err = vkx.Check(vk.CreateDescriptorPool(d, pci, nil, &pool), "vkCreateDescriptorPool")
			}
			pci.Free()
			ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: pool,
				DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{setLayout}}
			if err == nil {
				err = vkx.Check(vk.AllocateDescriptorSets(d, ai, &set), "vkAllocateDescriptorSets")
			}
			ai.Free()
			if err == nil {
				err = te.BuildPipelines(setLayout)
			}
			if err != nil {
				f.Discard()
				return result(), pics, err
			}
			gen = f.Generation
		}
		wr := []vk.WriteDescriptorSet{{SType: vk.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: 0,
			DescriptorCount: 1, DescriptorType: vk.DescriptorTypeCombinedImageSampler,
			PImageInfo: []vk.DescriptorImageInfo{f.ImageInfo()}}}
		vk.UpdateDescriptorSets(d, 1, wr, 0, nil)
		cb, err := te.Record(0, set, f.UVScale)
		if err != nil {
			f.Discard()
			return result(), pics, err
		}
		si := []vk.SubmitInfo{{SType: vk.StructureTypeSubmitInfo,
			WaitSemaphoreCount: 1, PWaitSemaphores: []vk.Semaphore{f.Wait}, PWaitDstStageMask: []vk.PipelineStageFlags{f.WaitStage},
			CommandBufferCount: 1, PCommandBuffers: []vk.CommandBuffer{cb}}}
		if !e.isq { // internally synchronized: FFmpeg's threads submit to the same queue meanwhile, unlocked
			e.lock.Lock()
		}
		res := vk.QueueSubmit(e.ed.Queue, 1, si, te.Fence(0))
		if !e.isq {
			e.lock.Unlock()
		}
		si[0].Free()
		if res != vk.Success {
			f.Discard()
			return result(), pics, fmt.Errorf("vkQueueSubmit: %d", res)
		}
		err = te.WaitSlot(0)
		f.Done()
		if err != nil {
			return result(), pics, err
		}
		if grab[n] {
			pics[n] = te.Picture()
		}
	}
	return result(), pics, nil
}

// played is how a texture decoded and what it counted.
type played struct {
	videotex.Decoding
	videotex.Stats
}

// checkRoute: pictures the test put into FFmpeg's Vulkan frames (Hooks.HWUpload) were copied (the
// texture never samples FFmpeg's image in place), with the reason given; decoded in software on a
// device without Vulkan Video (HWRequirements says which device that is).
func (e *hwEngine) checkRoute(t *testing.T, name string, got played) {
	t.Helper()
	if got.Route.Route != stream.RouteCopy || got.Route.Reason == "" {
		t.Errorf("%s: route %+v; want the GPU copy, with why", name, got.Route)
	}
	if !e.req.Available && (got.Decode.HW || got.Decode.Reason == "") {
		t.Errorf("%s: decode %+v on a device without Vulkan Video; want software, with why", name, got.Decode)
	}
}

func (e *hwEngine) checkValidation(t *testing.T) {
	t.Helper()
	for _, m := range vkx.Messages() {
		t.Errorf("validation %s", m.Text)
	}
}

// TestHWDecSoftwareReason: an engine's device not created for hardware decoding gets software
// decoding and the reason, in auto; HWDecVulkan fails Open in one line naming what is missing. On
// lavapipe the device offers no VK_KHR_video_decode_queue (its extension list says so
// independently of the toolkit).
func TestHWDecSoftwareReason(t *testing.T) {
	dev := testDevice(t)
	offered := false
	var n uint32
	vk.EnumerateDeviceExtensionProperties(dev.Physical, "", &n, nil)
	props := make([]vk.ExtensionProperties, n)
	vk.EnumerateDeviceExtensionProperties(dev.Physical, "", &n, props)
	for _, p := range props[:n] {
		p.Deref()
		offered = offered || vk.ToString(p.ExtensionName[:]) == "VK_KHR_video_decode_queue"
	}
	if offered {
		t.Fatalf("%s offers VK_KHR_video_decode_queue: this test is for a device without it", dev.Info.Name)
	}
	req, err := videotex.HWRequirements(dev.Instance, dev.Physical, videotex.HWQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if req.Available || !strings.Contains(req.Missing, "VK_KHR_video_decode_queue") || len(req.Extensions) != 0 {
		t.Errorf("HWRequirements on %s: %+v; want unavailable for lack of VK_KHR_video_decode_queue", dev.Info.Name, req)
	}
	tex, err := videotex.Open(engineDevice(dev), defaultClip(t), videotex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := tex.Decoding()
	tex.Close()
	if d.Decode.HW || d.Route.Route != stream.RouteNone || !strings.Contains(d.Decode.Reason, "EngineDevice.HWDecode is nil") ||
		!strings.Contains(d.Decode.Reason, "VK_KHR_video_decode_queue") || strings.Contains(d.Decode.Decoder, "vulkan") {
		t.Errorf("auto on an engine device without decoding: %+v; want software, no route, the reason", d)
	}
	if after := tex.Decoding(); after != d {
		t.Errorf("after Close: %+v, before: %+v", after, d)
	}
	t.Logf("auto: %s", d)

	_, err = videotex.Open(engineDevice(dev), defaultClip(t), videotex.Options{HWDec: decode.HWDecVulkan})
	if err == nil || !errors.Is(err, decode.ErrNoHWDec) || !strings.Contains(err.Error(), "VK_KHR_video_decode_queue") ||
		strings.Contains(err.Error(), "\n") {
		t.Errorf("HWDecVulkan without decoding: %v; want one line naming VK_KHR_video_decode_queue", err)
	}
	t.Logf("vulkan: %v", err)
	ed := engineDevice(dev)
	ed.HWDecode = &req
	_, err = videotex.Open(ed, defaultClip(t), videotex.Options{HWDec: decode.HWDecVulkan})
	if err == nil || !strings.Contains(err.Error(), req.Missing) {
		t.Errorf("HWDecVulkan with HWDecode unavailable: %v; want %q", err, req.Missing)
	}
}

// TestHWFramesRoute: the route of hardware-decoded pictures, on a device that decodes nothing. The
// engine creates its Vulkan 1.3 device from HWRequirements (on lavapipe: the features FFmpeg's
// Vulkan frames need); every test vector in a format a Vulkan decoder outputs goes, decoded in
// software, through one of FFmpeg's own Vulkan frames (decode.Uploader: its multi-planar image,
// timeline semaphore and layout), is copied on the GPU into the texture and drawn by the engine,
// and is compared with zscale's picture as TestVectorsThroughListing does. FFmpeg's submissions to
// the engine's queue take the engine's lock (lock_queue through the C bridge). Validation on.
func TestHWFramesRoute(t *testing.T) {
	e := newHWEngine(t)
	if !e.req.Features.TimelineSemaphore || !e.req.Features.Synchronization2 {
		t.Fatalf("%+v: the device lacks what FFmpeg's Vulkan frames need", e.req)
	}
	limits := map[formats.Path]float64{formats.PathShader: 1, formats.PathSampler: 4}
	tested := 0
	for _, v := range pictest.Vectors(t, mediaDir) {
		// What FFmpeg 7.1's Vulkan decoders output for 8-bit 4:2:0 is nv12 (and yuv420p decodes go
		// to it the same way); an odd size checks the crop of a padded frame.
		if v.PixFmt != "nv12" && v.Name != "odd_63x47" && v.PixFmt != "yuv420p" {
			continue
		}
		want := pictest.ReadPNG(t, filepath.Join(mediaDir, v.PNG))
		var path formats.Path
		opts := videotex.Options{OnChange: func(c videotex.Change) { path = c.Path }}
		got, pics, err := e.play(t, filepath.Join(mediaDir, v.File), opts, videotex.Hooks{HWUpload: true}, 1, v.Width, v.Height, step, map[int]bool{0: true})
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if got.HWCopied != 1 {
			t.Errorf("%s: %d pictures copied from Vulkan frames, want 1", v.Name, got.HWCopied)
		}
		e.checkRoute(t, v.Name, got)
		e.checkValidation(t)
		d, err := maxDiff(pics[0], want)
		switch {
		case err != nil:
			t.Errorf("%s: %v", v.Name, err)
		case d > limits[path]:
			t.Errorf("%s via Vulkan frames, %s: %.0f LSB from zscale (limit %.0f)", v.Name, path, d, limits[path])
		default:
			t.Logf("%s via Vulkan frames, %s: within %.0f LSB of zscale", v.Name, path, d)
			tested++
		}
	}
	if tested < 3 {
		t.Errorf("%d vectors went through Vulkan frames; want at least 3", tested)
	}
	// A run of pictures: the ring retires each Vulkan frame on its copy's fence.
	const frames = 20
	got, pics, err := e.play(t, defaultClip(t), videotex.Options{Loop: true}, videotex.Hooks{HWUpload: true}, frames, 64, 36, step,
		map[int]bool{frames - 1: true})
	if err != nil {
		t.Fatal(err)
	}
	e.checkValidation(t)
	if got.HWCopied != frames || pics[frames-1] == nil {
		t.Errorf("%d frames: %+v", frames, got)
	}
	e.checkRoute(t, "a run", got)
	t.Logf("decoding: %s", got.Decoding)
	if ff, all := e.lock.counts(); ff == 0 {
		t.Errorf("FFmpeg never took the engine's queue lock (%d locks in all)", all)
	} else {
		t.Logf("the engine's queue lock: %d times by FFmpeg's lock_queue, %d in all", ff, all)
	}
}

// TestHWDecodeEngineDevice runs on a machine with Vulkan Video (scripts/device/run.sh hwdec):
// an engine creates its device with HWRequirements (the decode queue family, extensions, feature
// chain; VK_KHR_video_maintenance1 withheld under an old validation layer) and plays
// $YCBCRKIT_HWDEC_CLIPS/hevc-1080p.mkv through Vulkan Video decoding into the texture; frames 0,
// 29 and 59 drawn by the engine are compared with the same frames decoded in software through the
// same texture and engine (the software path is itself held to zscale by TestVectorsThroughListing;
// HEVC decoding is exact, so the two differ at most by the conversion's rounding of nv12 against
// yuv420p). Validation on.
func TestHWDecodeEngineDevice(t *testing.T) {
	dir := os.Getenv("YCBCRKIT_HWDEC_CLIPS")
	if dir == "" {
		t.Skip("YCBCRKIT_HWDEC_CLIPS is not set (a run on a machine with Vulkan Video sets it)")
	}
	clip := filepath.Join(dir, "hevc-1080p.mkv")
	e := newHWEngine(t)
	if !e.req.Available {
		t.Fatalf("no Vulkan Video decoding: %s", e.req.Missing)
	}
	t.Logf("HWRequirements: extensions %v, decode family %d × %d, codecs %v, features %+v, withheld %q",
		e.req.Extensions, e.req.DecodeFamily, e.req.DecodeQueues, e.req.Codecs, e.req.Features, e.req.Withheld)
	grab := map[int]bool{0: true, 29: true, 59: true}
	const frames = 60
	start := time.Now()
	hw, hwPics, err := e.play(t, clip, videotex.Options{HWDec: decode.HWDecVulkan}, videotex.Hooks{}, frames, 1920, 1080, step, grab)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("hardware: %v (%+v)", err, hw)
	}
	e.checkValidation(t)
	if !hw.Decode.HW || hw.Decode.Decoder != "hevc (vulkan)" || hw.Decode.Reason != "" || hw.HWCopied != frames {
		t.Fatalf("hardware decoding (asked for): %+v", hw)
	}
	e.checkRoute(t, "hardware", hw)
	t.Logf("hardware: %s, %+v; %d frames in %v", hw.Decoding, hw.Stats, frames, elapsed)
	sw, swPics, err := e.play(t, clip, videotex.Options{HWDec: decode.HWDecNo}, videotex.Hooks{}, frames, 1920, 1080, step, grab)
	if err != nil {
		t.Fatalf("software: %v", err)
	}
	e.checkValidation(t)
	if sw.Decode.HW || sw.Decode.Decoder != "hevc" || !strings.Contains(sw.Decode.Reason, "Options.HWDec is no") ||
		sw.Route.Route != stream.RouteNone || sw.HWCopied != 0 {
		t.Fatalf("software decoding (asked for): %+v", sw)
	}
	for n := range grab {
		if hwPics[n] == nil || swPics[n] == nil {
			t.Errorf("frame %d: not drawn", n)
			continue
		}
		d, err := maxDiff(hwPics[n], swPics[n])
		if err != nil || d > 1 {
			t.Errorf("frame %d: hardware vs software through the texture: %.0f LSB (%v); want ≤ 1", n, d, err)
		} else {
			t.Logf("frame %d: hardware within %.0f LSB of software", n, d)
		}
	}
	if ff, all := e.lock.counts(); ff == 0 {
		t.Errorf("FFmpeg never took the engine's queue lock (%d locks in all)", all)
	} else {
		t.Logf("the engine's queue lock: %d times by FFmpeg's lock_queue, %d in all", ff, all)
	}
}

// stepWaitingIdle opens n looping textures of the default clip through FFmpeg's Vulkan frames
// (Hooks.HWUpload: their decoder goroutines submit through FFmpeg, from their own threads) and
// steps each rounds times, the engine calling DeviceWaitIdle after every round. The textures close
// with the test.
func stepWaitingIdle(t *testing.T, e *hwEngine, n, rounds int) []*videotex.Texture {
	t.Helper()
	var texs []*videotex.Texture
	for range n {
		tex, err := videotex.OpenHooked(e.ed, defaultClip(t), videotex.Options{Loop: true, Images: 3}, videotex.Hooks{HWUpload: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tex.Close() })
		texs = append(texs, tex)
	}
	for range rounds {
		for _, tex := range texs {
			f, err := tex.Step()
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Discard(); err != nil {
				t.Fatal(err)
			}
		}
		if err := videotex.DeviceWaitIdle(e.ed); err != nil {
			t.Fatal(err)
		}
	}
	return texs
}

// TestDeviceWaitIdle: videotex.DeviceWaitIdle waits while the engine's queue lock or the toolkit's
// lock of a decode queue is held (FFmpeg's lock_queue takes one of them around each of its
// submissions: TestHWFramesRoute counts the first), and an engine calling it while four textures'
// decoder goroutines submit through FFmpeg's Vulkan frames (Hooks.HWUpload: FFmpeg's
// vkQueueSubmit2 to the engine's queue, from their own threads) gets no validation message. A
// plain vkDeviceWaitIdle in that loop is the race that 16 hardware-decoded textures met on NVIDIA
// (UNASSIGNED-Threading-MultipleThreads in FFmpeg's vkQueueSubmit2).
func TestDeviceWaitIdle(t *testing.T) {
	e := newHWEngine(t)
	df := e.req.DecodeFamily // lock_queue's lock of every decode queue is the family's queue 0 (hw.c)
	for _, h := range []struct {
		name         string
		lock, unlock func()
	}{
		{"the engine's queue lock", e.lock.Lock, e.lock.Unlock},
		{"the toolkit's decode queue lock", func() { vkx.LockQueue(df, 0) }, func() { vkx.UnlockQueue(df, 0) }},
	} {
		h.lock()
		done := make(chan error, 1)
		go func() { done <- videotex.DeviceWaitIdle(e.ed) }()
		select {
		case err := <-done:
			t.Errorf("DeviceWaitIdle returned (%v) while %s was held", err, h.name)
			h.unlock()
			continue
		case <-time.After(50 * time.Millisecond):
		}
		h.unlock()
		if err := <-done; err != nil {
			t.Errorf("DeviceWaitIdle after %s: %v", h.name, err)
		}
	}

	texs := stepWaitingIdle(t, e, 4, 30)
	var copied int64
	for _, tex := range texs {
		copied += tex.Stats().HWCopied
	}
	if copied < 30 {
		t.Errorf("%d pictures came through FFmpeg's Vulkan frames; want 30 or more", copied)
	}
	e.checkValidation(t)
	if ff, _ := e.lock.counts(); ff == 0 {
		t.Error("FFmpeg never took the engine's queue lock")
	}
}
