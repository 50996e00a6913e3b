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
