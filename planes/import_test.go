package planes_test

import (
	"errors"
	"fmt"
	"image"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

func TestParseUpload(t *testing.T) {
	for _, u := range []planes.Upload{planes.UploadAuto, planes.UploadCopy, planes.UploadImport, planes.UploadDirect} {
		got, err := planes.ParseUpload(u.String())
		if err != nil || got != u {
			t.Errorf("ParseUpload(%q) = %v, %v", u.String(), got, err)
		}
	}
	if _, err := planes.ParseUpload("zero-copy"); err == nil || !strings.Contains(err.Error(), "auto, copy, import, direct") {
		t.Errorf("ParseUpload(zero-copy): %v", err)
	}
}

func newConverter(t *testing.T) (*gpu.Device, *ycbcr.Paths) {
	dev := vktest.Open(t)
	conv, err := ycbcr.NewPaths(dev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conv.Destroy)
	return dev, conv
}

// params: top-left siting is COSITED on both axes, which lavapipe's sampler offers for every format.
var params = ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}

// TestUploadPathsAgree converts every layout of the table, at an even and an odd size, through each
// conversion path it can take, uploaded each way the device offers: every upload must give the same
// picture bit for bit, the copy path's must lie within the oracle's bounds at every pixel (edges of
// odd sizes included), and the import path must copy nothing on the CPU. Frames lie in mmap'd memory
// like a decoder's, with planes on page boundaries and, to exercise the rounding, 192 bytes after one.
func TestUploadPathsAgree(t *testing.T) {
	dev, conv := newConverter(t)
	imported, directed := map[string]int{}, map[string]int{}
	for _, pf := range formats.All() {
		t.Run(pf.Name, func(t *testing.T) {
			for _, size := range [][2]int{{16, 8}, {63, 47}} {
				src, err := synth.Noise(pf, size[0], size[1], 7)
				if err != nil {
					t.Fatal(err)
				}
				for _, path := range []formats.Path{formats.PathSampler, formats.PathShader} {
					if path == formats.PathSampler {
						if _, err := ycbcr.SamplerKey(dev, pf, params); err != nil {
							continue
						}
					}
					im, err := planes.New(dev, pf, size[0], size[1], path)
					if err != nil {
						t.Fatal(err)
					}
					ref, loaded, err := render(t, conv, im, src, params, path, planes.UploadCopy)
					if err != nil {
						t.Fatal(err)
					}
					if loaded.Upload != planes.UploadCopy || loaded.CPUBytes != im.StagedBytes() {
						t.Errorf("%v copy: loaded %+v, want %d CPU bytes", path, loaded, im.StagedBytes())
					}
					if fails, worst, where := pictest.Mismatch(ref, oracleBounds(t, dev, src, params, path)); fails > 0 {
						t.Errorf("%dx%d %v copy: %d values outside the oracle's bounds, worst %.2f LSB at %s",
							size[0], size[1], path, fails, worst, where)
					}
					for _, lead := range []int{0, 192} {
						m := mapFrame(t, src, lead)
						check := func(how planes.Upload, img *image.RGBA, l planes.Loaded) {
							if d := pictest.FirstDiff(ref, img); d != "" {
								t.Errorf("%dx%d %v %v (lead %d, %s): differs from copy at %s", size[0], size[1], path, how, lead, l.Reason, d)
							}
						}
						img, l, err := render(t, conv, im, m.Frame, params, path, planes.UploadCopy)
						if err != nil {
							t.Fatal(err)
						}
						check(planes.UploadCopy, img, l)
						canImport := im.Can(m.Frame, planes.UploadImport)
						img, l, err = render(t, conv, im, m.Frame, params, path, planes.UploadImport)
						switch {
						case canImport == nil && err != nil:
							t.Errorf("%v import: Can said yes, Load: %v", path, err)
						case canImport != nil && (err == nil || !errors.Is(err, planes.ErrUnavailable)):
							t.Errorf("%v import: Can said %v, Load: %v", path, canImport, err)
						case canImport == nil:
							check(planes.UploadImport, img, l)
							if l.Upload != planes.UploadImport || l.CPUBytes != 0 {
								t.Errorf("%v import: loaded %+v, want 0 CPU bytes", path, l)
							}
							imported[path.String()]++
						}
						if canImport != nil && path == formats.PathShader {
							t.Errorf("shader path could not import: %v", canImport)
						}
						img, l, err = render(t, conv, im, m.Frame, params, path, planes.UploadAuto)
						if err != nil {
							t.Fatal(err)
						}
						check(planes.UploadAuto, img, l)
						if want := map[bool]planes.Upload{true: planes.UploadImport, false: planes.UploadCopy}[canImport == nil]; l.Upload != want {
							t.Errorf("%v auto took %v, want %v: %s", path, l.Upload, want, l.Reason)
						}
						if canDirect := im.Can(m.Frame, planes.UploadDirect); canDirect == nil {
							// Small frames fit in the pages their planes start in: the first load
							// imports, the second samples the frame in place.
							for _, want := range []planes.Upload{planes.UploadImport, planes.UploadDirect} {
								img, l, err := render(t, conv, im, m.Frame, params, path, planes.UploadDirect)
								if err != nil {
									t.Fatal(err)
								}
								check(planes.UploadDirect, img, l)
								if l.Upload != want || l.CPUBytes != 0 {
									t.Errorf("%v direct: %v with %d CPU bytes, want %v", path, l.Upload, l.CPUBytes, want)
								}
							}
							directed[path.String()]++
							im.DropDirect()
						} else if _, _, err := render(t, conv, im, m.Frame, params, path, planes.UploadDirect); !errors.Is(err, planes.ErrUnavailable) {
							t.Errorf("%v direct: %v, want a reason", path, err)
						}
						if err := im.Importer().ForgetFrame(m.Frame); err != nil {
							t.Fatal(err)
						}
						m.unmap(t)
					}
					im.Destroy()
				}
			}
			vktest.Check(t, dev)
		})
	}
	t.Logf("imported and converted: %v; sampled in place: %v", imported, directed)
	if imported["sampler"] == 0 || imported["shader"] == 0 {
		t.Fatalf("import path never exercised: %v", imported)
	}
}

