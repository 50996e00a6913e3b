package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/player"
)

// FuzzParseArgs: any command line (arguments separated by NUL in the fuzz input) is either accepted
// with a consistent configuration or rejected with a one-line error; run then reports that error as
// one "error:" line with status 2 (malformed or a bad value), without opening anything. Accepted
// command lines are not played (that would open a device per input).
func FuzzParseArgs(f *testing.F) {
	for _, cl := range []string{
		"", "-h", "-help", "--help", "-list-devices", "clip.mkv", "-headless\x00-untimed\x00-stats\x00clip.mkv",
		"-frames\x0010\x00-path\x00sampler\x00a.mkv", "a.mkv\x00-frames\x005", "-frames\x00-1", "-frames=1e9",
		"-path\x00magic", "-compare\x00split", "-compare\x00diff", "-upload\x00copy", "-upload\x00import",
		"-matrix\x00bt709\x00-range\x00pc\x00-chroma-loc\x00topleft", "-matrix\x00nonsense", "-range\x00",
		"-chroma-loc\x00bottom", "-device\x003", "-device\x00-7", "-validate\x00-v", "a\x00b", "--\x00-x",
		"-screenshot\x00/tmp/x.png", "-frames", "-x", "---", "-=", "-frames\x0099999999999999999999",
	} {
		f.Add(cl)
	}
	f.Fuzz(func(t *testing.T, cl string) {
		var args []string
		if cl != "" {
			args = strings.Split(cl, "\x00")
		}
		o, err := parseArgs(args)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") && !strings.Contains(cl, "\n") {
				t.Fatalf("%q: error is not one line: %q", args, msg)
			}
			var out, errOut bytes.Buffer
			code := run(args, &out, &errOut)
			if code != 2 || out.Len() != 0 ||
				!strings.HasPrefix(errOut.String(), "error: ") || strings.Count(errOut.String(), "\n") != 1 {
				t.Fatalf("%q: run gave exit %d, stdout %q, stderr %q for %v", args, code, out.String(), errOut.String(), err)
			}
			return
		}
		if o.help || o.list {
			return
		}
		c := o.cfg
		if c.Playback.Frames < 0 {
			t.Fatalf("%q: accepted -frames %d", args, c.Playback.Frames)
		}
		if _, err := formats.ParseChoice(c.Convert.Path.String()); err != nil {
			t.Fatalf("%q: path %v: %v", args, c.Convert.Path, err)
		}
		if _, err := player.ParseCompare(c.Convert.Compare.String()); err != nil {
			t.Fatalf("%q: compare %v: %v", args, c.Convert.Compare, err)
		}
		if c.Colour.Matrix != nil {
			if m, err := formats.ParseMatrix(c.Colour.Matrix.String()); err != nil || m != *c.Colour.Matrix {
				t.Fatalf("%q: matrix override %v", args, *c.Colour.Matrix)
			}
		}
		if c.Colour.Range != nil {
			if r, err := formats.ParseRange(c.Colour.Range.String()); err != nil || r != *c.Colour.Range {
				t.Fatalf("%q: range override %v", args, *c.Colour.Range)
			}
		}
		if c.Colour.ChromaLocation != nil {
			if l, err := formats.ParseChromaLocation(c.Colour.ChromaLocation.String()); err != nil || l != *c.Colour.ChromaLocation {
				t.Fatalf("%q: chroma override %v", args, *c.Colour.ChromaLocation)
			}
		}
		for _, in := range o.inputs {
			if in.url == "" || in.name == "" {
				t.Fatalf("%q: input url %q, name %q", args, in.url, in.name)
			}
		}
	})
}
