package videotex_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/timebound"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/videotex"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestVectorsThroughListing runs docs/engine.md's listing (playVideo) on the first frame of every
// test vector, through the automatic choice and through each forced path the device allows, and
// compares what the engine drew with zscale's picture of that frame (an independent
// implementation): within 1 LSB on the shader path (its RGBA8 image sampled at texel centres),
// 4 on the sampler path (the oracle's hardware slack). Validation is on; any message fails.
func TestVectorsThroughListing(t *testing.T) {
	dev := testDevice(t)
	limits := map[formats.Path]float64{formats.PathShader: 1, formats.PathSampler: 4}
	paths := map[formats.Path]int{}
	for _, v := range pictest.Vectors(t, mediaDir) {
		want := pictest.ReadPNG(t, filepath.Join(mediaDir, v.PNG))
		pf, _ := formats.Lookup(v.PixFmt)
		var p ycbcr.Params
		p.Matrix, _ = formats.ParseMatrix(v.Expected.Matrix)
		p.Range, _ = formats.ParseRange(v.Expected.Range)
		p.ChromaLocation, _ = formats.ParseChromaLocation(v.Expected.ChromaLocation)
		_, samplerErr := ycbcr.SamplerKey(dev, pf, p)
		choices := []formats.Choice{formats.ChooseAuto, formats.ChooseShader}
		if samplerErr == nil {
			choices = append(choices, formats.ChooseSampler)
		}
		for _, choice := range choices {
			e := newTestEngine(t, dev, v.Width, v.Height)
			e.readback = true
			var got formats.Path
			var why string
			opts := videotex.Options{Path: choice, OnChange: func(c videotex.Change) { got, why = c.Path, c.Reason }}
			if err := playVideo(engineDevice(dev), filepath.Join(mediaDir, v.File), opts, 1, e, clock(25)); err != nil {
				t.Errorf("%s (choice %d): %v", v.Name, choice, err)
				continue
			}
			vktest.Check(t, dev)
			if choice == formats.ChooseAuto && (got == formats.PathSampler) != (samplerErr == nil) {
				t.Errorf("%s: auto chose %s (%s), SamplerKey says %v", v.Name, got, why, samplerErr)
			}
			paths[got]++
			d, err := maxDiff(e.Picture(), want)
			if err != nil {
				t.Errorf("%s: %v", v.Name, err)
			} else if d > limits[got] {
				t.Errorf("%s via %s: %.0f LSB from zscale (limit %.0f)", v.Name, got, d, limits[got])
			} else {
				t.Logf("%s via %s (%s): within %.0f LSB of zscale", v.Name, got, why, d)
			}
		}
	}
	if paths[formats.PathSampler] == 0 || paths[formats.PathShader] == 0 {
		t.Fatalf("paths used: %v; want both", paths)
	}
}

// TestPlayback plays 30 frames of the bundled clip (looping, clock-driven) through the listing.
func TestPlayback(t *testing.T) {
	dev := testDevice(t)
	e := newTestEngine(t, dev, 64, 36)
	if err := playVideo(engineDevice(dev), defaultClip(t), videotex.Options{Loop: true}, 30, e, clock(25)); err != nil {
		t.Fatal(err)
	}
	if e.builds != 1 {
		t.Errorf("%d pipeline builds, want 1", e.builds)
	}
}

// engineInstance is what an engine in plain vulkan-go does first: the loader (what
// vk.SetDefaultGetInstanceProcAddr and vk.Init do), an instance of api with the validation layer and
// VK_EXT_debug_utils, and its physical devices. Validation messages left by earlier tests are dropped.
// The caller destroys the instance.
func engineInstance(t *testing.T, api uint32) (vk.Instance, []vk.PhysicalDevice) {
	t.Helper()
	return engineInstanceWith(t, api, true)
}

