package check

import (
	"fmt"
	"math"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// The colour systems beyond Kr/Kb (docs/ycbcr-math.md §11–§14) have no VkSamplerYcbcrConversion
// model: only the shader path implements them. The checker judges them as it judges the shader path
// on Kr/Kb, against the oracle: within its interval bounds where the oracle has them (YCgCo, a linear
// matrix), and within a fixed distance of its exact value where interval arithmetic through a
// non-linear stage is not implemented (oracle.Params.Bounded): 1 LSB of the 8-bit target, plus,
// for YCgCo-R on subsampled layouts, the two m-bit codes a rounding step of interpolated chroma may
// move the integer lifting by (see ycbcr/colour_test.go's TestColourSystemsDepths).

// colourSystem is one row of the report: a matrix (and range), or a transfer with a tone curve and
// the metadata it reads.
type colourSystem struct {
	name string
	p    ycbcr.Params
}

// colourSystems are the rows, in report order.
var colourSystems = func() []colourSystem {
	pq := func(h formats.HDRMetadata, t ycbcr.ToneCurve) ycbcr.Params {
		return ycbcr.Params{Matrix: formats.MatrixBT2020NCL, Range: formats.RangeLimited, Transfer: formats.TransferSMPTE2084,
			Primaries: formats.PrimariesBT2020, HDR: h, Tone: t}
	}
	hlg := pq(formats.HDRMetadata{}, ycbcr.ToneBT2390)
	hlg.Transfer = formats.TransferARIBSTDB67
	return []colourSystem{
		{"YCgCo limited", ycbcr.Params{Matrix: formats.MatrixYCgCo, Range: formats.RangeLimited}},
		{"YCgCo full", ycbcr.Params{Matrix: formats.MatrixYCgCo, Range: formats.RangeFull}},
		{"YCgCo-Re", ycbcr.Params{Matrix: formats.MatrixYCgCoRe, Range: formats.RangeFull}},
		{"YCgCo-Ro", ycbcr.Params{Matrix: formats.MatrixYCgCoRo, Range: formats.RangeFull}},
		{"BT.2020-CL limited", ycbcr.Params{Matrix: formats.MatrixBT2020CL, Range: formats.RangeLimited}},
		{"BT.2020-CL full", ycbcr.Params{Matrix: formats.MatrixBT2020CL, Range: formats.RangeFull}},
		{"PQ → SDR, BT.2390, no metadata", pq(formats.HDRMetadata{}, ycbcr.ToneBT2390)},
		{"PQ → SDR, BT.2390, mastering 0.005–4000, MaxCLL 2000", pq(formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000, MaxCLL: 2000}, ycbcr.ToneBT2390)},
		{"PQ → SDR, BT.2390 on max(R,G,B), mastering 0.005–4000", pq(formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000}, ycbcr.ToneBT2390Max)},
		{"PQ → SDR, clip", pq(formats.HDRMetadata{}, ycbcr.ToneClip)},
		{"HLG → SDR, OOTF + BT.2390", hlg},
	}
}()

// systemLayouts are the layouts each system runs on: 8-bit 4:2:0, 10-bit 4:2:2, 16-bit 4:4:4
// (-quick: the first only).
var systemLayouts = []string{"yuv420p", "yuv422p10le", "yuv444p16le"}

// SystemReport is one colour system's outcome on the shader path.
type SystemReport struct {
	Name    string   `json:"name"`
	Layouts []string `json:"layouts"`
	// Criterion is how the oracle judges it: "bounds" (interval bounds, ShaderTolerance) or
	// "exact ±L LSB".
	Criterion string `json:"criterion"`
	// Applied is what the shader path's colour stage says it does (ycbcr.Params.Applied).
	Applied string `json:"applied,omitempty"`
	Pixels  int    `json:"pixels"`
	Failed  int    `json:"failed"`
	// WorstLSB is the largest distance outside the criterion, MaxDiffLSB the largest difference
	// from the oracle's exact value (both 8-bit LSB).
	WorstLSB   float64 `json:"worst_lsb"`
	MaxDiffLSB float64 `json:"max_diff_lsb"`
	Worst      string  `json:"worst,omitempty"`
	Pass       bool    `json:"pass"`
	Error      string  `json:"error,omitempty"`
}

// systems runs every colour system on the shader path.
func (r *runner) systems() ([]SystemReport, error) {
	layouts := systemLayouts
	if r.opts.Quick {
		layouts = layouts[:1]
	}
	out := make([]SystemReport, len(colourSystems))
	for i, s := range colourSystems {
		out[i] = SystemReport{Name: s.name, Layouts: layouts, Pass: true}
	}
	for _, name := range layouts {
		pf, ok := formats.Lookup(name)
		if !ok {
			return out, fmt.Errorf("check: layout %s not in the table", name)
		}
		if err := r.systemsOn(pf, out); err != nil {
			return out, err
		}
	}
	return out, nil
}

