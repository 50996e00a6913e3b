package oracle

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/testvectors"
)

type exampleDoc struct {
	Y       [][]uint16 `json:"plane0_Y"`
	Cb      [][]uint16 `json:"Cb"`
	Cr      [][]uint16 `json:"Cr"`
	NV12    []uint16   `json:"nv12_plane1_bytes"`
	Results map[string][]struct {
		I, J      int
		S, T      float64
		Yp        float64 `json:"Yp"`
		Cb, Cr    float64
		RGB       [3]float64    `json:"rgb"`
		Unorm8    [3]int        `json:"rgb_unorm8"`
		CTSBounds [3][2]float64 `json:"cts_model_bounds_subtexel8"`
	} `json:"results"`
}

func loadExample(t *testing.T) (*Picture, *exampleDoc) {
	t.Helper()
	// The §8 worked example, testvectors/ycbcr-example-4x2.json (embedded).
	var d exampleDoc
	if err := json.Unmarshal(testvectors.Example4x2, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Y) != 2 || len(d.Y[0]) != 4 || len(d.Cb) != 1 || len(d.Cb[0]) != 2 || len(d.Cr) != 1 || len(d.Cr[0]) != 2 {
		t.Fatalf("unexpected example shape: %+v", d)
	}
	// NV12's interleaved plane 1 must say the same as the separate Cb/Cr planes (§1.1).
	if d.NV12[0] != d.Cb[0][0] || d.NV12[1] != d.Cr[0][0] || d.NV12[2] != d.Cb[0][1] || d.NV12[3] != d.Cr[0][1] {
		t.Fatalf("nv12 bytes %v disagree with Cb %v Cr %v", d.NV12, d.Cb, d.Cr)
	}
	p := NewPicture(4, 2, 1, 1, 8)
	for j := range d.Y {
		copy(p.Y[j*4:], d.Y[j])
	}
	copy(p.Cb, d.Cb[0])
	copy(p.Cr, d.Cr[0])
	return p, &d
}

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// TestWorkedExample checks §8's tables: intermediates and R′G′B′ to 1e−6, the rounded 8-bit values,
// that the JSON's CTS-model bounds contain the exact values, and that the tight bounds contain them
// and separate the two sitings.
func TestWorkedExample(t *testing.T) {
	p, d := loadExample(t)
	sitings := map[string]float64{"MIDPOINT": PosMidpoint, "COSITED_EVEN": PosCositedEven}
	for name, pos := range sitings {
		rows := d.Results[name]
		if len(rows) != 8 {
			t.Fatalf("%s: %d rows, want 8", name, len(rows))
		}
		for _, explicit := range []bool{false, true} {
			prm := Params{Model: Model709, Range: RangeNarrow, XChromaPos: pos, YChromaPos: pos,
				LumaFilter: Linear, ChromaFilter: Linear, Explicit: explicit}
			img := Image(p, prm)
			for _, r := range rows {
				if r.S != (float64(r.I)+0.5)/4 || r.T != (float64(r.J)+0.5)/2 {
					t.Fatalf("%s (%d,%d): s,t = %v,%v not a texel centre", name, r.I, r.J, r.S, r.T)
				}
				got := Sample(p, prm, r.S, r.T)
				ex := SampleExpanded(p, prm, r.S, r.T)
				if !near(ex[0], r.Yp, 1e-6) || !near(ex[1], r.Cb, 1e-6) || !near(ex[2], r.Cr, 1e-6) {
					t.Errorf("%s explicit=%v (%d,%d): Y′CbCr %v, want %v %v %v", name, explicit, r.I, r.J, ex, r.Yp, r.Cb, r.Cr)
				}
				if got != img[r.J*4+r.I] {
					t.Errorf("%s (%d,%d): Sample %v != Image %v", name, r.I, r.J, got, img[r.J*4+r.I])
				}
				if got[3] != 1 {
					t.Errorf("alpha %v", got[3])
				}
				tight := SampleBounds(p, prm, r.S, r.T, HardwareTolerance(8, 8))
				for k := 0; k < 3; k++ {
					if !near(got[k], r.RGB[k], 1e-6) {
						t.Errorf("%s explicit=%v (%d,%d) ch%d: %.9f, want %.9f", name, explicit, r.I, r.J, k, got[k], r.RGB[k])
					}
					if c := int(math.Round(got[k] * 255)); c != r.Unorm8[k] {
						t.Errorf("%s (%d,%d) ch%d: 8-bit %d, want %d", name, r.I, r.J, k, c, r.Unorm8[k])
					}
					if lo, hi := r.CTSBounds[k][0], r.CTSBounds[k][1]; got[k] < lo || got[k] > hi {
						t.Errorf("%s (%d,%d) ch%d: %.6f outside CTS bounds [%v,%v]", name, r.I, r.J, k, got[k], lo, hi)
					}
					if r.RGB[k] < tight.Lo[k] || r.RGB[k] > tight.Hi[k] {
						t.Errorf("%s (%d,%d) ch%d: JSON %.6f outside tight bounds %v", name, r.I, r.J, k, r.RGB[k], tight)
					}
					// At texel centres with all values inside [0,1] and 8-bit weights, nothing but
					// the slack widens the bounds (§5.4).
					if w := tight.Hi[k] - tight.Lo[k]; w > 8.0/255+1e-12 {
						t.Errorf("%s (%d,%d) ch%d: tight width %v > 8 LSB", name, r.I, r.J, k, w)
					}
				}
			}
		}
	}
	// The distinguishing pixels (§8 cross-checks): the other siting's exact value must fall outside
	// the tight hardware bounds, i.e. the bounds catch a half-chroma-sample siting error.
	mid, cos := d.Results["MIDPOINT"], d.Results["COSITED_EVEN"]
	for idx := range mid {
		i := mid[idx].I
		if i != 1 && i != 2 {
			continue
		}
		prm := Params{Model: Model709, Range: RangeNarrow, LumaFilter: Linear, ChromaFilter: Linear}
		b := SampleBounds(p, prm, mid[idx].S, mid[idx].T, HardwareTolerance(8, 8)) // COSITED
		if b.Contains([4]float64{mid[idx].RGB[0], mid[idx].RGB[1], mid[idx].RGB[2], 1}) {
			t.Errorf("(%d,%d): COSITED bounds %v contain the MIDPOINT value %v", i, mid[idx].J, b, mid[idx].RGB)
		}
		if !b.Contains([4]float64{cos[idx].RGB[0], cos[idx].RGB[1], cos[idx].RGB[2], 1}) {
			t.Errorf("(%d,%d): COSITED bounds %v miss the COSITED value", i, cos[idx].J, b)
		}
	}
	// Cross-check (§8): pixel (0,0) through the DFS combined 8-bit matrix.
	if got := Sample(p, Params{Model: Model709, Range: RangeNarrow}, 0.125, 0.25)[0]; !near(got, (1.164384*56+1.792741*22)/255, 2e-6) {
		t.Errorf("DFS cross-check R′ = %v", got)
	}
}

