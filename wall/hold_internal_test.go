package wall

import (
	"runtime"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// TestStepPassesOverHeldPicture: an untimed step does not wait for a picture whose lock another
// thread holds (FFmpeg's decoder, recording a decoding that reads it): two streams of the clip in
// FFmpeg's Vulkan frames (Options.Upload, the hardware frames' path); the first stream's next
// picture is locked from here before a step. The step returns (within 5 s: one that waited for the
// lock would not, the lock being held until then) with the other stream drawn and the first's
// picture kept; released, the next steps draw it.
func TestStepPassesOverHeldPicture(t *testing.T) {
	runtime.LockOSThread() // the lock is taken and released from one thread (a pthread mutex)
	defer runtime.UnlockOSThread()
	dev := vktest.OpenWith(t, gpu.Options{Frames: true})
	w, err := Open(dev, []Input{{URL: clip}, {URL: clip}}, Options{Upload: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	a, b := w.tiles[0], w.tiles[1]
	for k := 0; a.shown < 3 || b.shown < 3; k++ {
		if k == 500 {
			t.Fatalf("after %d steps the streams have shown %d and %d pictures", k, a.shown, b.shown)
		}
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
	}
	full(t, w)
	for _, tl := range w.tiles {
		if err := tl.st.Ring.Drain(); err != nil {
			t.Fatal(err)
		}
	}
	if a.next == nil {
		if _, err := w.poll(a); err != nil {
			t.Fatal(err)
		}
	}
	f := a.next
	if f == nil || f.HW == nil {
		t.Fatalf("the first stream's next picture: %v (want one in a Vulkan frame)", f)
	}
	locked := f.HW.Foreign()
	if _, err := locked.Lock(); err != nil {
		t.Fatal(err)
	}
	shownA, shownB := a.shown, b.shown
	done := make(chan error, 1)
	go func() {
		_, err := w.Step()
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			locked.Unlock()
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		locked.Unlock()
		<-done
		t.Fatal("a step waited for a picture's lock held elsewhere")
	}
	if a.shown != shownA || a.next != f || b.shown <= shownB {
		locked.Unlock()
		t.Fatalf("with the first stream's picture locked: it showed %d then %d (picture kept: %v), the other %d then %d; want the first unchanged, the other drawn",
			shownA, a.shown, a.next == f, shownB, b.shown)
	}
	locked.Unlock()
	for k := 0; a.shown == shownA; k++ {
		if k == 50 {
			t.Fatalf("released: the first stream still at %d pictures after %d steps", a.shown, k)
		}
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
	}
}
