package decode

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// openVideoDevice opens the test device as the player does for -hwdec (gpu.Options.Video).
func openVideoDevice(t *testing.T) *gpu.Device {
	t.Helper()
	return vktest.OpenWith(t, gpu.Options{Video: true})
}

// decodeKind decodes the whole input and checks every frame's kind against hw.
func decodeKind(t *testing.T, d *Decoder, hw bool) int {
	t.Helper()
	n := 0
	for {
		f, err := d.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if (f.HW != nil) != hw {
			t.Fatalf("frame %d: hardware frame %v, want %v", n, f.HW != nil, hw)
		}
		if !hw && !f.PageAligned() {
			t.Fatalf("frame %d: software frame not page-aligned", n)
		}
		f.Release()
		n++
	}
}

func TestParseHWDec(t *testing.T) {
	for _, s := range []string{"auto", "vulkan", "no"} {
		h, err := ParseHWDec(s)
		if err != nil || h.String() != s {
			t.Fatalf("%s: %v %v", s, h, err)
		}
	}
	if _, err := ParseHWDec("cuda"); err == nil || !strings.Contains(err.Error(), "auto, vulkan or no") {
		t.Fatalf("cuda: %v", err)
	}
}

// Auto on a device without Vulkan Video (lavapipe) decodes in software and says why; on a device
// with it (the GPU machine) every frame comes from the hardware.
func TestHWDecAuto(t *testing.T) {
	dev := openVideoDevice(t)
	d, err := Open(filepath.Join(mediaDir, "default.mkv"), Options{Threads: 2, Vulkan: dev})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	hw := dev.Video.Enabled
	n := decodeKind(t, d, hw)
	h := d.HW()
	if h.Active != hw {
		t.Fatalf("HW() = %+v on a device with video %v", h, hw)
	}
	if !hw && (h.Reason != dev.Video.Reason || h.Decoder != "h264") {
		t.Fatalf("software: HW() = %+v, want the device's reason %q", h, dev.Video.Reason)
	}
	if hw && (h.Decoder != "h264 (vulkan)" || d.Stats().Hardware != int64(n)) {
		t.Fatalf("hardware: HW() = %+v, %d of %d frames", h, d.Stats().Hardware, n)
	}
	t.Logf("%d frames, %+v", n, h)
}

// -hwdec vulkan on a device without Vulkan Video fails at open, naming what is missing.
func TestHWDecVulkanRefused(t *testing.T) {
	dev := openVideoDevice(t)
	if dev.Video.Enabled {
		t.Skip("the device decodes in hardware: the refusal is tested on devices without Vulkan Video")
	}
	_, err := Open(filepath.Join(mediaDir, "default.mkv"), Options{Vulkan: dev, HWDec: HWDecVulkan})
	if !errors.Is(err, ErrNoHWDec) || !strings.Contains(err.Error(), gpu.ExtVideoDecodeQueue) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("want one line naming %s, got %v", gpu.ExtVideoDecodeQueue, err)
	}
	if _, err := Open(filepath.Join(mediaDir, "default.mkv"), Options{HWDec: HWDecVulkan}); !errors.Is(err, ErrNoHWDec) {
		t.Fatalf("no device: %v", err)
	}
	d, err := Open(filepath.Join(mediaDir, "default.mkv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if h := d.HW(); h.Active || !strings.Contains(h.Reason, "no Vulkan device") {
		t.Fatalf("no device, auto: %+v", h)
	}
}

// fakeVideo makes a device without Vulkan Video (lavapipe) look as if it decoded H.264 and HEVC, so
// that the decoder hands it to FFmpeg (an AVVulkanDeviceContext on lavapipe initialises).
func fakeVideo(t *testing.T, dev *gpu.Device) {
	if dev.Video.Enabled {
		t.Skip("the device decodes in hardware: the refusals are tested on devices without Vulkan Video")
	}
	dev.Video = gpu.Video{Enabled: true, CodecOps: vkx.CodecOpDecodeH264 | vkx.CodecOpDecodeH265,
		Features: vkx.VideoFeatures{Ycbcr: true}}
}

