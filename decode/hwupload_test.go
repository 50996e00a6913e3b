package decode

import (
	"runtime"
	"testing"
	"time"

	"github.com/asticode/go-astiav"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
)

// TestVulkanContextsShareDevice: two of FFmpeg's device contexts on one VkDevice (two decoders, or a
// decoder and an uploader), the first closed while the second goes on: the second still creates
// its images (FFmpeg takes vkCreateImage through the toolkit's get_proc_addr, whose per-device
// entry must outlive the first context).
func TestVulkanContextsShareDevice(t *testing.T) {
	dev := vktest.OpenWith(t, gpu.Options{Frames: true})
	pf, _ := formats.Lookup("nv12")
	pic, err := synth.Noise(pf, 32, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	first, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	second, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	f, err := first.Upload(pic)
	if err != nil {
		t.Fatal(err)
	}
	f.Release()
	first.Close()
	// A new frames context, so new images, on the second context.
	g, err := second.Upload(pic)
	if err != nil {
		t.Fatalf("after the first context closed: %v", err)
	}
	if g.HW == nil || g.HW.CodedWidth != 32 || g.HW.CodedHeight != 16 {
		t.Fatalf("upload: %+v", g.HW)
	}
	g.Release()
}

// TestHWFramesHeld: a decoder keeps the frames context of its hardware frames until no frame of it is
// left (avx_hw_frame_allocated): FFmpeg 7.1's H.264 and HEVC decoders release a picture's frame
// before its Vulkan data, whose release waits on the frame's semaphore, so after a size change the
// old context must outlive its last frame. Frames from two contexts (two sizes, as across a size
// change) stand in for a decoder's.
func TestHWFramesHeld(t *testing.T) {
	dev := vktest.OpenWith(t, gpu.Options{Frames: true})
	hwdev, err := avx.NewVulkanDevice(vulkanDevice(dev))
	if err != nil {
		t.Fatal(err)
	}
	defer hwdev.Free()
	pool, err := avx.NewPool(64, 64)
	if err != nil {
		t.Fatal(err)
	}
	cc := astiav.AllocCodecContext(astiav.FindDecoder(astiav.CodecIDH264))
	if err := pool.Install(cc); err != nil {
		t.Fatal(err)
	}
	if err := pool.InstallHW(cc, hwdev, false, false); err != nil {
		t.Fatal(err)
	}
	up, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	pf, _ := formats.Lookup("nv12")
	picture := func(w, h int) *Frame {
		pic, err := synth.Noise(pf, w, h, 1)
		if err != nil {
			t.Fatal(err)
		}
		f, err := up.Upload(pic)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	held := func(want int, when string) {
		if got := pool.HeldHWFrames(); got != want {
			t.Errorf("%s: %d frames contexts held, want %d", when, got, want)
		}
	}
	a := picture(32, 16)
	pool.NoteHWFrame(cc, a.HW.av)
	pool.NoteHWFrame(cc, a.HW.av)
	held(1, "a frame of the first size, noted twice")
	b := picture(48, 32) // the uploader drops the first context: only a frame and the decoder hold it
	pool.NoteHWFrame(cc, b.HW.av)
	held(2, "a frame of the second size while the first's frame lives")
	a.Release()
	held(2, "after the first size's last frame, before the next picture") // the window FFmpeg's release needs
	pool.NoteHWFrame(cc, b.HW.av)
	held(1, "at the next picture")
	b.Release()
	avx.FreeCodecContext(cc)
	pool.Free() // lets the second context go
}

// TestFFmpegDeviceMemory: the device memory FFmpeg allocates on the toolkit's device (here the
// uploader's frames pool, on lavapipe) is counted while it lives and taken off when FFmpeg frees it.
func TestFFmpegDeviceMemory(t *testing.T) {
	dev := vktest.OpenWith(t, gpu.Options{Frames: true})
	before, _ := FFmpegDeviceMemory()
	up, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	pf, _ := formats.Lookup("nv12")
	pic, err := synth.Noise(pf, 640, 480, 1)
	if err != nil {
		t.Fatal(err)
	}
	f, err := up.Upload(pic)
	if err != nil {
		t.Fatal(err)
	}
	now, peak := FFmpegDeviceMemory()
	if now-before < 640*480*3/2 || peak < now {
		t.Errorf("a 640x480 nv12 frame on the GPU: FFmpeg's device memory grew by %d bytes (want at least %d), peak %d", now-before, 640*480*3/2, peak)
	}
	f.Release()
	up.Close()
	if after, _ := FFmpegDeviceMemory(); after != before {
		t.Errorf("after the uploader closed: %d bytes, want the %d before it", after, before)
	}
}

// TestUploadFrame: a frame uploaded with its metadata keeps every field but the picture's place,
// and its image holds the picture: downloaded again (av_hwframe_transfer_data), each plane's
// samples equal the software frame's.
func TestUploadFrame(t *testing.T) {
	up, pf, pic := uploaderFor(t, 45, 27, 3)
	sw := &Frame{Picture: pic, SourceFormat: "yuv420p", PTS: 1.5, Duration: 0.04, Field: true,
		Color: formats.Color{Matrix: formats.MatrixBT709, Range: formats.RangeLimited}, SampleAspect: Rational{4, 3},
		Orient: formats.Orientation{Rotate: 1}, KeyFrame: true, Damaged: true, Notes: []string{"a note"}}
	f, err := up.UploadFrame(sw)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	if f.HW == nil || f.Picture == sw.Picture || len(f.Picture.Planes) != 0 || f.Picture.Width != 45 || f.Picture.Height != 27 {
		t.Fatalf("uploaded: HW %v, picture %+v", f.HW, f.Picture)
	}
	if f.SourceFormat != "yuv420p" || f.PTS != 1.5 || f.Duration != 0.04 || !f.Field || f.Color != sw.Color ||
		f.SampleAspect != sw.SampleAspect || f.Orient != sw.Orient || !f.KeyFrame || !f.Damaged || len(f.Notes) != 1 {
		t.Fatalf("metadata not kept: %+v", f)
	}
	dl, err := f.HW.Download()
	if err != nil {
		t.Fatal(err)
	}
	defer dl.Release()
	for i := range pf.Planes {
		w, h := pf.PlaneSize(i, 45, 27)
		n := w * pf.Planes[i].BytesPerTexel
		for y := 0; y < h; y++ {
			a := pic.Planes[i][y*pic.Strides[i]:][:n]
			b := dl.Picture.Planes[i][y*dl.Picture.Strides[i]:][:n]
			if string(a) != string(b) {
				t.Fatalf("plane %d row %d differs after the round trip", i, y)
			}
		}
	}
}

// TestTryLockTakesLockFrames: ForeignFrame.TryLock tries the very lock FFmpeg's lock_frame takes
// (hw.c's avx_vk_frame_trylock reads FFmpeg 7.1's private AVVkFrameInternal): while Lock
// (lock_frame) holds it, TryLock says busy and locks nothing; released, TryLock takes it and reads
// the frame; then Lock from another thread waits until Unlock.
func TestTryLockTakesLockFrames(t *testing.T) {
	runtime.LockOSThread() // a pthread mutex: locked and released on one thread
	defer runtime.UnlockOSThread()
	up, _, pic := uploaderFor(t, 32, 16, 1)
	f, err := up.Upload(pic)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	ff := f.HW.Foreign()
	want, err := ff.Lock()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := ff.TryLock(); ok || err != nil {
		t.Fatalf("TryLock while lock_frame holds the lock: ok %v, %v; want busy", ok, err)
	}
	ff.Unlock()
	st, ok, err := ff.TryLock()
	if !ok || err != nil {
		t.Fatalf("TryLock of a free frame: ok %v, %v", ok, err)
	}
	if st.Image.Image != want.Image.Image || st.Semaphore != want.Semaphore || st.Value != want.Value || st.Layout != want.Layout {
		t.Errorf("TryLock read %+v; Lock read %+v", st, want)
	}
	got := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if _, err := ff.Lock(); err == nil {
			ff.Unlock()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("lock_frame did not wait for TryLock's lock")
	case <-time.After(100 * time.Millisecond):
	}
	ff.Unlock()
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("lock_frame still waits after TryLock's Unlock")
	}
}

// uploaderFor opens an Uploader on a lavapipe device (closed with the test) and makes a w×h nv12
// noise picture (seed) to upload.
func uploaderFor(t *testing.T, w, h int, seed uint64) (*Uploader, *formats.PixelFormat, *formats.Frame) {
	t.Helper()
	dev := vktest.OpenWith(t, gpu.Options{Frames: true})
	up, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(up.Close)
	pf, _ := formats.Lookup("nv12")
	pic, err := synth.Noise(pf, w, h, seed)
	if err != nil {
		t.Fatal(err)
	}
	return up, pf, pic
}

// TestEpochCountsDestroyedImages: a frame's Epoch (planes.ForeignState) stays while FFmpeg destroys
// no image and changes once it has (hw.c counts its vkDestroyImage calls): stream.Replay keeps
// command buffers per image handle, and a later image may have a destroyed one's handle.
func TestEpochCountsDestroyedImages(t *testing.T) {
	dev := vktest.OpenWith(t, gpu.Options{Frames: true})
	pf, _ := formats.Lookup("nv12")
	pic, err := synth.Noise(pf, 32, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	epoch := func(up *Uploader) uint64 {
		t.Helper()
		f, err := up.Upload(pic)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Release()
		fr := f.HW.Foreign()
		st, err := fr.Lock()
		if err != nil {
			t.Fatal(err)
		}
		fr.Unlock()
		return st.Epoch
	}
	first, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	a, b := epoch(first), epoch(first)
	first.Close() // its frames context goes, and with it its images
	second, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	c := epoch(second)
	if a == 0 || a != b || c == b {
		t.Errorf("epochs %d, %d (one frames context), then %d after its images were destroyed: want the same non-zero twice, then another", a, b, c)
	}
}