// engineInstanceWith is engineInstance, with the validation layer only where validate says.
func engineInstanceWith(t *testing.T, api uint32, validate bool) (vk.Instance, []vk.PhysicalDevice) {
	t.Helper()
	if err := vkx.Load(); err != nil {
		t.Fatal(err)
	}
	vkx.Messages()
	app := &vk.ApplicationInfo{SType: vk.StructureTypeApplicationInfo, PApplicationName: "engine\x00",
		PEngineName: "engine\x00", ApiVersion: api}
	ici := &vk.InstanceCreateInfo{SType: vk.StructureTypeInstanceCreateInfo, PApplicationInfo: app,
		EnabledLayerCount: 1, PpEnabledLayerNames: []string{gpu.ValidationLayer + "\x00"},
		EnabledExtensionCount: 1, PpEnabledExtensionNames: []string{"VK_EXT_debug_utils\x00"}}
	if !validate {
		ici.EnabledLayerCount, ici.PpEnabledLayerNames = 0, nil
	}
	var inst vk.Instance
	if r := vk.CreateInstance(ici, nil, &inst); r != vk.Success {
		t.Fatalf("vkCreateInstance: %d", r)
	}
	ici.Free()
	app.Free()
	if err := vk.InitInstance(inst); err != nil {
		t.Fatal(err)
	}
	var n uint32
	vk.EnumeratePhysicalDevices(inst, &n, nil)
	pds := make([]vk.PhysicalDevice, n)
	vk.EnumeratePhysicalDevices(inst, &n, pds)
	return inst, pds[:n]
}

// queueFamily is the first queue family of pd with every flag of want, or 0.
func queueFamily(pd vk.PhysicalDevice, want vk.QueueFlags) uint32 {
	var nq uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &nq, nil)
	qs := make([]vk.QueueFamilyProperties, nq)
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &nq, qs)
	for i, q := range qs[:nq] {
		q.Deref()
		if vk.QueueFlags(q.QueueFlags)&want == want {
			return uint32(i)
		}
	}
	return 0
}

// createEngineDevice creates the engine's device on pd: the queues of qcis, the extensions exts and the
// feature chain chain (the caller frees it).
func createEngineDevice(t *testing.T, pd vk.PhysicalDevice, qcis []vk.DeviceQueueCreateInfo, exts []string, chain unsafe.Pointer) vk.Device {
	t.Helper()
	cexts := make([]string, len(exts))
	for i, e := range exts {
		cexts[i] = e + "\x00"
	}
	dci := &vk.DeviceCreateInfo{SType: vk.StructureTypeDeviceCreateInfo, PNext: chain,
		QueueCreateInfoCount: uint32(len(qcis)), PQueueCreateInfos: qcis,
		EnabledExtensionCount: uint32(len(cexts)), PpEnabledExtensionNames: cexts}
	var device vk.Device
	r := vk.CreateDevice(pd, dci, nil, &device)
	dci.Free()
	if r != vk.Success {
		t.Fatalf("vkCreateDevice: %d", r)
	}
	return device
}

// TestEngineOwnedDevice is an engine in plain vulkan-go: it creates its instance and device itself,
// enabling what Requirements lists with FeatureChain, and lends them to the texture.
func TestEngineOwnedDevice(t *testing.T) {
	inst, pds := engineInstance(t, vk.MakeVersion(1, 1, 0))
	defer vk.DestroyInstance(inst, nil)
	var pd vk.PhysicalDevice
	var req videotex.DeviceRequirements
	var reqErr error
	for _, p := range pds {
		if req, reqErr = videotex.Requirements(inst, p); reqErr == nil {
			pd = p
			break
		}
	}
	if pd == nil {
		t.Fatalf("no device meets the requirements: %v", reqErr)
	}
	// The messenger routes validation messages into the queue vkx.Messages drains.
	msgr, err := vkx.CreateDebugMessenger(inst)
	if err != nil {
		t.Fatal(err)
	}
	defer vkx.DestroyDebugMessenger(inst, msgr)

	family := queueFamily(pd, req.QueueFlags)
	exts := append([]string{}, req.Extensions...)
	chain, free := req.FeatureChain(nil)
	device := createEngineDevice(t, pd, []vk.DeviceQueueCreateInfo{{SType: vk.StructureTypeDeviceQueueCreateInfo,
		QueueFamilyIndex: family, QueueCount: 1, PQueuePriorities: []float32{1}}}, exts, chain)
	free()
	defer vk.DestroyDevice(device, nil)
	var queue vk.Queue
	vk.GetDeviceQueue(device, family, 0, &queue)
	ed := videotex.EngineDevice{Instance: inst, Physical: pd, Device: device, Queue: queue, QueueFamily: family, Extensions: exts}

	// The engine's helpers (offscreen target, command buffers) come from a wrap of its own device.
	helper, err := gpu.Wrap(inst, pd, device, queue, family, exts)
	if err != nil {
		t.Fatal(err)
	}
	defer helper.Release()
	e := newTestEngine(t, helper, 64, 36)
	err = playVideo(ed, defaultClip(t), videotex.Options{}, 10, e, clock(25))
	e.destroy() // before the device goes
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range vkx.Messages() {
		t.Errorf("validation %s", m.Text)
	}
}

