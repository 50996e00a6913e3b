package decode

import (
	"strings"
	"testing"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// FuzzConversionTarget: for any pixel-format number (FFmpeg's enum, in range or not), any size and any
// tagged metadata, choosing the conversion target never panics; a chosen target is a layout of the
// formats table that FFmpeg knows, with a one-line notice; setting up swscale for it either works,
// giving resolved metadata, or fails with an error (a format swscale cannot read), never a crash.
func FuzzConversionTarget(f *testing.F) {
	for _, name := range []string{"yuv411p", "yuv410p", "yuv440p", "pal8", "rgb24", "rgb48le", "rgb4", "bgr4",
		"gbrp10le", "ya8", "monow", "xyz12le", "bayer_rggb8", "yuva420p", "vaapi", "yuv420p", "nv12", "p010le"} {
		f.Add(int(astiav.FindPixelFormatByName(name)), 64, 48, 2, 0, 0)
	}
	f.Add(-1, 1, 1, 1, 1, 1)
	f.Add(1<<20, 3, 3, 9, 2, 6)
	f.Fuzz(func(t *testing.T, pf, w, h, m, r, l int) {
		tg, err := chooseTarget(astiav.PixelFormat(pf))
		if err != nil {
			return
		}
		if got, ok := formats.Lookup(tg.dst.Name); !ok || got != tg.dst {
			t.Fatalf("pixel format %d (%s): target %s is not in the table", pf, tg.src.Name, tg.dst.Name)
		}
		if tg.dstFmt == astiav.PixelFormatNone || strings.Contains(tg.notice, "\n") || !strings.HasPrefix(tg.notice, "notice: ") {
			t.Fatalf("pixel format %d (%s): target %+v", pf, tg.src.Name, tg)
		}
		if w < 1 || h < 1 || w > 256 || h > 256 {
			return
		}
		tagged := formats.Color{Matrix: formats.Matrix(m), Range: formats.Range(r), ChromaLocation: formats.ChromaLocation(l),
			Primaries: formats.PrimariesUnspecified, Transfer: formats.TransferUnspecified}
		c, err := newConverter(convKey{pf, w, h, tagged}, tg)
		if err != nil {
			return
		}
		defer c.free()
		if again, notes := formats.Resolve(c.color, tg.dst, w, h); again != c.color || len(notes) != 0 {
			t.Fatalf("%s → %s: colour %v is not resolved (%q)", tg.src.Name, tg.dst.Name, c.color, notes)
		}
	})
}
