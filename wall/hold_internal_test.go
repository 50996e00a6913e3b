package wall

import (
	"runtime"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// TestTimedStepPassesOverHeldPicture: a timed step does not wait for a picture whose lock another
// thread holds (FFmpeg's decoder, recording a decoding that reads it): two streams of the 25 fps
// clip in FFmpeg's Vulkan frames (Options.Upload, the hardware frames' path), stepped at 50 Hz with
// made-up times; the first stream's next picture is locked from here before its step. The step
// returns (within 5 s: one that waited for the lock would not, the lock being held until then), the
// other stream drawn, the first keeping that picture back (heldBack); released, the next step
// draws it, nothing dropped.
func TestTimedStepPassesOverHeldPicture(t *testing.T) {
	runtime.LockOSThread() // the lock is taken and released from one thread (a pthread mutex)
	defer runtime.UnlockOSThread()
	dev := vktest.OpenWith(t, gpu.Options{Frames: true})
	w, err := Open(dev, []Input{{URL: clip}, {URL: clip}}, Options{Upload: true, Period: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	t0 := time.Now()
	at := time.Duration(0)
	// Into the play: each stream's clock starts from its first draw's real time (tile.origin).
	a, b := w.tiles[0], w.tiles[1]
	for k := 0; a.shown < 3 || b.shown < 3; k++ {
		if k == 500 {
			t.Fatalf("after %d steps the streams have shown %d and %d pictures", k, a.shown, b.shown)
		}
		tick(t, w, t0, at)
		at += 20 * time.Millisecond
	}
	full(t, w)
	if a.next == nil || a.next.HW == nil {
		t.Fatalf("the first stream's next picture: %v (want one in a Vulkan frame)", a.next)
	}
	locked := a.next.HW.Foreign()
	if _, err := locked.Lock(); err != nil {
		t.Fatal(err)
	}
	shownA, shownB := a.shown, b.shown
	for end := at + 200*time.Millisecond; a.heldBack == 0 && at < end; { // until its picture falls due
		for _, tl := range w.tiles {
			if err := tl.st.Ring.Drain(); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		go func(at time.Duration) {
			_, err := w.Tick(t0.Add(at))
			done <- err
		}(at)
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(5 * time.Second):
			locked.Unlock()
			<-done
			t.Fatal("a timed step waited for a picture's lock held elsewhere")
		}
		at += 20 * time.Millisecond
	}
	if a.heldBack != 1 || a.held == nil || a.shown != shownA {
		locked.Unlock()
		t.Fatalf("first stream with its next picture locked: held back %d (picture %v), shown %d then %d; want 1 held back, none shown",
			a.heldBack, a.held != nil, shownA, a.shown)
	}
	if b.shown <= shownB {
		locked.Unlock()
		t.Fatalf("the other stream shown %d then %d: it waited too", shownB, b.shown)
	}
	locked.Unlock()
	tick(t, w, t0, at)
	if a.shown != shownA+1 || a.held != nil || a.dropped != 0 {
		t.Fatalf("released: first stream shown %d (want %d), held %v, dropped %d", a.shown, shownA+1, a.held != nil, a.dropped)
	}
}
