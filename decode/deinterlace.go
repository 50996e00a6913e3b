package decode

import (
	"fmt"
	"math"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// Deinterlacing runs FFmpeg's bwdif (libavfilter, on the CPU) between the decoder and the frames
// handed out. bwdif rather than a GPU pass: it is FFmpeg's own algorithm, so its output can be checked
// bit for bit against the ffmpeg program's, and the pictures then take every upload route and both
// conversion paths unchanged. Its output frames live in the filter's buffers, so they are copied
// into the page-aligned pool (Stats.Copied counts them).
type deinterlacer struct {
	f       *avx.Deinterlacer
	w, h    int
	format  int
	tb      float64 // the filter's output time base, seconds
	start   int64   // the stream's start in that time base
	flushed bool    // the end of input was pushed
}

// deinterlaceThis reports whether the frame in d.recv goes through the deinterlacer, making it on
// the first such frame (and anew when the geometry changes).
func (d *Decoder) deinterlaceThis() (bool, error) {
	fl := avx.ReadFields(d.recv)
	switch {
	case d.opts.Deinterlace == DeinterlaceNo:
		return false, nil
	case d.opts.Deinterlace == DeinterlaceAuto && d.deint == nil && fl.Flags&avx.FrameFlagInterlaced == 0:
		return false, nil
	}
	if d.deint != nil && (d.deint.w != fl.Width || d.deint.h != fl.Height || d.deint.format != fl.Format) {
		// A new geometry: the old graph is dropped with what it held (a field at most).
		d.deint.f.Free()
		d.deint = nil
	}
	if d.deint == nil {
		tb := d.st.TimeBase()
		f, err := avx.NewDeinterlacer(fl.Width, fl.Height, astiav.PixelFormat(fl.Format), tb,
			astiav.NewRational(fl.SARNum, fl.SARDen), d.opts.Deinterlace == DeinterlaceAuto)
		if err != nil {
			return false, fmt.Errorf("decode: %s: %w", d.url, err)
		}
		out := f.TimeBase().Float64()
		d.deint = &deinterlacer{f: f, w: fl.Width, h: fl.Height, format: fl.Format, tb: out,
			start: int64(math.Round(float64(d.start) * d.tb / out))}
		d.infoMu.Lock()
		d.info.Deinterlaced = true
		d.infoMu.Unlock()
		d.notice(fmt.Sprintf("notice: deinterlacing with bwdif (%s field first, one frame per field)", fieldOrder(fl)))
	}
	return true, nil
}

func fieldOrder(fl avx.Fields) string {
	if fl.Flags&avx.FrameFlagTopFieldFirst != 0 {
		return "top"
	}
	return "bottom"
}

// resetDeinterlacer drops the filter (a seek: its fields are from before the target).
func (d *Decoder) resetDeinterlacer() {
	if d.deint != nil {
		d.deint.f.Free()
		d.deint = nil
	}
}
