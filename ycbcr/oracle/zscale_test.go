package oracle

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// FFmpeg's zscale (zimg) implements implicit LINEAR chroma reconstruction, range expansion and the
// matrix independently of this package (docs/ycbcr-math.md §10). Its float output must match Image
// at every pixel, for every FFmpeg chroma location.

// zscaleTol is the agreement required with zscale's fp32 output. Measured max error: 1.4e−7 to
// 2.1e−7 for every location, size and matrix (float32 rounding); a half-chroma-sample siting
// error on the same noise is ~0.4.
const zscaleTol = 1e-6

// zscaleSitingGap is the least error a wrong siting must show on the random frames.
const zscaleSitingGap = 0.05

var zscaleLocations = []string{"left", "center", "topleft", "top", "bottomleft", "bottom"}

type zsInput struct {
	name       string
	w, h       int
	lw, lh     int
	pixFmt     string
	frames     []*Picture
	outputs    []zsOutput
	fileHandle string
}

type zsOutput struct {
	matrix string // zscale matrixin value
	model  Model
	rng    Range
	loc    string
	file   string
}

func randomPicture(rng *rand.Rand, w, h, lw, lh int) *Picture {
	p := NewPicture(w, h, lw, lh, 8)
	for _, pl := range [][]uint16{p.Y, p.Cb, p.Cr} {
		for k := range pl {
			pl[k] = uint16(rng.IntN(256))
		}
	}
	return p
}

func writeYUV8(path string, frames []*Picture) error {
	var buf []byte
	for _, p := range frames {
		for _, pl := range [][]uint16{p.Y, p.Cb, p.Cr} {
			for _, c := range pl {
				buf = append(buf, byte(c))
			}
		}
	}
	return os.WriteFile(path, buf, 0o644)
}

// readGBRPF32 reads gbrpf32le frames (planes G, B, R) as R′G′B′ per pixel.
func readGBRPF32(path string, w, h, frames int) ([][][3]float64, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n := w * h
	if len(raw) != frames*3*n*4 {
		return nil, fmt.Errorf("%s: %d bytes, want %d", path, len(raw), frames*3*n*4)
	}
	out := make([][][3]float64, frames)
	for f := range out {
		out[f] = make([][3]float64, n)
		for plane, ch := range []int{1, 2, 0} { // G, B, R
			base := (f*3 + plane) * n * 4
			for k := 0; k < n; k++ {
				out[f][k][ch] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[base+4*k:])))
			}
		}
	}
	return out, nil
}

