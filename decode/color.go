package decode

import (
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// taggedColor is the frame's colour metadata as the input states it: the AVFrame's fields (which
// the decoder fills from the bitstream, e.g. H.264 VUI), and for each field the frame leaves
// unspecified, the stream's codec parameters (the container's tags, e.g. Matroska's Colour element or
// a y4m header). Nothing is guessed here; formats.Resolve does that.
func taggedColor(f avx.Fields, stream formats.Color) formats.Color {
	c := formats.Color{
		Matrix:         formats.Matrix(f.ColorSpace),
		Range:          formats.Range(f.ColorRange),
		ChromaLocation: formats.ChromaLocation(f.ChromaLocation),
		Primaries:      formats.Primaries(f.ColorPrimaries),
		Transfer:       formats.Transfer(f.ColorTrc),
	}
	if c.Matrix == formats.MatrixUnspecified {
		c.Matrix = stream.Matrix
	}
	if c.Range == formats.RangeUnspecified {
		c.Range = stream.Range
	}
	if c.ChromaLocation == formats.ChromaUnspecified {
		c.ChromaLocation = stream.ChromaLocation
	}
	if c.Primaries == formats.PrimariesUnspecified {
		c.Primaries = stream.Primaries
	}
	if c.Transfer == formats.TransferUnspecified {
		c.Transfer = stream.Transfer
	}
	return c
}

// resolveCache remembers the last formats.Resolve result: metadata rarely changes between frames,
// and the notes are then one shared slice instead of new strings per frame.
type resolveCache struct {
	valid  bool
	tagged formats.Color
	pf     *formats.PixelFormat
	w, h   int
	color  formats.Color
	notes  []string
}

func (r *resolveCache) resolve(tagged formats.Color, pf *formats.PixelFormat, w, h int) (formats.Color, []string) {
	if !r.valid || r.tagged != tagged || r.pf != pf || r.w != w || r.h != h {
		c, notes := formats.Resolve(tagged, pf, w, h)
		*r = resolveCache{true, tagged, pf, w, h, c, notes}
	}
	return r.color, r.notes
}