// TestClockStepNeverBlocks: Acquire follows the clock, never goes back, and returns the current
// picture at once while decoding is stalled; Step walks pictures in order.
func TestClockStepNeverBlocks(t *testing.T) {
	dev := testDevice(t)
	gate, stalled := make(chan struct{}), make(chan struct{})
	var stall sync.Once
	decodes := 0
	hooks := videotex.Hooks{BeforeNext: func() {
		decodes++
		if decodes == 4 { // three pictures decoded and staged; decoding stalls until the gate opens
			close(stalled)
			<-gate
		}
	}}
	tex, err := videotex.OpenHooked(engineDevice(dev), defaultClip(t), videotex.Options{}, hooks)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		stall.Do(func() { close(gate) })
		tex.Close()
	}()
	w := newWaiter(t, dev)
	acquire := func(now time.Duration) *videotex.Frame {
		t.Helper()
		span := timebound.Start()
		f, err := tex.Acquire(now)
		if err != nil {
			t.Fatal(err)
		}
		span.Within(t, fmt.Sprintf("Acquire(%v)", now), 200*time.Millisecond)
		w.consume(f)
		return f
	}
	f := acquire(0)
	if f.Index != 0 || f.PTS != 0 || !f.Advanced || f.Generation != 1 {
		t.Fatalf("first frame: index %d pts %v advanced %v generation %d", f.Index, f.PTS, f.Advanced, f.Generation)
	}
	if f = acquire(0); f.Index != 0 || f.Advanced {
		t.Fatalf("same time again: index %d advanced %v", f.Index, f.Advanced)
	}
	select {
	case <-stalled:
	case <-time.After(10 * time.Second):
		t.Fatal("the decoder did not reach its fourth picture")
	}
	if f = acquire(39 * time.Millisecond); f.Index != 0 {
		t.Fatalf("before the second picture's time (40 ms): index %d", f.Index)
	}
	// Far ahead: the latest decoded picture (decoding stalls after three), skipping the one between.
	if f = acquire(time.Hour); f.Index != 2 || !f.Advanced {
		t.Fatalf("an hour ahead: index %d, want 2 (the last decoded)", f.Index)
	}
	for i := 0; i < 10; i++ { // stalled: the current picture again, at once
		if g := acquire(time.Hour); g.Index != 2 || g.Advanced {
			t.Fatalf("while stalled: index %d advanced %v", g.Index, g.Advanced)
		}
	}
	if st := tex.Stats(); st.Dropped < 1 {
		t.Errorf("stats %+v: picture 1 should have been skipped", st)
	}
	stall.Do(func() { close(gate) })
	for want := int64(3); want < 6; want++ {
		if err := tex.WaitReady(5 * time.Second); err != nil {
			t.Fatal(err)
		}
		f, err := tex.Step()
		if err != nil {
			t.Fatal(err)
		}
		w.consume(f)
		if f.Index != want || !f.Advanced {
			t.Fatalf("step: index %d advanced %v, want %d", f.Index, f.Advanced, want)
		}
	}
	w.doneAll()
	vktest.Check(t, dev)
}