// TestLSBImport: LSB-aligned data is imported for every path: the shader path rescales it, the
// sampler path shifts it on the GPU (shift.go); Auto imports and says so. lavapipe samples none of
// the X6/X4 formats LSB layouts map to (3-plane, 2-plane 4:2:2), so there only the shader path's half
// runs here; TestGPUShiftMatchesStage checks the shift pass itself on every device, and
// TestUploadPathsAgree the pictures where the device samples the formats.
func TestLSBImport(t *testing.T) {
	dev := vktest.Open(t)
	sampled := 0
	for _, pf := range formats.All() {
		if pf.SamplerShift == 0 {
			continue
		}
		src, _ := synth.Noise(pf, 32, 16, 1)
		m := mapFrame(t, src, 0)
		for _, paths := range [][]formats.Path{{formats.PathSampler}, {formats.PathShader}, {formats.PathSampler, formats.PathShader}} {
			sampler := paths[0] == formats.PathSampler
			im, err := planes.New(dev, pf, 32, 16, paths...)
			if err != nil {
				if sampler && strings.Contains(err.Error(), "device cannot sample") {
					continue
				}
				t.Fatal(err)
			}
			if sampler {
				sampled++
			}
			if err := im.Can(m.Frame, planes.UploadImport); err != nil {
				t.Errorf("%s %v: Can(import) = %v", pf.Name, paths, err)
			}
			var l planes.Loaded
			if err := dev.Submit(func(cb vk.CommandBuffer) { l, err = im.Load(cb, m.Frame, planes.UploadAuto) }); err != nil {
				t.Fatal(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.Upload != planes.UploadImport || l.CPUBytes != 0 {
				t.Errorf("%s %v: auto took %v with %d CPU bytes: %s", pf.Name, paths, l.Upload, l.CPUBytes, l.Reason)
			}
			if sampler && !strings.Contains(l.Reason, "shifts") {
				t.Errorf("%s %v: reason %q does not say the GPU shifts", pf.Name, paths, l.Reason)
			}
			im.Done()
			if err := im.Importer().ForgetFrame(m.Frame); err != nil {
				t.Fatal(err)
			}
			im.Destroy()
		}
		m.unmap(t)
	}
	if sampled == 0 {
		t.Logf("the device samples no LSB layout's X6/X4 format: only the shader path was checked")
	}
}

// TestImportCache1000Frames plays 1000 frames from a pool of decoder-like buffers through two images
// in flight that share one import cache. With room for every buffer, the pool is imported once and
// every later frame is a hit; with less, entries are evicted, but the number of live imports never
// exceeds the bound. Every 100th frame is converted and compared with the copy path's picture.
func TestImportCache1000Frames(t *testing.T) {
	dev, conv := newConverter(t)
	pf, _ := formats.Lookup("nv12")
	const w, h, pool, inFlight = 64, 36, 4, 2
	var frames []*mapped
	var refs []*image.RGBA
	ref, err := planes.New(dev, pf, w, h, formats.PathSampler)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < pool; i++ {
		src, _ := synth.Moving(pf, w, h, 9*i)
		frames = append(frames, mapFrame(t, src, 0))
		img, _, err := render(t, conv, ref, src, params, formats.PathSampler, planes.UploadCopy)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, img)
	}
	ref.Destroy()
	defer func() {
		for _, m := range frames {
			m.unmap(t)
		}
	}()
	for _, capacity := range []int{pool * 2, inFlight * 2} { // nv12: 2 planes a frame
		t.Run(map[bool]string{true: "all-hits", false: "evicting"}[capacity == pool*2], func(t *testing.T) {
			imp, err := planes.NewImporter(dev, capacity)
			if err != nil {
				t.Fatal(err)
			}
			type slot struct {
				im    *planes.Image
				cb    vk.CommandBuffer
				fence vk.Fence
			}
			var slots []slot
			for i := 0; i < inFlight; i++ {
				im, err := planes.New(dev, pf, w, h, formats.PathSampler)
				if err != nil {
					t.Fatal(err)
				}
				im.SetImporter(imp)
				cb, err := dev.NewCommandBuffer()
				if err != nil {
					t.Fatal(err)
				}
				fence, err := dev.NewFence(true)
				if err != nil {
					t.Fatal(err)
				}
				slots = append(slots, slot{im, cb, fence})
			}
			var rss0 int
			for n := 0; n < 1000; n++ {
				if n%100 == 0 {
					// A collection every 100 frames, as a player's own allocations would cause: it
					// frees vulkan-go's garbage (settledRSS), which is not a leak.
					rss := settledRSS(t)
					if n == 100 {
						rss0 = rss
					}
				}
				s := slots[n%inFlight]
				f := frames[n%pool].Frame
				if err := dev.WaitFence(s.fence); err != nil {
					t.Fatal(err)
				}
				if n%100 == 99 { // convert this one and compare, through the same image and cache
					img, l, err := render(t, conv, s.im, f, params, formats.PathSampler, planes.UploadImport)
					if err != nil {
						t.Fatal(err)
					}
					if d := pictest.FirstDiff(refs[n%pool], img); d != "" || l.CPUBytes != 0 {
						t.Fatalf("frame %d: %d CPU bytes, differs from the copy path at %s", n, l.CPUBytes, d)
					}
					// render waited for its own submission; signal the slot's fence with an empty one.
					if err := gpu.Begin(s.cb); err != nil {
						t.Fatal(err)
					}
					if err := submitFrame(dev, s.cb, s.fence); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := gpu.Begin(s.cb); err != nil {
					t.Fatal(err)
				}
				l, err := s.im.Load(s.cb, f, planes.UploadImport)
				if err != nil {
					t.Fatalf("frame %d: %v (%+v)", n, err, imp.Stats())
				}
				if l.CPUBytes != 0 {
					t.Fatalf("frame %d: %d CPU bytes", n, l.CPUBytes)
				}
				if err := submitFrame(dev, s.cb, s.fence); err != nil {
					t.Fatal(err)
				}
				if st := imp.Stats(); st.Live > capacity {
					t.Fatalf("frame %d: %d live imports, bound %d", n, st.Live, capacity)
				}
			}
			vk.DeviceWaitIdle(dev.Device)
			// The steady state keeps nothing: from frame 100 to 1000 resident memory grows by less
			// than 512 KiB, where a leak of one page per frame would add 3.5 MiB.
			grew := settledRSS(t) - rss0
			st := imp.Stats()
			t.Logf("capacity %d: %+v; RSS grew %d KiB over 900 frames", capacity, st, grew)
			if grew > 512 {
				t.Errorf("RSS grew %d KiB over 900 frames (limit 512 KiB)", grew)
			}
			if capacity == pool*2 && (st.Imports != pool*2 || st.Evictions != 0) {
				t.Errorf("pool of %d frames fits: want %d imports and no eviction, got %+v", pool, pool*2, st)
			}
			if capacity < pool*2 && st.Evictions == 0 {
				t.Errorf("want evictions with capacity %d: %+v", capacity, st)
			}
			for _, s := range slots {
				s.im.Destroy()
				dev.FreeCommandBuffer(s.cb)
				vk.DestroyFence(dev.Device, s.fence, nil)
			}
			imp.Destroy()
			vktest.Check(t, dev)
		})
	}
}

// TestForgetBeforeFree: memory a submission may still read cannot be forgotten; once the image is
// done with it, Forget frees the import, the memory is unmapped and mapped again (usually at the same
// address) with another picture, and the import path shows the new picture, not a stale import.
func TestForgetBeforeFree(t *testing.T) {
	dev, conv := newConverter(t)
	pf, _ := formats.Lookup("yuv420p")
	const w, h = 48, 32
	im, err := planes.New(dev, pf, w, h, formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	defer im.Destroy()
	var lastAddr uintptr
	reused := 0
	for round := 0; round < 4; round++ {
		src, _ := synth.Noise(pf, w, h, uint64(round))
		want, _, err := render(t, conv, im, src, params, formats.PathShader, planes.UploadCopy)
		if err != nil {
			t.Fatal(err)
		}
		m := mapFrame(t, src, 0)
		addr := uintptr(unsafe.Pointer(&m.Frame.Planes[0][0]))
		if addr == lastAddr {
			reused++
		}
		lastAddr = addr
		before := im.Importer()
		var imports int64
		if before != nil {
			imports = before.Stats().Imports
		}
		// Load without learning that the GPU finished: the memory is still held.
		var loadErr error
		if err := dev.Submit(func(cb vk.CommandBuffer) { _, loadErr = im.Load(cb, m.Frame, planes.UploadImport) }); err != nil || loadErr != nil {
			t.Fatal(err, loadErr)
		}
		imp := im.Importer()
		if st := imp.Stats(); st.Imports != imports+3 {
			t.Errorf("round %d: %d imports after the load, want %d: a stale import was reused", round, st.Imports, imports+3)
		}
		if err := imp.ForgetFrame(m.Frame); !errors.Is(err, planes.ErrInUse) {
			t.Fatalf("round %d: Forget of memory in use: %v, want ErrInUse", round, err)
		}
		im.Done()
		got, l, err := render(t, conv, im, m.Frame, params, formats.PathShader, planes.UploadImport)
		if err != nil {
			t.Fatal(err)
		}
		if d := pictest.FirstDiff(want, got); d != "" || l.Upload != planes.UploadImport {
			t.Fatalf("round %d: %v picture differs from the copy path at %s", round, l.Upload, d)
		}
		live := imp.Stats().Live
		if err := imp.ForgetFrame(m.Frame); err != nil {
			t.Fatal(err)
		}
		if st := imp.Stats(); st.Live != live-3 {
			t.Errorf("round %d: forget left %d of %d imports", round, st.Live, live)
		}
		m.unmap(t)
	}
	t.Logf("mapping reused the previous address in %d of 3 rounds", reused)
}

// TestLoadAllocatesNothing: steady-state loads (cache hits, same layout) allocate no Go memory on
// either path.
func TestLoadAllocatesNothing(t *testing.T) {
	dev := vktest.Open(t)
	ran := 0
	// yuv420p: three aliased planes; p010le: X6 planes aliased as R16; yuv420p10le: the GPU shift
	// in both upload paths (where the device samples its X6 3-plane format: not lavapipe).
	for _, name := range []string{"yuv420p", "p010le", "yuv420p10le"} {
		pf, _ := formats.Lookup(name)
		src, _ := synth.Noise(pf, 64, 32, 3)
		im, err := planes.New(dev, pf, 64, 32, formats.PathSampler, formats.PathShader)
		if err != nil {
			if strings.Contains(err.Error(), "device cannot sample") {
				t.Logf("%s: %v", name, err)
				continue
			}
			t.Fatal(err)
		}
		ran++
		m := mapFrame(t, src, 0)
		cb, err := dev.NewCommandBuffer()
		if err != nil {
			t.Fatal(err)
		}
		for _, how := range []planes.Upload{planes.UploadCopy, planes.UploadImport, planes.UploadAuto} {
			if err := gpu.Begin(cb); err != nil {
				t.Fatal(err)
			}
			load := func() {
				if _, err := im.Load(cb, m.Frame, how); err != nil {
					t.Fatal(err)
				}
			}
			load() // first use: import, plan
			if n := testing.AllocsPerRun(50, load); n != 0 {
				t.Errorf("%s %v: %.1f allocations per load", name, how, n)
			}
			vk.EndCommandBuffer(cb) // recorded, never submitted
		}
		im.Done()
		if err := im.Importer().ForgetFrame(m.Frame); err != nil {
			t.Fatal(err)
		}
		dev.FreeCommandBuffer(cb)
		im.Destroy()
		m.unmap(t)
	}
	if ran < 2 {
		t.Fatalf("only %d layouts ran", ran)
	}
}

// TestDirectReason records what the device says about binding decoder-like frames directly as the
// planes of a LINEAR disjoint image (see direct.go), at sizes and layouts a decoder produces.
func TestDirectReason(t *testing.T) {
	dev := vktest.Open(t)
	for _, c := range []struct {
		name string
		w, h int
	}{{"yuv420p", 1920, 1080}, {"nv12", 1280, 720}, {"p010le", 1920, 1080}, {"yuv444p", 640, 360}, {"yuv420p", 63, 47},
		{"yuyv422", 640, 360}, {"yuv420p16le", 1920, 1080}} {
		pf, _ := formats.Lookup(c.name)
		src, err := formats.NewFrame(pf, c.w, c.h)
		if err != nil {
			t.Fatal(err)
		}
		im, err := planes.New(dev, pf, c.w, c.h, formats.PathSampler)
		if err != nil {
			if strings.Contains(err.Error(), "device cannot sample") { // NVIDIA: no packed 4:2:2
				t.Logf("%s: %v", c.name, err)
				continue
			}
			t.Fatal(err)
		}
		m := mapFrame(t, src, 0)
		err = im.Can(m.Frame, planes.UploadDirect)
		if !errors.Is(err, planes.ErrUnavailable) {
			t.Errorf("%s %dx%d: direct: %v", c.name, c.w, c.h, err)
		}
		t.Logf("%s %dx%d strides %v: direct: %v", c.name, c.w, c.h, m.Frame.Strides, err)
		im.Destroy()
		m.unmap(t)
	}

	// Planes each in a mapping as large as the whole image pass every device check on lavapipe and
	// on the H200: direct is possible (TestDirect samples such frames in place).
	pf, _ := formats.Lookup("yuv420p")
	const w, h = 1920, 1080
	f, unmap := mappedPlanes(t, pf, w, h, pf.FrameBytes(w, h))
	defer unmap()
	im, err := planes.New(dev, pf, w, h, formats.PathSampler)
	if err != nil {
		t.Fatal(err)
	}
	defer im.Destroy()
	err = im.Can(f, planes.UploadDirect)
	t.Logf("yuv420p %dx%d, each plane in a mapping of the whole image's size: direct: %v", w, h, err)
	if err != nil {
		t.Errorf("direct with each plane in a whole-image mapping: %v", err)
	}
}

// settledRSS is the resident set size after two collections and a moment for the finalizers:
// vulkan-go frees the C copies of its arguments from finalizers (in goroutines they start), so C
// memory that is garbage stays resident until the collector has run; without collections RSS climbs
// by about 0.8 KiB a frame here, and the C heap keeps what it grew to.
func settledRSS(t testing.TB) int {
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	return rssKiB(t)
}

// rssKiB is the process's resident set size (VmRSS) in KiB.
func rssKiB(t testing.TB) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kib int
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kib); err == nil {
				return kib
			}
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}
