package decode

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// hwSeekTargets: forward to a frame far from its key frame (2.5 s: 150 frames after the key frame
// at 0 of scripts/device's 60 fps clips, key frames at 0 and 4.167 s), back, forward past the second
// key frame to a frame that is not one, exactly onto that key frame, back again.
var hwSeekTargets = []float64{2.5, 0.7, 4.3, 4.167, 1.0}

// validationAfter reports the validation layer's messages queued since the last call, with what was
// done (vkx.Messages drains the queue).
func validationAfter(t *testing.T, what string) {
	t.Helper()
	for i, m := range vkx.Messages() {
		if i < 3 {
			t.Errorf("%s: validation: %.400s", what, m.Text)
		}
	}
}

// sampleRef is one frame's time, size and picture hash (hardware frames downloaded first).
type sampleRef struct {
	pts  float64
	w, h int
	sum  [32]byte
	hw   bool
}

// takeFrame returns the next frame's sampleRef, or ok false at the end.
func takeFrame(t *testing.T, d *Decoder, what string) (sampleRef, bool) {
	t.Helper()
	f, err := d.Next()
	if errors.Is(err, io.EOF) {
		return sampleRef{}, false
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer f.Release()
	r := sampleRef{pts: f.PTS, w: f.Picture.Width, h: f.Picture.Height, hw: f.HW != nil}
	if f.HW == nil {
		r.sum = pictureHash(f)
		return r, true
	}
	dl, err := f.HW.Download()
	if err != nil {
		t.Fatalf("%s: download: %v", what, err)
	}
	r.sum = pictureHash(dl)
	dl.Release()
	return r, true
}

// TestHWDecSeekClips runs on a machine with Vulkan Video (scripts/device/run.sh hwdec): on
// $YCBCRKIT_HWDEC_CLIPS' hevc-1080p and h264-1080p, a hardware decoder and a software decoder make
// the same seeks (hwSeekTargets); after each, the next 3 frames must have the same times and, the
// hardware's downloaded, the same samples, and come from the hardware; after the last seek both
// decode to the end and every frame is compared the same way (EOF drain: the same number of frames).
func TestHWDecSeekClips(t *testing.T) {
	dir := os.Getenv("YCBCRKIT_HWDEC_CLIPS")
	if dir == "" {
		t.Skip("YCBCRKIT_HWDEC_CLIPS is not set (a run on a machine with Vulkan Video sets it)")
	}
	dev := openVideoDevice(t)
	for _, name := range []string{"hevc-1080p.mkv", "h264-1080p.mkv"} {
		clip := filepath.Join(dir, name)
		run := func(mode HWDec) (seeks [][]sampleRef, tail []sampleRef) {
			d, err := Open(clip, Options{Threads: 4, Vulkan: dev, HWDec: mode})
			if err != nil {
				t.Fatalf("%s %s: %v", name, mode, err)
			}
			defer d.Close()
			for i := range 20 {
				takeFrame(t, d, fmt.Sprintf("%s %s frame %d", name, mode, i))
			}
			validationAfter(t, fmt.Sprintf("%s %s: the first 20 frames", name, mode))
			for _, s := range hwSeekTargets {
				if err := d.Seek(s); err != nil {
					t.Fatalf("%s %s: seek %.3f: %v", name, mode, s, err)
				}
				var got []sampleRef
				for i := range 3 {
					r, ok := takeFrame(t, d, fmt.Sprintf("%s %s seek %.3f frame %d", name, mode, s, i))
					if !ok {
						t.Fatalf("%s %s: seek %.3f: the end after %d frames", name, mode, s, i)
					}
					got = append(got, r)
				}
				seeks = append(seeks, got)
				validationAfter(t, fmt.Sprintf("%s %s: seek %.3f and 3 frames", name, mode, s))
			}
			for {
				r, ok := takeFrame(t, d, fmt.Sprintf("%s %s drain frame %d", name, mode, len(tail)))
				if !ok {
					break
				}
				tail = append(tail, r)
			}
			validationAfter(t, fmt.Sprintf("%s %s: to the end", name, mode))
			if h := d.HW(); mode == HWDecVulkan && !h.Active {
				t.Errorf("%s: hardware decoding not active at the end: %s", name, h.Reason)
			}
			return seeks, tail
		}
		swSeeks, swTail := run(HWDecNo)
		hwSeeks, hwTail := run(HWDecVulkan)
		for i, s := range hwSeekTargets {
			for j := range 3 {
				a, b := swSeeks[i][j], hwSeeks[i][j]
				if !b.hw || a.pts != b.pts || a.sum != b.sum {
					t.Errorf("%s seek %.3f frame %d: hardware %.3f s (hw %v), software %.3f s, samples equal %v",
						name, s, j, b.pts, b.hw, a.pts, a.sum == b.sum)
				}
			}
			t.Logf("%s: seek %.3f lands on %.3f s: 3 frames, hardware = software", name, s, hwSeeks[i][0].pts)
		}
		if len(hwTail) != len(swTail) {
			t.Errorf("%s: after the last seek %d frames in hardware, %d in software", name, len(hwTail), len(swTail))
		}
		diff := 0
		for i := range min(len(hwTail), len(swTail)) {
			if hwTail[i].pts != swTail[i].pts || hwTail[i].sum != swTail[i].sum || !hwTail[i].hw {
				diff++
			}
		}
		if diff > 0 {
			t.Errorf("%s: %d of the frames to the end differ", name, diff)
		}
		t.Logf("%s: to the end after the last seek: %d frames, last %.3f s, %d differ", name, len(hwTail), hwTail[len(hwTail)-1].pts, diff)
	}
}

// TestHWDecSizeChangeClips (scripts/device/run.sh hwdec): $YCBCRKIT_HWDEC_CLIPS' *-sizes.ts change
// size mid-stream (1920×1080, 1278×718, 1920×1080: MPEG-TS segments joined with cat). Every frame,
// decoded in hardware and downloaded, has the software decoder's time, size and samples, and comes
// from the hardware.
func TestHWDecSizeChangeClips(t *testing.T) {
	dir := os.Getenv("YCBCRKIT_HWDEC_CLIPS")
	if dir == "" {
		t.Skip("YCBCRKIT_HWDEC_CLIPS is not set (a run on a machine with Vulkan Video sets it)")
	}
	dev := openVideoDevice(t)
	clips, _ := filepath.Glob(filepath.Join(dir, "*-sizes.ts"))
	if len(clips) == 0 {
		t.Fatalf("no *-sizes.ts in %s", dir)
	}
	for _, clip := range clips {
		name := filepath.Base(clip)
		all := func(mode HWDec) []sampleRef {
			d, err := Open(clip, Options{Threads: 4, Vulkan: dev, HWDec: mode})
			if err != nil {
				t.Fatalf("%s %s: %v", name, mode, err)
			}
			defer d.Close()
			var out []sampleRef
			for {
				r, ok := takeFrame(t, d, fmt.Sprintf("%s %s frame %d", name, mode, len(out)))
				if !ok {
					return out
				}
				out = append(out, r)
			}
		}
		sw, hw := all(HWDecNo), all(HWDecVulkan)
		validationAfter(t, name)
		if len(sw) != len(hw) {
			t.Errorf("%s: %d frames in hardware, %d in software", name, len(hw), len(sw))
		}
		var sizes []string
		diff, soft := 0, 0
		for i := range min(len(sw), len(hw)) {
			a, b := sw[i], hw[i]
			if a.pts != b.pts || a.w != b.w || a.h != b.h || a.sum != b.sum {
				diff++
				if diff <= 3 {
					t.Errorf("%s frame %d: hardware %.3f s %dx%d, software %.3f s %dx%d, samples equal %v", name, i,
						b.pts, b.w, b.h, a.pts, a.w, a.h, a.sum == b.sum)
				}
			}
			if !b.hw {
				soft++
			}
			s := fmt.Sprintf("%dx%d", b.w, b.h)
			if len(sizes) == 0 || !strings.HasPrefix(sizes[len(sizes)-1], s+" ") {
				sizes = append(sizes, fmt.Sprintf("%s from frame %d", s, i))
			}
		}
		if soft > 0 {
			t.Errorf("%s: %d frames came from the software decoder", name, soft)
		}
		t.Logf("%s: %d frames, sizes %s; %d differ from software, %d not from the hardware", name, len(hw),
			strings.Join(sizes, ", "), diff, soft)
	}
}
