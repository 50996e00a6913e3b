//go:build ycbcrkit_faults

package decode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// A hardware failure mid-stream (injected: lavapipe has no Vulkan Video, and the failure takes the
// path of FFmpeg's AVERROR_EXTERNAL) makes the decoder reopen the stream in software from the key
// frame before the last frame returned: every frame comes out once, in order, with the pictures of
// an undisturbed decode of the same file (B-frames, 4 key frames, 4 frame threads), and HW() says
// why.
func TestHWDecMidStreamFallback(t *testing.T) {
	t.Cleanup(avx.ClearHWFailure)
	clip := filepath.Join(mediaDir, "default.mkv")
	ref, err := Open(clip, Options{Threads: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := decodeSums(t, ref)
	ref.Close()
	for _, after := range []int{0, 37, 60} { // before the first frame, mid-GOP, just after a key frame
		avx.InjectHWFailure(after)
		d, err := Open(clip, Options{Threads: 4})
		if err != nil {
			t.Fatal(err)
		}
		got := decodeSums(t, d)
		h, st, notes := d.HW(), d.Stats(), d.Notices()
		d.Close()
		if avx.HWFailureFired() != 1 || st.HWFallbacks != 1 {
			t.Fatalf("after %d: %d failures injected, %d fallbacks", after, avx.HWFailureFired(), st.HWFallbacks)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("after %d: %d frames, want %d; first difference at %d", after, len(got), len(want), firstDiff(got, want))
		}
		if h.Active || !strings.Contains(h.Reason, "failed mid-stream") || len(notes) == 0 || !strings.Contains(notes[len(notes)-1], "failed mid-stream") {
			t.Fatalf("after %d: HW() %+v, notices %q", after, h, notes)
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return len(a)
}

// A hardware failure in a raw H.264 stream (changes.h264: 9 pictures, key frames where its size
// changes), which seeks by reading for a frame: decoding goes on in software from where it is, at
// the next key frame, as for an input that cannot seek; seeking back, the reader ended up at the end
// of the file (no picture at all after a failure before the first).
func TestHWDecMidStreamFallbackRaw(t *testing.T) {
	t.Cleanup(avx.ClearHWFailure)
	clip := filepath.Join(mediaDir, "changes.h264")
	for _, after := range []int{0, 1} {
		avx.InjectHWFailure(after)
		d, err := Open(clip, Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := decodeSums(t, d)
		fell := d.Stats().HWFallbacks
		d.Close()
		if fell != 1 || len(got) <= after || len(got) > 9 {
			t.Errorf("failure after %d pictures: %d fallbacks, %d pictures in all; want one, and pictures after it", after, fell, len(got))
		}
	}
}