// runZscale converts every input with every one of its outputs' settings in one ffmpeg process
// (one start-up keeps the test fast).
func runZscale(t *testing.T, inputs []*zsInput) {
	t.Helper()
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Fatalf("ffmpeg is required for the zscale agreement test: %v", err)
	}
	dir := t.TempDir()
	args := []string{"-hide_banner", "-loglevel", "error", "-nostdin", "-y"}
	var graph []string
	var maps []string
	for ii, in := range inputs {
		in.fileHandle = filepath.Join(dir, fmt.Sprintf("in%d.yuv", ii))
		if err := writeYUV8(in.fileHandle, in.frames); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-f", "rawvideo", "-pix_fmt", in.pixFmt, "-s", fmt.Sprintf("%dx%d", in.w, in.h), "-i", in.fileHandle)
		labels := make([]string, len(in.outputs))
		for k := range in.outputs {
			labels[k] = fmt.Sprintf("[s%d_%d]", ii, k)
		}
		graph = append(graph, fmt.Sprintf("[%d:v]split=%d%s", ii, len(in.outputs), strings.Join(labels, "")))
		for k := range in.outputs {
			o := &in.outputs[k]
			rangein := map[Range]string{RangeFull: "full", RangeNarrow: "limited"}[o.rng]
			graph = append(graph, fmt.Sprintf("%szscale=matrixin=%s:rangein=%s:chromalin=%s:filter=bilinear:range=full,format=gbrpf32le[o%d_%d]",
				labels[k], o.matrix, rangein, o.loc, ii, k))
			o.file = filepath.Join(dir, fmt.Sprintf("out%d_%d.gbrp", ii, k))
			maps = append(maps, "-map", fmt.Sprintf("[o%d_%d]", ii, k), "-f", "rawvideo", o.file)
		}
	}
	args = append(args, "-filter_complex", strings.Join(graph, ";"))
	args = append(args, maps...)
	if out, err := exec.Command(ffmpeg, args...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// maxErr is the largest |oracle − zscale| over every pixel and colour channel of every frame.
func maxErr(frames []*Picture, got [][][3]float64, prm Params) float64 {
	var m float64
	for f, p := range frames {
		img := Image(p, prm)
		for k := range img {
			for c := 0; c < 3; c++ {
				m = math.Max(m, math.Abs(img[k][c]-got[f][k][c]))
			}
		}
	}
	return m
}

// TestZscaleAgreement compares Image with zscale for all six chroma locations, 4:2:0 (two sizes),
// 4:2:2 (odd height), 4:4:4, narrow and full range, BT.709 and BT.601, and BT.2020 once. Every
// zscale output is compared with the oracle at every location: it must agree with the locations
// equivalent to its own (same siting on each subsampled axis) and miss all others by far more than
// the tolerance, so a siting bug cannot pass.
//
// zscale refuses sizes not divisible by the subsampling ("image dimensions must be divisible by
// subsampling factor"), as Vulkan does (§6.4), so odd sizes only appear on an axis that is not
// subsampled (16×9 4:2:2).
func TestZscaleAgreement(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type shape struct {
		w, h, lw, lh int
		pixFmt       string
	}
	shapes := []shape{{16, 8, 1, 1, "yuv420p"}, {18, 10, 1, 1, "yuv420p"}, {16, 9, 1, 0, "yuv422p"}, {7, 5, 0, 0, "yuv444p"}}
	var inputs []*zsInput
	for _, sh := range shapes {
		in := &zsInput{name: fmt.Sprintf("%s %dx%d", sh.pixFmt, sh.w, sh.h), w: sh.w, h: sh.h, lw: sh.lw, lh: sh.lh, pixFmt: sh.pixFmt}
		for f := 0; f < 2; f++ {
			in.frames = append(in.frames, randomPicture(rng, sh.w, sh.h, sh.lw, sh.lh))
		}
		locs := zscaleLocations
		if sh.lw == 0 && sh.lh == 0 {
			locs = []string{"left", "center"} // siting is meaningless for 4:4:4
		}
		for _, m := range []struct {
			name  string
			model Model
		}{{"709", Model709}, {"470bg", Model601}} {
			for _, r := range []Range{RangeNarrow, RangeFull} {
				for _, loc := range locs {
					in.outputs = append(in.outputs, zsOutput{matrix: m.name, model: m.model, rng: r, loc: loc})
				}
			}
		}
		if sh.w == 16 && sh.h == 8 {
			for _, loc := range zscaleLocations {
				in.outputs = append(in.outputs, zsOutput{matrix: "2020_ncl", model: Model2020, rng: RangeNarrow, loc: loc})
			}
		}
		inputs = append(inputs, in)
	}
	runZscale(t, inputs)

	worst := map[string]float64{} // per input kind and location, for the log
	for _, in := range inputs {
		for _, o := range in.outputs {
			got, err := readGBRPF32(o.file, in.w, in.h, len(in.frames))
			if err != nil {
				t.Fatal(err)
			}
			ox, oy, _ := chromaLocation(o.loc)
			for _, loc := range zscaleLocations {
				x, y, _ := chromaLocation(loc)
				prm := Params{Model: o.model, Range: o.rng, XChromaPos: x, YChromaPos: y, LumaFilter: Linear, ChromaFilter: Linear}
				e := maxErr(in.frames, got, prm)
				same := (in.lw == 0 || x == ox) && (in.lh == 0 || y == oy)
				what := fmt.Sprintf("%s matrix=%s range=%v zscale chromalin=%s vs oracle %s", in.name, o.matrix, o.rng, o.loc, loc)
				if same {
					if e > zscaleTol {
						t.Errorf("%s: max error %.3g > %g", what, e, zscaleTol)
					}
					if loc == o.loc {
						key := fmt.Sprintf("%s %s", in.name, o.loc)
						worst[key] = math.Max(worst[key], e)
					}
				} else if e < zscaleSitingGap {
					t.Errorf("%s: wrong siting differs by only %.3g (want > %g)", what, e, zscaleSitingGap)
				}
			}
		}
	}
	keys := make([]string, 0, len(worst))
	for k := range worst {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("max |oracle − zscale| %-26s %.3g", k, worst[k])
	}
}

// TestZscaleWrongSiting is the explicit negative control: left-sited zscale output against the
// center-sited oracle must differ by far more than the agreement tolerance.
func TestZscaleWrongSiting(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	in := &zsInput{name: "yuv420p 16x8", w: 16, h: 8, lw: 1, lh: 1, pixFmt: "yuv420p",
		frames:  []*Picture{randomPicture(rng, 16, 8, 1, 1)},
		outputs: []zsOutput{{matrix: "709", model: Model709, rng: RangeNarrow, loc: "left"}}}
	runZscale(t, []*zsInput{in})
	got, err := readGBRPF32(in.outputs[0].file, 16, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	right := maxErr(in.frames, got, Params{Model: Model709, Range: RangeNarrow, XChromaPos: PosCositedEven, YChromaPos: PosMidpoint, LumaFilter: Linear, ChromaFilter: Linear})
	wrong := maxErr(in.frames, got, Params{Model: Model709, Range: RangeNarrow, XChromaPos: PosMidpoint, YChromaPos: PosMidpoint, LumaFilter: Linear, ChromaFilter: Linear})
	t.Logf("left vs left: %.3g; left vs center: %.3g", right, wrong)
	if right > zscaleTol {
		t.Errorf("left-sited agreement %.3g > %g", right, zscaleTol)
	}
	if wrong < 1000*zscaleTol || wrong < zscaleSitingGap {
		t.Errorf("left vs center differ by only %.3g", wrong)
	}
}

// chromaLocation maps an FFmpeg chroma location name (av_chroma_location_name / zscale chromal
// value) to (XChromaPos, YChromaPos) per §7.3's table.
func chromaLocation(name string) (x, y float64, ok bool) {
	switch name {
	case "left":
		return PosCositedEven, PosMidpoint, true
	case "center":
		return PosMidpoint, PosMidpoint, true
	case "topleft":
		return PosCositedEven, PosCositedEven, true
	case "top":
		return PosMidpoint, PosCositedEven, true
	case "bottomleft":
		return PosCositedEven, PosOdd, true
	case "bottom":
		return PosMidpoint, PosOdd, true
	}
	return 0, 0, false
}