// TestRingOwnership: frames the engine holds are never recycled; when it holds every image,
// decoding pauses and Acquire still answers; Done lets decoding go on.
func TestRingOwnership(t *testing.T) {
	dev := testDevice(t)
	tex, err := videotex.Open(engineDevice(dev), defaultClip(t), videotex.Options{Images: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Close()
	w := newWaiter(t, dev)
	var held []*videotex.Frame
	views := map[vk.ImageView]int64{}
	for len(held) < 3 {
		if err := tex.WaitReady(5 * time.Second); err != nil {
			t.Fatal(err)
		}
		f, err := tex.Step()
		if err != nil {
			t.Fatal(err)
		}
		w.submit(f)
		held = append(held, f)
		if idx, ok := views[f.View]; ok {
			t.Fatalf("picture %d reuses the image of picture %d, still held", f.Index, idx)
		}
		views[f.View] = f.Index
	}
	if err := tex.WaitReady(300 * time.Millisecond); err == nil {
		t.Fatal("a picture was staged although the engine holds every image")
	}
	f, err := tex.Step()
	if err != nil {
		t.Fatal(err)
	}
	w.submit(f)
	if f.Index != 2 || f.Advanced {
		t.Fatalf("with every image held: index %d advanced %v", f.Index, f.Advanced)
	}
	w.finish(f)
	w.finish(held[0]) // picture 0's image is free again
	if err := tex.WaitReady(5 * time.Second); err != nil {
		t.Fatalf("after Done: %v", err)
	}
	if f, err = tex.Step(); err != nil || f.Index != 3 || f.View != held[0].View {
		t.Fatalf("after Done: %v, index %d, view reused %v", err, f.Index, f.View == held[0].View)
	}
	w.submit(f)
	w.finish(f)
	w.finish(held[1])
	w.finish(held[2])
	// A skipped frame goes back with Discard.
	g, err := tex.Acquire(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Discard(); err != nil {
		t.Fatal(err)
	}
	g.Done() // a second give-back is ignored
	vktest.Check(t, dev)
}

// TestGenerationChange: a stream whose size, then chroma siting, change mid-way. The size change
// is announced with the same generation (same sampler); the siting change with a new one, and the
// listing's engine rebuilds its pipeline exactly then.
func TestGenerationChange(t *testing.T) {
	// testvectors/make.sh made it: 3 frames 64×48 top-left, 3 frames 96×64 top-left, 3 frames 64×48
	// left. Top-left siting (x264 chromaloc 2) is COSITED on both axes, which every Y′CbCr device
	// samples; "left" (chromaloc 0) is MIDPOINT vertically: another conversion on devices that have
	// MIDPOINT, the shader path on those that do not. Either way, a new immutable sampler.
	stream := "../testvectors/media/changes.h264"

	dev := testDevice(t)
	e := newTestEngine(t, dev, 32, 32)
	var changes []videotex.Change
	opts := videotex.Options{OnChange: func(c videotex.Change) { changes = append(changes, c) }}
	if err := playVideo(engineDevice(dev), stream, opts, 9, e, step); err != nil {
		t.Fatal(err)
	}
	if len(changes) != 3 {
		t.Fatalf("changes %+v, want 3", changes)
	}
	for i, want := range []struct {
		gen     uint64
		rebuild bool
		w       int
		params  string
		path    formats.Path
	}{{1, true, 64, "topleft", formats.PathSampler}, {1, false, 96, "topleft", formats.PathSampler}, {2, true, 64, "/left", changes[2].Path}} {
		c := changes[i]
		if c.Generation != want.gen || c.Rebuild != want.rebuild || c.Width != want.w || !strings.HasSuffix(c.Params, want.params) || c.Path != want.path {
			t.Errorf("change %d: %+v, want generation %d rebuild %v %dpx %s %s", i, c, want.gen, want.rebuild, want.w, want.params, want.path)
		}
		t.Logf("change %d: generation %d, %s %dx%d %s, %s path: %s", i, c.Generation, c.Format, c.Width, c.Height, c.Params, c.Path, c.Reason)
	}
	if e.builds != 2 {
		t.Errorf("%d pipeline builds, want 2", e.builds)
	}
}

// TestErrors: each failure is one line naming the operation; a stream the sampler cannot express
// is refused with ChooseSampler and converted with ChooseAuto.
func TestErrors(t *testing.T) {
	dev := testDevice(t)
	ed := engineDevice(dev)
	_, err := videotex.Open(ed, filepath.Join(t.TempDir(), "missing.mkv"), videotex.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "videotex: open ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := videotex.Open(ed, defaultClip(t), videotex.Options{Images: 2}); err == nil || !strings.Contains(err.Error(), "Images") {
		t.Errorf("2 images: %v", err)
	}
	for _, tg := range []videotex.Target{{White: 203}, {Output: ycbcr.OutputExtendedLinear, White: -1}} {
		if _, err := videotex.Open(ed, defaultClip(t), videotex.Options{Target: tg}); err == nil || !strings.Contains(err.Error(), "white") {
			t.Errorf("target %+v: %v", tg, err)
		}
	}
	if _, err := videotex.Open(videotex.EngineDevice{}, defaultClip(t), videotex.Options{}); err == nil {
		t.Error("an empty EngineDevice was accepted")
	}
	// "bottom" chroma siting has no Vulkan chroma offset at all: no device's sampler expresses it.
	bottom := retag(t, defaultClip(t), 5)
	if _, err := videotex.Open(ed, bottom, videotex.Options{Path: formats.ChooseSampler}); err == nil || !strings.Contains(err.Error(), "cannot express") {
		t.Errorf("sampler path on bottom siting: %v", err)
	}
	tex, err := videotex.Open(ed, bottom, videotex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p, why := tex.Path(); p != formats.PathShader || !strings.Contains(why, "cannot express") {
		t.Errorf("auto on bottom siting: %s (%s)", p, why)
	}
	if err := tex.Close(); err != nil {
		t.Fatal(err)
	}
	tex.Close()
	if _, err := tex.Acquire(0); !errors.Is(err, videotex.ErrClosed) {
		t.Errorf("Acquire after Close: %v", err)
	}
	vktest.Check(t, dev)
}

// TestQueueLock: every toolkit submission holds the engine's queue lock.
func TestQueueLock(t *testing.T) {
	dev := testDevice(t)
	lock := &countingLock{}
	ed := engineDevice(dev)
	ed.QueueLock = lock
	w := newWaiter(t, dev)
	tex, err := videotex.Open(ed, defaultClip(t), videotex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Close()
	for i := 0; i < 3; i++ {
		f, err := tex.Acquire(time.Duration(i) * 40 * time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		w.consume(f)
	}
	if lock.n < 3 {
		t.Fatalf("the lock was taken %d times for 3 acquires", lock.n)
	}
}

type countingLock struct {
	sync.Mutex
	n int
}

func (l *countingLock) Lock() { l.Mutex.Lock(); l.n++ }

// retag rewrites the H.264 chroma_sample_loc_type of a clip (no re-encoding), with the ffmpeg
// program of the project's own FFmpeg build (it travels to the GPU machines with the tests).
func retag(t *testing.T, in string, loc int) string {
	t.Helper()
	ffmpeg := os.Getenv("YCBCRKIT_FFMPEG")
	if ffmpeg == "" {
		t.Fatal("YCBCRKIT_FFMPEG is unset: run the tests with make test, or eval \"$(scripts/build-ffmpeg.sh --env)\" first")
	}
	out := filepath.Join(t.TempDir(), "retagged.mkv")
	if b, err := exec.Command(ffmpeg, "-v", "error", "-i", in, "-c", "copy", "-bsf:v",
		"h264_metadata=chroma_sample_loc_type="+strconv.Itoa(loc), out).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, b)
	}
	return out
}

// TestDocListing: docs/engine.md shows the listing of listing_test.go word for word.
func TestDocListing(t *testing.T) {
	src, err := os.ReadFile("listing_test.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	begin, end := strings.Index(s, "// listing:begin\n"), strings.Index(s, "// listing:end")
	if begin < 0 || end < begin {
		t.Fatal("listing markers not found in listing_test.go")
	}
	listing := strings.TrimSpace(s[begin+len("// listing:begin\n") : end])
	doc, err := os.ReadFile("../docs/engine.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```go\n"+listing+"\n```") {
		t.Fatal("docs/engine.md does not contain listing_test.go's listing in a ```go block; copy it over")
	}
}
