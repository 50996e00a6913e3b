package check

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// A hypothesis is one way a driver can get a combination wrong, stated as the oracle re-evaluated
// with one thing changed: the settings (params) or the codes the sampler reads (picture). A failing
// combination's read-backs are compared with each hypothesis that applies to it; those that explain
// them are its symptoms, so that a driver developer reads the likely cause ("Cb and Cr swapped"),
// not only "outside the bounds". The table is data: a new kind of fault is a new row.
type hypothesis struct {
	// Symptom names what a driver developer would look for; stable (tests and the docs' table match it).
	Symptom string
	// applies says whether the change makes a difference for c.
	applies func(c Combination) bool
	// params changes the oracle's settings (nil: unchanged).
	params func(c Combination, p *oracle.Params)
	// codes changes the codes the sampler reads (nil: unchanged).
	codes func(p *oracle.Picture) *oracle.Picture
}

// Symptoms, as hypothesis.Symptom spells them.
const (
	SymptomOffsetsSwapped  = "x and y chroma offsets swapped"
	SymptomSitingX         = "siting shifted by half a luma texel on x (COSITED_EVEN and MIDPOINT mixed up)"
	SymptomSitingY         = "siting shifted by half a luma texel on y (COSITED_EVEN and MIDPOINT mixed up)"
	SymptomSitingBoth      = "siting shifted by half a luma texel on x and y (COSITED_EVEN and MIDPOINT mixed up)"
	SymptomChromaShiftX    = "chroma shifted by half a chroma texel on x (one luma texel)"
	SymptomChromaShiftY    = "chroma shifted by half a chroma texel on y (one luma texel)"
	SymptomNarrowAsFull    = "range stretched: ITU_NARROW sampled as ITU_FULL"
	SymptomFullAsNarrow    = "range squeezed: ITU_FULL sampled as ITU_NARROW"
	SymptomMatrixPrefix    = "matrix swapped: "
	SymptomCbCrSwapped     = "chroma planes swapped (Cb read as Cr and Cr as Cb)"
	SymptomCrFromCb        = "Cr collapsed onto Cb (both read from the Cb channel)"
	SymptomCbFromCr        = "Cb collapsed onto Cr (both read from the Cr channel)"
	SymptomChromaNearest   = "chroma filter NEAREST where LINEAR was asked"
	SymptomAllNearest      = "filter NEAREST where LINEAR was asked (luma and chroma)"
	SymptomChromaLinear    = "chroma filter LINEAR where NEAREST was asked"
	SymptomExplicitIgnored = "explicit reconstruction ignored (chroma reconstructed implicitly)"
	SymptomNoConversion    = "no conversion: the planes sampled as plain RGB (model RGB_IDENTITY)"
	SymptomX6LowBits       = "bits shifted: 10-bit X6 texels read from the low 10 bits of the word"
	SymptomX6Shifted       = "bits shifted: 10-bit X6 texels read 6 bits too far right"
)

func subX(c Combination) bool { return c.Layout.Log2ChromaW > 0 }
func subY(c Combination) bool { return c.Layout.Log2ChromaH > 0 }

func togglePos(p float64) float64 {
	if p == oracle.PosMidpoint {
		return oracle.PosCositedEven
	}
	return oracle.PosMidpoint
}

var matrixModels = []formats.Model{formats.ModelYCbCr709, formats.ModelYCbCr601, formats.ModelYCbCr2020}