// TestWorkedExampleNearest checks §8's NEAREST cases, including the union the tight bounds must
// accept for implicit COSITED NEAREST at (1,0).
func TestWorkedExampleNearest(t *testing.T) {
	p, _ := loadExample(t)
	c0 := [3]float64{0.410376, 0.233147, 0.023758}  // Y=72 with C0 (row 0 only)
	mid := [3]float64{0.519965, 0.342736, 0.133347} // (1,0) with C0
	cos := [3]float64{0.238750, 0.386189, 0.530975} // (1,0) with C1
	s, tt := 0.375, 0.25
	for _, pos := range []float64{PosCositedEven, PosMidpoint} {
		// Explicit NEAREST: ⌊i/2⌋ whatever the offset.
		prm := Params{Model: Model709, Range: RangeNarrow, XChromaPos: pos, YChromaPos: pos, Explicit: true}
		wantRGB(t, "explicit NEAREST (1,0)", Sample(p, prm, s, tt), mid)
		wantRGB(t, "explicit NEAREST (0,0)", Sample(p, prm, 0.125, tt), c0)
	}
	prm := Params{Model: Model709, Range: RangeNarrow, XChromaPos: PosMidpoint, YChromaPos: PosMidpoint}
	wantRGB(t, "implicit MIDPOINT NEAREST (1,0)", Sample(p, prm, s, tt), mid)
	b := SampleBounds(p, prm, s, tt, HardwareTolerance(8, 8))
	if b.Contains(rgba(cos)) {
		t.Errorf("MIDPOINT NEAREST bounds %v must not contain the COSITED pick", b)
	}
	prm.XChromaPos, prm.YChromaPos = PosCositedEven, PosCositedEven
	// u_RB = 0.5(1.5+0.5) = 1.0 exactly: floor picks C1.
	wantRGB(t, "implicit COSITED NEAREST (1,0)", Sample(p, prm, s, tt), cos)
	b = SampleBounds(p, prm, s, tt, HardwareTolerance(8, 8))
	if !b.Contains(rgba(cos)) || !b.Contains(rgba(mid)) {
		t.Errorf("COSITED NEAREST bounds %v must contain both %v and %v", b, cos, mid)
	}
	// The union is what widens it: without the alternatives a tie-free pixel stays tight.
	b = SampleBounds(p, prm, 0.125, tt, HardwareTolerance(8, 8))
	if w := b.Width(); w[0] > 8.0/255+1e-12 || !b.Contains(rgba(c0)) {
		t.Errorf("COSITED NEAREST (0,0) bounds %v", b)
	}
}

