package decode

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// cpuTime is the process's user + system time (getrusage).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pictureHash hashes the picture's samples channel by channel (Y, then Cb, then Cr) as 16-bit
// values right-aligned, so that a software decoder's yuv420p10le and the hardware's p010le of the same
// picture hash the same.
func pictureHash(f *Frame) [32]byte {
	pic, pf := f.Picture, f.Picture.Format
	var ch [3][]byte
	bytesPer := pf.ContainerBits / 8
	shift := 0
	if pf.Align == formats.AlignMSB {
		shift = pf.ContainerBits - pf.Depth
	}
	for i, p := range pf.Planes {
		w, ht := pf.PlaneSize(i, pic.Width, pic.Height)
		for y := 0; y < ht; y++ {
			row := pic.Planes[i][y*pic.Strides[i]:]
			for x := 0; x < w; x++ {
				for k, c := range p.Channels {
					o := x*p.BytesPerTexel + k*bytesPer
					v := uint16(row[o])
					if bytesPer == 2 {
						v = binary.LittleEndian.Uint16(row[o:]) >> shift
					}
					ch[c] = binary.LittleEndian.AppendUint16(ch[c], v)
				}
			}
		}
	}
	h := sha256.New()
	for _, c := range ch {
		h.Write(c)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

type clipRun struct {
	Clip          string  `json:"clip"`
	Mode          string  `json:"mode"`
	Decoder       string  `json:"decoder"`
	Frames        int     `json:"frames"`
	WallS         float64 `json:"wall_s"`
	FPS           float64 `json:"fps"`
	CPUMsPerFrame float64 `json:"cpu_ms_per_frame"`
	Threads       int     `json:"threads"`
	Compared      int     `json:"compared,omitempty"`
	Identical     int     `json:"identical,omitempty"`
	SWFormat      string  `json:"sw_format,omitempty"`
	Coded         string  `json:"coded,omitempty"`
}

// TestHWDecClips runs on a machine with Vulkan Video (scripts/device/run.sh hwdec): each clip of
// $YCBCRKIT_HWDEC_CLIPS is decoded in software and in hardware on the toolkit's device (decode
// alone: frames not downloaded, decode rate and CPU time per frame), then every 10th hardware frame
// is downloaded and compared byte for byte with the software decoder's (H.264 and HEVC decoding is
// exact: both must give the same samples). Results go to $YCBCRKIT_HWDEC_OUT as JSON lines.
func TestHWDecClips(t *testing.T) {
	dir := os.Getenv("YCBCRKIT_HWDEC_CLIPS")
	if dir == "" {
		t.Skip("YCBCRKIT_HWDEC_CLIPS is not set (a run on a machine with Vulkan Video sets it)")
	}
	dev := openVideoDevice(t)
	if !dev.Video.Enabled {
		t.Fatalf("no Vulkan Video on %s: %s", dev.Info.Name, dev.Video.Reason)
	}
	t.Logf("device %s: decode family %d (%d queues), codec ops %#x, %v", dev.Info.Name, dev.Video.DecodeFamily,
		dev.Video.DecodeQueues, dev.Video.CodecOps, dev.Video.Extensions)
	clips, _ := filepath.Glob(filepath.Join(dir, "*.mkv"))
	if len(clips) == 0 {
		t.Fatalf("no clips in %s", dir)
	}
	var out io.Writer = io.Discard
	if p := os.Getenv("YCBCRKIT_HWDEC_OUT"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out = f
	}
	threads := max(1, runtime.NumCPU()/2)
	const every = 10
	for _, clip := range clips {
		name := filepath.Base(clip)
		hashes := map[int][32]byte{}
		pass := func(mode HWDec, compare bool) clipRun {
			d, err := Open(clip, Options{Threads: threads, Vulkan: dev, HWDec: mode})
			if err != nil {
				t.Fatalf("%s %s: %v", name, mode, err)
			}
			defer d.Close()
			r := clipRun{Clip: name, Mode: mode.String(), Threads: threads}
			c0, t0 := cpuTime(), time.Now()
			for {
				f, err := d.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("%s %s frame %d: %v", name, mode, r.Frames, err)
				}
				if mode == HWDecVulkan && f.HW == nil {
					t.Fatalf("%s frame %d: software frame under -hwdec vulkan", name, r.Frames)
				}
				if f.HW != nil && r.Coded == "" {
					r.SWFormat, r.Coded = f.HW.SWFormat.Name, fmt.Sprintf("%dx%d", f.HW.CodedWidth, f.HW.CodedHeight)
				}
				if r.Frames%every == 0 {
					switch {
					case mode == HWDecNo:
						hashes[r.Frames] = pictureHash(f)
					case compare:
						dl, err := f.HW.Download()
						if err != nil {
							t.Fatalf("%s frame %d: %v", name, r.Frames, err)
						}
						r.Compared++
						if pictureHash(dl) == hashes[r.Frames] {
							r.Identical++
						} else {
							t.Errorf("%s frame %d: hardware and software pictures differ", name, r.Frames)
						}
						dl.Release()
					}
				}
				f.Release()
				r.Frames++
			}
			r.WallS = time.Since(t0).Seconds()
			r.FPS = float64(r.Frames) / r.WallS
			r.CPUMsPerFrame = float64((cpuTime() - c0).Microseconds()) / 1000 / float64(max(1, r.Frames))
			r.Decoder, r.Threads = d.HW().Decoder, d.Threads() // the threads used, not those asked for
			return r
		}
		for _, r := range []clipRun{pass(HWDecNo, false), pass(HWDecVulkan, false), pass(HWDecVulkan, true)} {
			if r.Compared > 0 {
				r.Mode = "vulkan+download"
			}
			b, _ := json.Marshal(r)
			fmt.Fprintln(out, string(b))
			t.Log(string(b))
		}
	}
}