// The capability check in get_format: FFmpeg offers AV_PIX_FMT_VULKAN for the stream, the device
// context lacks VK_KHR_video_decode_queue, so a software format is chosen before FFmpeg's hwaccel
// tries to initialise, with frame threads; the reason names what is missing. -hwdec vulkan ends
// with one error naming it.
func TestHWDecCapabilityRefusal(t *testing.T) {
	dev := openVideoDevice(t)
	fakeVideo(t, dev)
	clip := filepath.Join(mediaDir, "default.mkv")
	d, err := Open(clip, Options{Threads: 4, Vulkan: dev})
	if err != nil {
		t.Fatal(err)
	}
	n := decodeKind(t, d, false)
	h := d.HW()
	d.Close()
	if n == 0 || h.Active || !strings.Contains(h.Reason, gpu.ExtVideoDecodeQueue) || h.Decoder != "h264" {
		t.Fatalf("%d frames, %+v", n, h)
	}
	d, err = Open(clip, Options{Threads: 4, Vulkan: dev, HWDec: HWDecVulkan})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_, err = d.Next()
	if !errors.Is(err, ErrNoHWDec) || !strings.Contains(err.Error(), gpu.ExtVideoDecodeQueue) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("required: %v", err)
	}
	t.Logf("auto: %+v; required: %v", h, err)
}

// TestHWDecRefusalKeepsEveryPicture: a stream whose hardware decoding is refused is decoded in
// software from where it was, every picture once: a Matroska file (reopened with two threads) and a
// raw H.264 stream with a size change (changes.h264, 9 pictures), which keeps its single-threaded
// decoder (restoreThreads): a seek there left the reader at the end, 1 picture of 9.
func TestHWDecRefusalKeepsEveryPicture(t *testing.T) {
	dev := openVideoDevice(t)
	fakeVideo(t, dev)
	for _, name := range []string{"changes.h264", "default.mkv"} {
		count := func(hw HWDec) int {
			d, err := Open(filepath.Join(mediaDir, name), Options{Threads: 2, Vulkan: dev, HWDec: hw})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			n := 0
			for {
				f, err := d.Next()
				if err != nil {
					if !errors.Is(err, io.EOF) {
						t.Fatalf("%s: %v", name, err)
					}
					return n
				}
				f.Release()
				n++
			}
		}
		if got, want := count(HWDecAuto), count(HWDecNo); got != want || want == 0 {
			t.Errorf("%s: %d pictures with the hardware refused, %d in software", name, got, want)
		}
	}
}

// FFmpeg's own refusal, the last resort behind the capability check (skipped here): FFmpeg's
// hwaccel fails to initialise for want of a decode queue and asks get_format again without Vulkan.
// Auto goes on in software with the reason; -hwdec vulkan ends with one error. With frame threads:
// this is the path that once crashed (docs/hwdec.md); run it with -count=20.
func TestHWDecFFmpegRefusal(t *testing.T) {
	dev := openVideoDevice(t)
	fakeVideo(t, dev)
	clip := filepath.Join(mediaDir, "default.mkv")
	d, err := Open(clip, Options{Threads: 4, Vulkan: dev, hwSkipCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	n := decodeKind(t, d, false)
	h := d.HW()
	d.Close()
	if n == 0 || h.Active || !strings.Contains(h.Reason, "could not initialise") {
		t.Fatalf("%d frames, %+v", n, h)
	}
	d, err = Open(clip, Options{Threads: 4, Vulkan: dev, HWDec: HWDecVulkan, hwSkipCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_, err = d.Next()
	if !errors.Is(err, ErrNoHWDec) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("required: %v", err)
	}
	t.Logf("auto: %+v; required: %v", h, err)
}

// TestUseVulkanMoves: a decoder opened on one device and handed another before decoding
// (UseVulkan: a wall spreading its H.264 decoders over devices) lets go of FFmpeg's device context
// on the first, which it would otherwise keep decoding on while the caller reads the second's
// pictures. Lavapipe decodes nothing, so the context is the one setupHW makes where a device does.
func TestUseVulkanMoves(t *testing.T) {
	a := vktest.OpenWith(t, gpu.Options{Frames: true})
	b := vktest.OpenWith(t, gpu.Options{Frames: true})
	d, err := Open(filepath.Join(mediaDir, "default.mkv"), Options{Vulkan: a})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	hw, err := avx.NewVulkanDevice(vulkanDevice(a))
	if err != nil {
		t.Fatal(err)
	}
	d.hwDev = hw
	if err := d.UseVulkan(b, HWDecAuto); err != nil {
		t.Fatal(err)
	}
	if d.hwDev == hw {
		t.Fatal("UseVulkan kept FFmpeg's device context on the first device")
	}
	if err := d.UseVulkan(b, HWDecAuto); err != nil { // the same device: nothing to let go
		t.Fatal(err)
	}
	if _, err := d.Next(); err != nil {
		t.Fatal(err)
	}
}
