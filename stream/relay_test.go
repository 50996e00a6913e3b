package stream_test

import (
	"fmt"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
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
	from := vktest.OpenWith(t, gpu.Options{Frames: true, Share: true})
	to := vktest.OpenWith(t, gpu.Options{Frames: true, Share: true})
	up, err := decode.NewUploader(from)
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	relay, err := stream.NewRelay(from, to, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer relay.Close()
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
			pic, err := synth.Noise(pf, tc.w, tc.h, uint64(10+i))
			if err != nil {
				t.Fatal(err)
			}
			want := drawOne(t, to, s, pic)
			hw, err := up.Upload(pic)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			src := hw.HW.Foreign()
			before, _ := stream.ForeignPoint(src)
			shared, back, err := relay.Copy(src, hw.HW.SWFormat)
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
