package decode

import (
	"errors"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// convertCase is a file in a pixel format outside the table, made at test time.
type convertCase struct {
	name, srcFmt, dstFmt string
	tags                 []string // ffmpeg output options setting colour metadata
	notice               string
}

// makeSource writes a 5-frame 64×48 FFV1 (or rawvideo) file in srcFmt with chroma detail (the probe
// of make.sh: Cb alternating along x, Cr along y) and returns its path and the ffmpeg CLI's decode of
// it in srcFmt.
func makeSource(t *testing.T, c convertCase, w, h int) (string, [][]byte) {
	t.Helper()
	src := "nullsrc=s=64x48:r=25,format=yuv444p,geq=lum='16+219*(X+Y)/(W+H)':cb='if(mod(X+N,2),240,16)':cr='if(mod(Y,2),16,240)'"
	if strings.HasPrefix(c.srcFmt, "rgb") || strings.HasPrefix(c.srcFmt, "bgr") {
		src = "testsrc2=s=64x48:r=25"
	} else if strings.HasPrefix(c.srcFmt, "yuva") {
		src = "nullsrc=s=64x48:r=25,format=yuva420p,geq=lum='16+219*(X+Y)/(W+H)':cb='if(mod(X+N,2),240,16)':cr='if(mod(Y,2),16,240)':a='X*4'"
	}
	// Matroska carries the colour tags (NUT would drop them).
	ext, codec := ".mkv", []string{"-c:v", "ffv1"}
	if strings.HasPrefix(c.srcFmt, "rgb") {
		ext, codec = ".nut", []string{"-c:v", "rawvideo"} // Matroska refuses raw RGB
	}
	path := filepath.Join(t.TempDir(), c.name+ext)
	args := append([]string{"-f", "lavfi", "-i", src, "-frames:v", "5", "-pix_fmt", c.srcFmt}, codec...)
	args = append(args, c.tags...)
	ffmpegMake(t, append(args, path)...)
	// rawvideo frame size of the source format, from ffmpeg itself.
	all := run(t, refFFmpeg(t), "-hide_banner", "-nostdin", "-loglevel", "error", "-i", path, "-f", "rawvideo", "-")
	if len(all)%5 != 0 {
		t.Fatalf("%s: %d bytes for 5 frames", c.srcFmt, len(all))
	}
	n := len(all) / 5
	var frames [][]byte
	for i := 0; i < 5; i++ {
		frames = append(frames, all[i*n:(i+1)*n])
	}
	return path, frames
}

// firstFrame opens path, checks the notice and returns the first frame and the decoder.
func firstFrame(t *testing.T, path string, c convertCase) (*Decoder, *Frame) {
	t.Helper()
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := d.Notices(); !slices.Contains(n, c.notice) {
		t.Errorf("notices %q: want %q", n, c.notice)
	}
	f, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	if f.Picture.Format.Name != c.dstFmt || f.SourceFormat != c.srcFmt || !f.PageAligned() {
		t.Fatalf("frame %s from %s (aligned %v): want %s from %s", f.Picture.Format.Name, f.SourceFormat, f.PageAligned(), c.dstFmt, c.srcFmt)
	}
	if len(f.Notes) == 0 || !strings.Contains(f.Notes[0], "converted from "+c.srcFmt+" to "+c.dstFmt) {
		t.Errorf("notes %q: want the conversion first", f.Notes)
	}
	return d, f
}

// rest decodes the remaining frames: all converted, all supported.
func rest(t *testing.T, d *Decoder, dst string) {
	t.Helper()
	n := 1
	for {
		f, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if f.Picture.Format.Name != dst || !f.PageAligned() {
			t.Errorf("frame %d: %s aligned %v", n, f.Picture.Format.Name, f.PageAligned())
		}
		f.Release()
		n++
	}
	if s := d.Stats(); n != 5 || s.Converted != 5 {
		t.Errorf("%d frames, stats %+v", n, s)
	}
	if len(d.Notices()) != 1 {
		t.Errorf("notices %q: want one", d.Notices())
	}
}

func near(a, b float64, tol float64) bool { return math.Abs(a-b) <= tol }

// TestConvert411 converts 4:1:1 to 4:2:2: luma unchanged, chroma interpolated at the tagged siting,
// metadata kept. Left: source chroma k sits on luma column 4k, output sample j on 2j. Center: source k
// on 4k+1.5, output j on 2j+0.5. Either way output j reads the source at luma position / 4.
func TestConvert411(t *testing.T) {
	for _, siting := range []string{"left", "center"} {
		t.Run(siting, func(t *testing.T) {
			c := convertCase{name: "yuv411p", srcFmt: "yuv411p", dstFmt: "yuv422p",
				tags:   []string{"-colorspace", "bt709", "-color_range", "tv", "-chroma_sample_location", siting},
				notice: "notice: yuv411p is not supported by the toolkit; converting to yuv422p with swscale"}
			path, src := makeSource(t, c, 64, 48)
			d, f := firstFrame(t, path, c)
			defer d.Close()
			loc, _ := formats.ParseChromaLocation(siting)
			want := formats.Color{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: loc,
				Primaries: formats.PrimariesBT709, Transfer: formats.TransferBT709}
			if f.Color != want {
				t.Errorf("colour %v, want %v", f.Color, want)
			}
			// yuv411p rawvideo: Y 64×48, Cb 16×48, Cr 16×48.
			s := src[0]
			y, cb := s[:64*48], s[64*48:64*48+16*48]
			for row := 0; row < 48; row++ {
				for x := 0; x < 64; x++ {
					if got := f.Picture.Code(formats.Y, x, row); got != uint16(y[row*64+x]) {
						t.Fatalf("Y(%d,%d) = %d, source %d: luma must pass through", x, row, got, y[row*64+x])
					}
				}
				at := func(k float64) float64 { return float64(cb[row*16+int(math.Max(0, math.Min(15, k)))]) }
				for j := 0; j < 32; j++ {
					pos := float64(2*j) / 4
					if siting == "center" {
						pos = (float64(2*j) + 0.5 - 1.5) / 4
					}
					k0 := math.Floor(pos)
					a := pos - k0
					exp := (1-a)*at(k0) + a*at(k0+1)
					if got := float64(f.Picture.Code(formats.Cb, j, row)); !near(got, exp, 1) {
						t.Fatalf("Cb(%d,%d) = %v, want %v (%s siting)", j, row, got, exp, siting)
					}
				}
			}
			f.Release()
			rest(t, d, c.dstFmt)
		})
	}
}

// TestConvert440 converts 4:4:0 (vertically subsampled, chroma between rows: left = vertically
// centred) to 4:4:4: output row r is at source chroma position (r − ½)/2.
func TestConvert440(t *testing.T) {
	c := convertCase{name: "yuv440p", srcFmt: "yuv440p", dstFmt: "yuv444p",
		tags:   []string{"-colorspace", "smpte170m", "-color_range", "pc", "-chroma_sample_location", "left"},
		notice: "notice: yuv440p is not supported by the toolkit; converting to yuv444p with swscale"}
	path, src := makeSource(t, c, 64, 48)
	d, f := firstFrame(t, path, c)
	defer d.Close()
	if f.Color.Matrix != formats.MatrixSMPTE170M || f.Color.Range != formats.RangeFull || f.Color.ChromaLocation != formats.ChromaCenter {
		t.Errorf("colour %v: want smpte170m, pc, and center (4:4:4 has no siting)", f.Color)
	}
	s := src[0]
	cr := s[64*48+64*24 : 64*48+2*64*24] // yuv440p: Y 64×48, Cb 64×24, Cr 64×24
	for r := 0; r < 48; r++ {
		pos := (float64(r) - 0.5) / 2
		k0 := math.Floor(pos)
		a := pos - k0
		at := func(k float64) float64 { return float64(cr[int(math.Max(0, math.Min(23, k)))*64+5]) }
		exp := (1-a)*at(k0) + a*at(k0+1)
		if got := float64(f.Picture.Code(formats.Cr, 5, r)); !near(got, exp, 1) {
			t.Fatalf("Cr(5,%d) = %v, want %v (vertically centred chroma)", r, got, exp)
		}
	}
	f.Release()
	rest(t, d, c.dstFmt)
}

// TestConvertRGB converts rgb24 (raw video) into full-range BT.709 4:4:4 and checks the round trip
// back to R′G′B′.
func TestConvertRGB(t *testing.T) {
	c := convertCase{name: "rgb24", srcFmt: "rgb24", dstFmt: "yuv444p",
		notice: "notice: rgb24 is not supported by the toolkit; converting to yuv444p with swscale (BT.709 matrix, full range)"}
	path, src := makeSource(t, c, 64, 48)
	d, f := firstFrame(t, path, c)
	defer d.Close()
	if f.Color.Matrix != formats.MatrixBT709 || f.Color.Range != formats.RangeFull {
		t.Errorf("colour %v: want bt709, pc", f.Color)
	}
	kr, kb, _ := formats.MatrixBT709.Coefficients()
	kg := 1 - kr - kb
	worst := 0.0
	for y := 0; y < 48; y++ {
		for x := 0; x < 64; x++ {
			Y := float64(f.Picture.Code(formats.Y, x, y)) / 255
			Cb := (float64(f.Picture.Code(formats.Cb, x, y)) - 128) / 255
			Cr := (float64(f.Picture.Code(formats.Cr, x, y)) - 128) / 255
			r := Y + 2*(1-kr)*Cr
			b := Y + 2*(1-kb)*Cb
			g := (Y - kr*r - kb*b) / kg
			for i, v := range []float64{r, g, b} {
				worst = math.Max(worst, math.Abs(v*255-float64(src[0][(y*64+x)*3+i])))
			}
		}
	}
	if worst > 3 {
		t.Errorf("RGB round trip off by up to %.1f codes", worst)
	}
	f.Release()
	rest(t, d, c.dstFmt)
}

// TestConvertAlpha drops the alpha plane of yuva420p: Y, Cb and Cr pass through unchanged.
func TestConvertAlpha(t *testing.T) {
	c := convertCase{name: "yuva420p", srcFmt: "yuva420p", dstFmt: "yuv420p",
		tags:   []string{"-colorspace", "bt709", "-color_range", "tv", "-chroma_sample_location", "topleft"},
		notice: "notice: yuva420p is not supported by the toolkit; converting to yuv420p with swscale; alpha is dropped"}
	path, src := makeSource(t, c, 64, 48)
	d, f := firstFrame(t, path, c)
	defer d.Close()
	if f.Color.ChromaLocation != formats.ChromaTopLeft {
		t.Errorf("colour %v: want topleft kept", f.Color)
	}
	yuv := src[0][:64*48*3/2]
	if got := pack(f.Picture); string(got) != string(yuv) {
		t.Errorf("Y, Cb, Cr changed by dropping alpha")
	}
	f.Release()
	rest(t, d, c.dstFmt)
}

func TestChooseTarget(t *testing.T) {
	for src, dst := range map[string]string{
		"yuv411p": "yuv422p", "yuvj411p": "yuv422p", "yuv440p": "yuv444p", "yuv410p": "yuv420p",
		"yuv420p9le": "yuv420p10le", "yuv420p10be": "yuv420p10le", "yuv444p14le": "yuv444p16le",
		"yuv440p12le": "yuv444p12le", "yuva444p10le": "yuv444p10le", "rgb24": "yuv444p", "bgr0": "yuv444p",
		"pal8": "yuv444p", "gbrp": "yuv444p", "gbrp10le": "yuv444p10le", "rgb48le": "yuv444p16le",
		"gray9le": "gray10le", "ya8": "gray", "monow": "gray", "gray14le": "gray16le",
		"uyyvyy411": "yuv422p", "xyz12le": "yuv444p12le", "grayf32le": "gray16le",
	} {
		tg, err := chooseTarget(astivPixFmt(src))
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if tg.dst.Name != dst {
			t.Errorf("%s → %s, want %s", src, tg.dst.Name, dst)
		}
	}
}