func rgba(v [3]float64) [4]float64 { return [4]float64{v[0], v[1], v[2], 1} }

func wantRGB(t *testing.T, what string, got [4]float64, want [3]float64) {
	t.Helper()
	for k := 0; k < 3; k++ {
		if !near(got[k], want[k], 1e-6) {
			t.Errorf("%s: %v, want %v", what, got, want)
			return
		}
	}
}

// TestVerticalSupplement checks §8's vertical-siting supplement (W=2, H=4, Y ≡ 128).
func TestVerticalSupplement(t *testing.T) {
	p := NewPicture(2, 4, 1, 1, 8)
	for k := range p.Y {
		p.Y[k] = 128
	}
	copy(p.Cb, []uint16{100, 148})
	copy(p.Cr, []uint16{150, 110})
	want := map[float64][4][3]float64{
		PosMidpoint: {
			{0.666083, 0.488855, 0.279466}, {0.595780, 0.499718, 0.378873},
			{0.455173, 0.521444, 0.577687}, {0.384869, 0.532307, 0.677094}},
		PosCositedEven: {
			{0.666083, 0.488855, 0.279466}, {0.525476, 0.510581, 0.478280},
			{0.384869, 0.532307, 0.677094}, {0.384869, 0.532307, 0.677094}},
	}
	for pos, rows := range want {
		for _, xpos := range []float64{PosCositedEven, PosMidpoint} { // x has no effect: Cb/Cr constant per row
			for _, explicit := range []bool{false, true} {
				prm := Params{Model: Model709, Range: RangeNarrow, XChromaPos: xpos, YChromaPos: pos,
					LumaFilter: Linear, ChromaFilter: Linear, Explicit: explicit}
				for j, w := range rows {
					for i := 0; i < 2; i++ {
						s, tt := (float64(i)+0.5)/2, (float64(j)+0.5)/4
						wantRGB(t, "vertical supplement", Sample(p, prm, s, tt), w)
						if b := SampleBounds(p, prm, s, tt, HardwareTolerance(8, 8)); !b.Contains(rgba(w)) {
							t.Errorf("pos %v j=%d: bounds %v miss %v", pos, j, b, w)
						}
					}
				}
			}
		}
	}
}
