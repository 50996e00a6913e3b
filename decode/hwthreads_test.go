package decode

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// Threads where hardware decoding may be used (issue 19): a decoder that may decode with Vulkan
// Video is opened without threads; when get_format then decodes in software (the capability check,
// or FFmpeg's own refusal with the check skipped), the decoder is reopened with the threads asked
// for and every frame still comes once, the pictures of a software decode. Software decoding (-hwdec no, or a device that cannot
// decode) keeps its threads from the start.
func TestHWDecThreads(t *testing.T) {
	dev := openVideoDevice(t)
	clip := filepath.Join(mediaDir, "default.mkv")
	count := func(opts Options) (int, *Decoder) {
		d, err := Open(clip, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return decodeKind(t, d, false), d
	}
	ref, err := Open(clip, Options{Threads: 4, HWDec: HWDecNo})
	if err != nil {
		t.Fatal(err)
	}
	want := decodeSums(t, ref)
	if ref.Threads() != 4 || len(want) == 0 {
		t.Fatalf("-hwdec no: %d threads, %d frames; want 4 threads", ref.Threads(), len(want))
	}
	ref.Close()
	if dev.Video.Enabled { // a device that decodes: Vulkan Video on one thread, to the end
		d, err := Open(clip, Options{Threads: 4, Vulkan: dev})
		if err != nil {
			t.Fatal(err)
		}
		n := decodeKind(t, d, true)
		if d.Threads() != 1 || !d.HW().Active || n != len(want) {
			t.Fatalf("auto on a device that decodes: %d threads, %+v, %d of %d frames; want 1 thread, hardware", d.Threads(), d.HW(), n, len(want))
		}
		d.Close()
		t.Skip("the device decodes in hardware: the reopening is tested on devices without Vulkan Video")
	}
	if _, d := count(Options{Threads: 4, Vulkan: dev}); d.Threads() != 4 || d.HW().Active {
		t.Fatalf("auto on a device that cannot decode: %d threads, %+v; want 4, software", d.Threads(), d.HW())
	}

	fakeVideo(t, dev) // now the decoder hands the device to FFmpeg and get_format decides
	for _, skip := range []bool{false, true} {
		d, err := Open(clip, Options{Threads: 4, Vulkan: dev, hwSkipCheck: skip})
		if err != nil {
			t.Fatal(err)
		}
		if d.Threads() != 1 {
			t.Fatalf("check skipped %v: hardware possible, %d threads before the first frame; want 1", skip, d.Threads())
		}
		got := decodeSums(t, d)
		h := d.HW()
		threads := d.Threads()
		d.Close()
		reason := gpu.ExtVideoDecodeQueue
		if skip {
			reason = "could not initialise"
		}
		if !slices.Equal(got, want) || threads != 4 || h.Active || !strings.Contains(h.Reason, reason) {
			t.Fatalf("check skipped %v: %d frames (want the %d of software decoding, same pictures), %d threads (want 4), %+v",
				skip, len(got), len(want), threads, h)
		}
		t.Logf("check skipped %v: %d frames as software decoding's, reopened with %d threads: %s", skip, len(got), threads, h.Reason)
	}
}
