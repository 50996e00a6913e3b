// Package oracletest gives tests a clip's first frame, decoded apart in software (FirstFrame), and
// the CPU oracle's picture (ycbcr/oracle) of it for a target: the reference an engine's or a
// program's drawn picture is compared with. It imports decode, so it is a kit of its own: pictest
// is used by decode's tests.
package oracletest

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// A Picture is the oracle's picture of a frame: an RGBA per pixel (oracle.Image), row by row.
type Picture struct {
	Want          [][4]float64
	Width, Height int
	Params        ycbcr.Params // the frame's colour (ycbcr.FromColor) with the target set
}

// First decodes clip's first frame and returns the oracle's picture of it under the frame's colour
// metadata, with target (nil: none) setting the output fields (Output, Tone, LinearWhite).
func First(t testing.TB, clip string, target func(*ycbcr.Params)) Picture {
	t.Helper()
	f := FirstFrame(t, clip)
	p := ycbcr.FromColor(f.Color)
	if target != nil {
		target(&p)
	}
	prm, err := ycbcrcheck.OracleParams(f.Picture.Format, p)
	if err != nil {
		t.Fatal(err)
	}
	return Picture{Want: oracle.Image(ycbcrcheck.OraclePicture(f.Picture), prm),
		Width: f.Picture.Width, Height: f.Picture.Height, Params: p}
}

// FirstFrame decodes clip's first frame in software, with the decoder's defaults; the frame and its
// decoder are released when the test ends.
func FirstFrame(t testing.TB, clip string) *decode.Frame {
	t.Helper()
	d, err := decode.Open(clip, decode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	f, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Release)
	return f
}