func hypotheses() []hypothesis {
	hs := []hypothesis{
		{Symptom: SymptomOffsetsSwapped,
			applies: func(c Combination) bool { return subX(c) && subY(c) && c.XOffset != c.YOffset },
			params:  func(_ Combination, p *oracle.Params) { p.XChromaPos, p.YChromaPos = p.YChromaPos, p.XChromaPos }},
		{Symptom: SymptomSitingX, applies: subX,
			params: func(_ Combination, p *oracle.Params) { p.XChromaPos = togglePos(p.XChromaPos) }},
		{Symptom: SymptomSitingY, applies: subY,
			params: func(_ Combination, p *oracle.Params) { p.YChromaPos = togglePos(p.YChromaPos) }},
		{Symptom: SymptomSitingBoth, applies: func(c Combination) bool { return subX(c) && subY(c) },
			params: func(_ Combination, p *oracle.Params) {
				p.XChromaPos, p.YChromaPos = togglePos(p.XChromaPos), togglePos(p.YChromaPos)
			}},
		{Symptom: SymptomChromaShiftX, applies: func(c Combination) bool { return subX(c) && !c.Explicit },
			params: func(_ Combination, p *oracle.Params) { p.XChromaPos-- }},
		{Symptom: SymptomChromaShiftX, applies: func(c Combination) bool { return subX(c) && !c.Explicit },
			params: func(_ Combination, p *oracle.Params) { p.XChromaPos++ }},
		{Symptom: SymptomChromaShiftY, applies: func(c Combination) bool { return subY(c) && !c.Explicit },
			params: func(_ Combination, p *oracle.Params) { p.YChromaPos-- }},
		{Symptom: SymptomChromaShiftY, applies: func(c Combination) bool { return subY(c) && !c.Explicit },
			params: func(_ Combination, p *oracle.Params) { p.YChromaPos++ }},
		{Symptom: SymptomNarrowAsFull,
			applies: func(c Combination) bool {
				return c.Range == formats.RangeITUNarrow && c.Model != formats.ModelRGBIdentity
			},
			params: func(_ Combination, p *oracle.Params) { p.Range = oracle.RangeFull }},
		{Symptom: SymptomFullAsNarrow,
			applies: func(c Combination) bool {
				return c.Range == formats.RangeITUFull && c.Model != formats.ModelRGBIdentity
			},
			params: func(_ Combination, p *oracle.Params) { p.Range = oracle.RangeNarrow }},
		{Symptom: SymptomCbCrSwapped, applies: func(Combination) bool { return true },
			params: func(_ Combination, p *oracle.Params) { p.SwapCbCr = !p.SwapCbCr }},
		{Symptom: SymptomCrFromCb, applies: func(Combination) bool { return true },
			codes: func(p *oracle.Picture) *oracle.Picture { q := *p; q.Cr = p.Cb; return &q }},
		{Symptom: SymptomCbFromCr, applies: func(Combination) bool { return true },
			codes: func(p *oracle.Picture) *oracle.Picture { q := *p; q.Cb = p.Cr; return &q }},
		{Symptom: SymptomChromaNearest,
			applies: func(c Combination) bool { return c.Filter == vk.FilterLinear && (subX(c) || subY(c)) },
			params:  func(_ Combination, p *oracle.Params) { p.ChromaFilter = oracle.Nearest }},
		{Symptom: SymptomAllNearest, applies: func(c Combination) bool { return c.Filter == vk.FilterLinear },
			params: func(_ Combination, p *oracle.Params) { p.ChromaFilter, p.LumaFilter = oracle.Nearest, oracle.Nearest }},
		{Symptom: SymptomChromaLinear,
			applies: func(c Combination) bool { return c.Filter != vk.FilterLinear && (subX(c) || subY(c)) },
			params:  func(_ Combination, p *oracle.Params) { p.ChromaFilter = oracle.Linear }},
		{Symptom: SymptomExplicitIgnored, applies: func(c Combination) bool { return c.Explicit },
			params: func(_ Combination, p *oracle.Params) { p.Explicit = false }},
		{Symptom: SymptomNoConversion,
			applies: func(c Combination) bool { return c.Model != formats.ModelRGBIdentity },
			params:  func(_ Combination, p *oracle.Params) { p.Model = oracle.ModelRGBIdentity }},
		{Symptom: SymptomX6LowBits, applies: func(c Combination) bool { return c.Layout.Depth == 10 },
			codes: func(p *oracle.Picture) *oracle.Picture {
				return mapCodes(p, func(v uint16) uint16 { return v << 6 & 0x3ff })
			}},
		{Symptom: SymptomX6Shifted, applies: func(c Combination) bool { return c.Layout.Depth == 10 },
			codes: func(p *oracle.Picture) *oracle.Picture {
				return mapCodes(p, func(v uint16) uint16 { return v >> 6 })
			}},
	}
	// Each matrix taken as each other one.
	for _, asked := range matrixModels {
		for _, used := range matrixModels {
			if asked == used {
				continue
			}
			asked, used := asked, used
			hs = append(hs, hypothesis{Symptom: SymptomMatrixPrefix + matrixName(asked) + " sampled as " + matrixName(used),
				applies: func(c Combination) bool { return c.Model == asked },
				params:  func(_ Combination, p *oracle.Params) { p.Model = oracle.Model(used) }})
		}
	}
	return hs
}

func matrixName(m formats.Model) string { return "YCBCR_" + shortModel(m) }

func mapCodes(p *oracle.Picture, f func(uint16) uint16) *oracle.Picture {
	q := *p
	for _, pl := range []*[]uint16{&q.Y, &q.Cb, &q.Cr} {
		in := *pl
		out := make([]uint16, len(in))
		for i, v := range in {
			out[i] = f(v)
		}
		*pl = out
	}
	return &q
}

// fitFraction is the share of pixels a hypothesis may leave outside its bounds and still explain a
// combination: a planted fault leaves none, but a real driver may have a second, smaller deviation.
const fitFraction = 0.01

// diagnose returns the symptoms that explain path's read-backs of c: each hypothesis that applies
// and leaves at most fitFraction of the pixels outside its bounds. A wrong hypothesis is dropped at
// the first pixels it cannot explain, so this costs about one comparison per failing combination.
func (r *runner) diagnose(c Combination, path int, prm oracle.Params, tol oracle.Tolerance, pics [2]*oracle.Picture) []string {
	var out []string
	for _, h := range hypotheses() {
		if !h.applies(c) || (len(out) > 0 && out[len(out)-1] == h.Symptom) {
			continue // a symptom with two rows (both directions) is named once
		}
		hp := prm
		if h.params != nil {
			h.params(c, &hp)
		}
		hpics := pics
		if h.codes != nil {
			for k := range hpics {
				hpics[k] = h.codes(pics[k])
			}
		}
		if r.fits(path, hp, tol, hpics) {
			out = append(out, h.Symptom)
		}
	}
	return out
}

// fits reports whether at most fitFraction of path's read-backs lie outside prm's bounds.
func (r *runner) fits(path int, prm oracle.Params, tol oracle.Tolerance, pics [2]*oracle.Picture) bool {
	total := 0
	for k := range pics {
		for s := range samplingNames {
			t := r.targets[path][k][s]
			total += t.Width * t.Height
		}
	}
	allowed := int(fitFraction * float64(total))
	outside := 0
	for k, pic := range pics {
		for s := range samplingNames {
			t := r.targets[path][k][s]
			img := t.RGBA()
			for y := 0; y < t.Height; y++ {
				for x := 0; x < t.Width; x++ {
					u, v := (float64(x)+0.5)/float64(t.Width), (float64(y)+0.5)/float64(t.Height)
					if excess(oracle.SampleBounds(pic, prm, u, v, tol), pixel(img, x, y)) > 0 {
						if outside++; outside > allowed {
							return false
						}
					}
				}
			}
		}
	}
	return true
}