// systemsOn runs every system on one layout: noise and siting-probe frames, both samplings.
func (r *runner) systemsOn(pf *formats.PixelFormat, out []SystemReport) error {
	var frames [2]*formats.Frame
	var err error
	if frames[0], err = synth.Noise(pf, r.w, r.h, noiseSeed); err != nil {
		return fmt.Errorf("check: %s: %w", pf.Name, err)
	}
	if frames[1], err = synth.SitingProbe(pf, r.w, r.h); err != nil {
		return fmt.Errorf("check: %s: %w", pf.Name, err)
	}
	var images [2]*planes.Image
	defer func() {
		for _, im := range images {
			if im != nil {
				im.Destroy()
			}
		}
	}()
	var pics [2]*oracle.Picture
	for k, f := range frames {
		pics[k] = OraclePicture(f)
		if images[k], err = planes.New(r.dev, pf, r.w, r.h, formats.PathShader); err == nil {
			err = images[k].Stage(f)
		}
		if err != nil {
			if s := stop(pf.Name, err); s != nil {
				return s
			}
			for i := range out {
				out[i].fail(fmt.Sprintf("%s: set-up: %v", pf.Name, err))
			}
			return nil
		}
	}
	if err := r.dev.Submit(func(cb vk.CommandBuffer) {
		for _, im := range images {
			im.RecordUpload(cb)
		}
	}); err != nil {
		if s := stop(pf.Name, err); s != nil {
			return s
		}
		for i := range out {
			out[i].fail(fmt.Sprintf("%s: upload: %v", pf.Name, err))
		}
		return nil
	}
	for i, s := range colourSystems {
		if err := r.system(s, pf, images, pics, &out[i]); err != nil {
			return err
		}
	}
	return nil
}

func (sr *SystemReport) fail(msg string) {
	sr.Pass = false
	if sr.Error == "" {
		sr.Error = msg
	}
}

// system draws one system on one layout and compares every pixel with the oracle.
func (r *runner) system(s colourSystem, pf *formats.PixelFormat, images [2]*planes.Image, pics [2]*oracle.Picture, sr *SystemReport) error {
	p := s.p
	p.ChromaLocation = formats.ChromaLeft
	if r.opts.Fault == FaultRange {
		p.Range = map[formats.Range]formats.Range{formats.RangeLimited: formats.RangeFull, formats.RangeFull: formats.RangeLimited}[p.Range]
	}
	fail := func(err error) error {
		if st := stop(s.name, err); st != nil {
			return st
		}
		sr.fail(fmt.Sprintf("%s: %v", pf.Name, err))
		return nil
	}
	var draws []draw
	for k, im := range images {
		consts, err := p.ShaderFor(im)
		if err != nil {
			return fail(err)
		}
		r.fault(consts, pf)
		b, err := r.sp.Bind(im, consts)
		if err != nil {
			return fail(err)
		}
		defer b.Destroy() // after Submit, which waits for the draws
		for sm := range samplingNames {
			draws = append(draws, draw{b, r.targets[pathShader][k][sm]})
		}
	}
	sr.Applied = s.p.Applied(pf)
	err := r.submitDraws(draws)
	if err != nil {
		return fail(err)
	}

	// The oracle judges the parameters as asked, not as a fault changed them.
	prm, err := OracleParams(pf, s.withLocation())
	if err != nil {
		return fail(err)
	}
	prm.X6 = false // the shader path reads exact 16-bit containers
	tol := oracle.ShaderTolerance(0)
	tol.UnormBits = 8
	limit := 1.0
	if prm.Model == oracle.ModelYCgCoR && pf.Log2ChromaW+pf.Log2ChromaH > 0 {
		limit += 2 * 255 / (math.Exp2(float64(pf.Depth-prm.YCgCoRAddedBits)) - 1)
	}
	switch {
	case prm.Bounded():
		sr.Criterion = "bounds"
	case prm.Model == oracle.ModelYCgCoR:
		sr.Criterion = "exact ±1 LSB, +2 m-bit codes when subsampled"
	default:
		sr.Criterion = "exact ±1 LSB"
	}
	for k, pic := range pics {
		for sm := range samplingNames {
			t := r.targets[pathShader][k][sm]
			img := t.RGBA()
			for y := 0; y < t.Height; y++ {
				for x := 0; x < t.Width; x++ {
					u, v := (float64(x)+0.5)/float64(t.Width), (float64(y)+0.5)/float64(t.Height)
					got := pixel(img, x, y)
					exact := oracle.Sample(pic, prm, u, v)
					d := 0.0
					for ch := 0; ch < 3; ch++ {
						d = math.Max(d, math.Abs(float64(got[ch])-math.Max(0, math.Min(1, exact[ch]))*255))
					}
					sr.MaxDiffLSB = math.Max(sr.MaxDiffLSB, d)
					var ex float64 // LSB outside the criterion
					if prm.Bounded() {
						ex = excess(oracle.SampleBounds(pic, prm, u, v, tol), got) * 255
					} else {
						ex = d - limit
					}
					sr.Pixels++
					if ex <= 1e-9 {
						continue
					}
					sr.Failed++
					sr.Pass = false
					if ex > sr.WorstLSB {
						sr.WorstLSB = ex
						sr.Worst = fmt.Sprintf("%s %s %s (%d,%d) = %v, exact %.1f %.1f %.1f", pf.Name, frameNames[k], samplingNames[sm], x, y, got,
							exact[0]*255, exact[1]*255, exact[2]*255)
					}
				}
			}
		}
	}
	return nil
}

// withLocation is the system's parameters as drawn (left siting).
func (s colourSystem) withLocation() ycbcr.Params {
	p := s.p
	p.ChromaLocation = formats.ChromaLeft
	return p
}

// fault applies the shader-path faults that act on the constants (siting, Cb/Cr swap).
func (r *runner) fault(consts *ycbcr.ShaderConstants, pf *formats.PixelFormat) {
	switch r.opts.Fault {
	case FaultSiting:
		cw, _ := pf.ChromaSize(r.w, r.h)
		consts.Chroma[2] += float32(0.5 / float64(cw))
	case FaultSwapCbCr:
		consts.SrcTex[formats.Cb], consts.SrcTex[formats.Cr] = consts.SrcTex[formats.Cr], consts.SrcTex[formats.Cb]
		consts.SrcComp[formats.Cb], consts.SrcComp[formats.Cr] = consts.SrcComp[formats.Cr], consts.SrcComp[formats.Cb]
	}
}
