package stream_test

import (
	"fmt"
	"image"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestRelay: pictures in FFmpeg's Vulkan frames on one device (software pictures uploaded, as a
// Vulkan decoder outputs them) relayed to a second device of the GPU draw there exactly as the same
// pictures uploaded on that device, for 8- and 10-bit layouts at the picture's size and padded,
// three pictures per image of a two-image relay (each image reused, the stream holding one while
// the next is copied); each picture a new one, so that a relay handing out a stale image fails.
// The relay leaves the source frame's semaphore one higher and its lock free. The validation layer,
// synchronization validation included, checks both devices.
func TestRelay(t *testing.T) {
	to, up, relay := relayPair(t, 2)
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	for _, tc := range foreignCases {
		pf, _ := formats.Lookup(tc.format)
		tc.setPad(up)
		s, err := stream.New(to, stream.Options{Upload: planes.UploadCopy})
		if err != nil {
			t.Fatal(err)
		}
		cfg := stream.Config{Format: pf, Width: tc.w, Height: tc.h, Params: p, Choice: formats.ChooseSampler}
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		var held func()
		for i := range 6 {
			name := fmt.Sprintf("%s %dx%d picture %d", tc.format, tc.w, tc.h, i)
			want, hw := noiseUploaded(t, to, s, up, pf, tc.w, tc.h, uint64(10+i))
			src := hw.HW.Foreign()
			before, _ := stream.ForeignPoint(src)
			shared, back, wait, err := relay.Submit(src, hw.HW.SWFormat)
			if err == nil {
				err = wait()
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			after, _ := stream.ForeignPoint(src) // takes the lock: a relay that kept it hangs here
			hw.Release()
			if after.Value != before.Value+1 {
				t.Errorf("%s: the source's semaphore went from %d to %d; want one up", name, before.Value, after.Value)
			}
			got, route, why := drawForeign(t, to, s, shared, tc.w, tc.h)
			if route != stream.RouteCopy {
				t.Errorf("%s: route %s (%s); want the copy", name, route, why)
			}
			if d := maxDiff(got, want); d != 0 {
				t.Errorf("%s: relayed picture %d LSB from the same picture uploaded", name, d)
			}
			// Hold each picture until the next has been copied: the relay then takes its other image.
			if held != nil {
				held()
			}
			held = back
		}
		held()
		s.Close()
	}
}

// TestRelaySubmitAhead: with Submit the next picture's copy goes in before the last one's is waited
// for (two in flight, as a stream with two decodings in flight relays them), and every picture, read
// once its wait returned, draws exactly as the same picture uploaded on To; a wait called after a
// later copy of its slot was waited for returns at once. Each source frame is kept until its copy
// was waited for: given back at once, FFmpeg's uploader wrote the next picture into it while it was
// copied (255 LSB in full runs). Validated, synchronization included.
func TestRelaySubmitAhead(t *testing.T) {
	to, up, relay := relayPair(t, 3)
	s, tc, pf := firstCaseStream(t, to, up)
	type sent struct {
		img    stream.Foreign
		back   func()
		wait   func() error
		want   *image.RGBA
		name   string
		source func()
	}
	var last *sent
	for i := range 7 {
		name := fmt.Sprintf("%s picture %d", tc.format, i)
		want, hw := noiseUploaded(t, to, s, up, pf, tc.w, tc.h, uint64(40+i))
		img, back, wait, err := relay.Submit(hw.HW.Foreign(), hw.HW.SWFormat)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The source frame is kept until its copy was waited for (its image is read until then).
		cur := &sent{img, back, wait, want, name, hw.Release}
		if last != nil { // the one before, with this one's copy submitted
			if err := last.wait(); err != nil {
				t.Fatalf("%s: %v", last.name, err)
			}
			last.source()
			got, _, _ := drawForeign(t, to, s, last.img, tc.w, tc.h)
			if d := maxDiff(got, last.want); d != 0 {
				t.Errorf("%s: relayed ahead %d LSB from the same picture uploaded", last.name, d)
			}
			if err := last.wait(); err != nil { // again: nothing left to wait for
				t.Errorf("%s: second wait: %v", last.name, err)
			}
			last.back()
		}
		last = cur
	}
	if err := last.wait(); err != nil {
		t.Fatal(err)
	}
	last.source()
	last.back()
}

// TestRelayWaitsForSource: Submit does not submit its copy before the source's work is done (a
// copy waiting for a decoding on From's queue holds every other stream's copies behind it): with
// the source's point not yet reached, Submit has not returned 200 ms later; once the point is
// signalled from the host it returns, and the picture draws exactly as uploaded. Validated.
func TestRelayWaitsForSource(t *testing.T) {
	from, to, up, relay := relayDevices(t, 2)
	s, tc, pf := firstCaseStream(t, to, up)
	want, hw := noiseUploaded(t, to, s, up, pf, tc.w, tc.h, 77)
	defer hw.Release()
	pt, err := stream.ForeignPoint(hw.HW.Foreign()) // what the upload signals
	if err != nil {
		t.Fatal(err)
	}
	src := &laterWork{Foreign: hw.HW.Foreign()}
	type result struct {
		img  stream.Foreign
		back func()
		wait func() error
		err  error
	}
	done := make(chan result, 1)
	go func() {
		img, back, wait, err := relay.Submit(src, hw.HW.SWFormat)
		done <- result{img, back, wait, err}
	}()
	var r result
	early := false
	select {
	case r = <-done:
		// Not fatal yet: the copy would wait for the signal below on the GPU, and the devices'
		// ends for the copy.
		t.Error("Submit returned before the source's work was done")
		early = true
	case <-time.After(200 * time.Millisecond):
	}
	// The upload's own signal first: a host signal must come after every pending one.
	if err := pt.Wait(from, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := vkx.SignalSemaphore(from.Device, pt.Semaphore, pt.Value+1); err != nil {
		t.Fatal(err)
	}
	if !early {
		select {
		case r = <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("Submit did not return once the source's work was done")
		}
	}
	if r.err == nil {
		r.err = r.wait()
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	defer r.back()
	got, _, _ := drawForeign(t, to, s, r.img, tc.w, tc.h)
	if d := maxDiff(got, want); d != 0 {
		t.Errorf("relayed picture %d LSB from the same picture uploaded", d)
	}
}

// laterWork is a Foreign frame with one more piece of work pending on it than it has: its next user
// waits for the value after the one its owner says, which the test signals from the host. Submitted
// counts that value too, so the owner's count stays the semaphore's.
type laterWork struct{ stream.Foreign }

func (l *laterWork) Lock() (planes.ForeignState, error) {
	st, err := l.Foreign.Lock()
	st.Value++
	return st, err
}

func (l *laterWork) Submitted(layout vk.ImageLayout, access vk.AccessFlags) {
	l.Foreign.Submitted(layout, access)
	l.Foreign.Submitted(layout, access)
}

// firstCaseStream is a stream on to configured for foreignCases[0] (BT.709, limited range),
// closed with the test, with up padding its pictures as the case says.
func firstCaseStream(t *testing.T, to *gpu.Device, up *decode.Uploader) (*stream.Stream, foreignCase, *formats.PixelFormat) {
	t.Helper()
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	tc := foreignCases[0]
	pf, _ := formats.Lookup(tc.format)
	tc.setPad(up)
	s, err := stream.New(to, stream.Options{Upload: planes.UploadCopy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if _, err := s.Configure(stream.Config{Format: pf, Width: tc.w, Height: tc.h, Params: p, Choice: formats.ChooseSampler}); err != nil {
		t.Fatal(err)
	}
	return s, tc, pf
}

// relayPair opens two devices sharing memory, an uploader putting pictures in FFmpeg's Vulkan frames
// on the first (as a Vulkan decoder outputs them) and a relay of n images to the second; all closed
// with the test.
func relayPair(t *testing.T, n int) (to *gpu.Device, up *decode.Uploader, relay *stream.Relay) {
	_, to, up, relay = relayDevices(t, n)
	return to, up, relay
}

// relayDevices is relayPair with the first device too.
func relayDevices(t *testing.T, n int) (from, to *gpu.Device, up *decode.Uploader, relay *stream.Relay) {
	t.Helper()
	from = vktest.OpenWith(t, gpu.Options{Frames: true, Share: true})
	to = vktest.OpenWith(t, gpu.Options{Frames: true, Share: true})
	up, err := decode.NewUploader(from)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(up.Close)
	if relay, err = stream.NewRelay(from, to, n); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(relay.Close)
	return from, to, up, relay
}

// noiseUploaded makes a noise picture of seed, draws it through s on to (the reference) and puts it
// in one of up's FFmpeg Vulkan frames.
func noiseUploaded(t *testing.T, to *gpu.Device, s *stream.Stream, up *decode.Uploader, pf *formats.PixelFormat,
	w, h int, seed uint64) (want *image.RGBA, hw *decode.Frame) {
	t.Helper()
	pic, err := synth.Noise(pf, w, h, seed)
	if err != nil {
		t.Fatal(err)
	}
	want = drawOne(t, to, s, pic)
	if hw, err = up.Upload(pic); err != nil {
		t.Fatalf("%s %dx%d picture %d: %v", pf.Name, w, h, seed, err)
	}
	return want, hw
}
