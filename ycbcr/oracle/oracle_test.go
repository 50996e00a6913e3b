package oracle

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randomPictureN(rng *rand.Rand, w, h, lw, lh, bits int, lo, hi int) *Picture {
	p := NewPicture(w, h, lw, lh, bits)
	for _, pl := range [][]uint16{p.Y, p.Cb, p.Cr} {
		for k := range pl {
			pl[k] = uint16(lo + rng.IntN(hi-lo+1))
		}
	}
	return p
}

func maxDiff(a, b [][4]float64) float64 {
	var m float64
	for k := range a {
		for c := 0; c < 4; c++ {
			m = math.Max(m, math.Abs(a[k][c]-b[k][c]))
		}
	}
	return m
}

// TestRangeConstants checks §2.2's table: narrow black/white/chroma codes map to 0/1/∓0.5, the
// per-code steps are (2^n−1)/(219·2^(n−8)) and (2^n−1)/(224·2^(n−8)), and full-range chroma is
// offset by 2^(n−1)/(2^n−1).
func TestRangeConstants(t *testing.T) {
	table := []struct {
		n                          int
		yScale, cScale, fullOffset float64
		black, white, cmin, cmax   uint16
	}{
		{8, 1.164383562, 1.138392857, 0.501960784, 16, 235, 16, 240},
		{10, 1.167808219, 1.141741071, 0.500488759, 64, 940, 64, 960},
		{12, 1.168664384, 1.142578125, 0.500122100, 256, 3760, 256, 3840},
		{16, 1.168931935, 1.142839704, 0.500007630, 4096, 60160, 4096, 61440},
	}
	for _, r := range table {
		max := float64(uint32(1)<<r.n - 1)
		y0, cb0, cr0 := expand(RangeNarrow, r.n, float64(r.black)/max, float64(r.cmin)/max, float64(r.cmax)/max)
		y1, _, _ := expand(RangeNarrow, r.n, float64(r.white)/max, 0, 0)
		if !near(y0, 0, 1e-12) || !near(y1, 1, 1e-12) || !near(cb0, -0.5, 1e-12) || !near(cr0, 0.5, 1e-12) {
			t.Errorf("n=%d: narrow codes give Y′ %v..%v, C %v..%v", r.n, y0, y1, cb0, cr0)
		}
		ya, ca, _ := expand(RangeNarrow, r.n, 1000/max, 1000/max, 0)
		yb, cb, _ := expand(RangeNarrow, r.n, 1001/max, 1001/max, 0)
		if !near((yb-ya)*max, r.yScale, 1e-9) || !near((cb-ca)*max, r.cScale, 1e-9) {
			t.Errorf("n=%d: scales %v %v, want %v %v", r.n, (yb-ya)*max, (cb-ca)*max, r.yScale, r.cScale)
		}
		_, fcb, fcr := expand(RangeFull, r.n, 0, 0, float64(uint32(1)<<(r.n-1))/max)
		if !near(-fcb, r.fullOffset, 1e-9) || fcr != 0 {
			t.Errorf("n=%d: full offset %v (mid %v), want %v", r.n, -fcb, fcr, r.fullOffset)
		}
	}
	// §2.2 through Sample on a 10-bit picture: (64, 512, 512) is black, (940, 512, 512) white.
	p := NewPicture(2, 2, 1, 1, 10)
	p.Y = []uint16{64, 940, 64, 940}
	p.Cb[0], p.Cr[0] = 512, 512
	prm := Params{Model: Model709, Range: RangeNarrow}
	wantRGB(t, "10-bit black", Sample(p, prm, 0.25, 0.25), [3]float64{0, 0, 0})
	wantRGB(t, "10-bit white", Sample(p, prm, 0.75, 0.25), [3]float64{1, 1, 1})
}

// TestX6 checks §1.3: codes normalize as v/1023, and X6 widens the bounds by exactly ±1 ULP₁₀ per
// texel, enough to admit an implementation that reads the container as 16-bit UNORM.
func TestX6(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := randomPictureN(rng, 8, 4, 1, 1, 10, 0, 1023)
	p.Y[0] = 1023 // the largest R16-vs-X6 discrepancy (0.985 ULP₁₀, §1.3)
	for _, mdl := range []Model{ModelRGBIdentity, ModelYCbCrIdentity, Model709} {
		prm := Params{Model: mdl, Range: RangeNarrow, LumaFilter: Linear, ChromaFilter: Linear}
		exact := Image(p, prm)
		// The R16 reading: the X6 word (v<<6) divided by 65535, then the 10-bit conversion.
		var r16 [][4]float64
		e := evaluator{p: p, prm: prm}
		for j := 0; j < p.Height; j++ {
			for i := 0; i < p.Width; i++ {
				g := e.gbr(float64(i)+0.5, float64(j)+0.5)[0]
				for k := range g {
					g[k] = g[k] * 1023 * 64 / 65535
				}
				c := convert(prm, 10, g)
				r16 = append(r16, [4]float64{c[0], c[1], c[2], 1})
			}
		}
		tol := Tolerance{SubTexelBits: 8}
		x6 := prm
		x6.X6 = true
		plain, wide := ImageBounds(p, prm, tol), ImageBounds(p, x6, tol)
		outside := 0
		for k := range exact {
			if !wide[k].Contains(exact[k]) || !wide[k].Contains(r16[k]) {
				t.Fatalf("%v pixel %d: X6 bounds %v miss exact %v or R16 %v", mdl, k, wide[k], exact[k], r16[k])
			}
			if !plain[k].Contains(r16[k]) {
				outside++
			}
		}
		if outside == 0 {
			t.Errorf("%v: the R16 reading fits the non-X6 bounds everywhere; the test proves nothing", mdl)
		}
		// Y′ of an RGB-identity/YCbCr-identity pixel away from the clamps: width is exactly 2/1023.
		if mdl == ModelRGBIdentity {
			if w := wide[0].Width()[1]; !near(w, 2.0/1023, 1e-12) {
				t.Errorf("X6 G width %v, want 2/1023", w)
			}
		}
	}
	if err := (Params{X6: true}).Validate(NewPicture(2, 2, 1, 1, 8)); err == nil {
		t.Error("X6 with 8-bit codes must be rejected")
	}
}

// Test16Bit checks §2.4: 10-bit codes MSB-aligned in a 16-bit format (n = 16) give exactly the
// 10-bit narrow result; full range differs by less than 1 ULP₁₀.
func Test16Bit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	p10 := randomPictureN(rng, 6, 4, 1, 1, 10, 0, 1023)
	p16 := NewPicture(6, 4, 1, 1, 16)
	for _, pl := range [][2][]uint16{{p10.Y, p16.Y}, {p10.Cb, p16.Cb}, {p10.Cr, p16.Cr}} {
		for k, v := range pl[0] {
			pl[1][k] = v << 6
		}
	}
	prm := Params{Model: Model2020, Range: RangeNarrow, LumaFilter: Linear, ChromaFilter: Linear}
	if d := maxDiff(Image(p10, prm), Image(p16, prm)); d > 1e-12 {
		t.Errorf("narrow: 16-bit MSB-aligned differs from 10-bit by %v", d)
	}
	prm.Range = RangeFull
	prm.Model = ModelYCbCrIdentity
	if d := maxDiff(Image(p10, prm), Image(p16, prm)); d > 1.0/1023 || d < 1e-6 {
		t.Errorf("full: 16-bit MSB-aligned differs from 10-bit by %v, want (0, 1 ULP₁₀)", d)
	}
	// A 16-bit code's own scale: 65535 is 1.0 under RGB identity.
	p := NewPicture(1, 1, 0, 0, 16)
	p.Y[0], p.Cb[0], p.Cr[0] = 65535, 0, 32768
	wantRGB(t, "16-bit RGB identity", Sample(p, Params{}, 0.5, 0.5), [3]float64{32768.0 / 65535, 1, 0})
}

// TestIdentityModels checks §2.3: RGB_IDENTITY passes (R, G, B) = (Cr, Y, Cb planes) through with
// no range expansion whatever the range; YCBCR_IDENTITY returns the range-expanded (Cr, Y′, Cb).
func TestIdentityModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	p := randomPictureN(rng, 5, 3, 0, 0, 8, 0, 255) // 4:4:4, odd size
	for _, r := range []Range{RangeFull, RangeNarrow} {
		for k := 0; k < 15; k++ {
			i, j := k%5, k/5
			s, tt := (float64(i)+0.5)/5, (float64(j)+0.5)/3
			got := Sample(p, Params{Model: ModelRGBIdentity, Range: r}, s, tt)
			want := [3]float64{float64(p.Cr[k]) / 255, float64(p.Y[k]) / 255, float64(p.Cb[k]) / 255}
			wantRGB(t, "RGB identity", got, want)
			got = Sample(p, Params{Model: ModelYCbCrIdentity, Range: r}, s, tt)
			y, cb, cr := expand(r, 8, float64(p.Y[k])/255, float64(p.Cb[k])/255, float64(p.Cr[k])/255)
			wantRGB(t, "YCbCr identity", got, [3]float64{cr, y, cb})
		}
	}
	p.Y[0], p.Cb[0], p.Cr[0] = 235, 16, 240
	wantRGB(t, "YCbCr identity narrow", Sample(p, Params{Model: ModelYCbCrIdentity, Range: RangeNarrow}, 0.1, 0.1), [3]float64{0.5, 1, -0.5})
}

// Test444 checks that chroma offsets have no effect on axes that are not subsampled, and that
// 4:4:4 LINEAR at texel centres is the per-pixel conversion of the codes.
func Test444(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	p := randomPictureN(rng, 7, 5, 0, 0, 8, 16, 235)
	base := Params{Model: Model601, Range: RangeNarrow, LumaFilter: Linear, ChromaFilter: Linear}
	ref := Image(p, base)
	for k := range ref {
		c := convert(base, 8, [3]float64{float64(p.Y[k]) / 255, float64(p.Cb[k]) / 255, float64(p.Cr[k]) / 255})
		wantRGB(t, "4:4:4 per-pixel", ref[k], c)
	}
	for _, pos := range []float64{PosCositedEven, PosMidpoint, PosOdd} {
		for _, explicit := range []bool{false, true} {
			for _, st := range [][2]float64{{0.31, 0.77}, {0.05, 0.5}, {0.999, 0.123}} {
				prm := base
				prm.XChromaPos, prm.YChromaPos, prm.Explicit = pos, pos, explicit && pos != PosOdd
				if a, b := Sample(p, prm, st[0], st[1]), Sample(p, base, st[0], st[1]); a != b {
					t.Errorf("4:4:4 pos %v explicit %v at %v: %v != %v", pos, prm.Explicit, st, a, b)
				}
			}
		}
	}
	// 4:2:2: the vertical position is irrelevant.
	p = randomPictureN(rng, 8, 5, 1, 0, 8, 0, 255)
	a := Params{Model: Model709, Range: RangeFull, XChromaPos: PosCositedEven, YChromaPos: PosOdd, LumaFilter: Linear, ChromaFilter: Linear}
	b := a
	b.YChromaPos = PosMidpoint
	if d := maxDiff(Image(p, a), Image(p, b)); d != 0 {
		t.Errorf("4:2:2 depends on YChromaPos: %v", d)
	}
}

// TestSwapCbCr checks §1.2's {r=B, b=R} swizzle: swapped planes with the swap read like the
// original (NV21 vs NV12).
func TestSwapCbCr(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	p := randomPictureN(rng, 6, 4, 1, 1, 8, 0, 255)
	q := *p
	q.Cb, q.Cr = p.Cr, p.Cb
	for _, mdl := range []Model{ModelRGBIdentity, ModelYCbCrIdentity, Model709} {
		prm := Params{Model: mdl, Range: RangeNarrow, XChromaPos: PosMidpoint, LumaFilter: Linear, ChromaFilter: Linear}
		sw := prm
		sw.SwapCbCr = true
		if d := maxDiff(Image(p, prm), Image(&q, sw)); d != 0 {
			t.Errorf("%v: swap differs by %v", mdl, d)
		}
		if d := maxDiff(Image(p, prm), Image(&q, prm)); d < 0.05 {
			t.Errorf("%v: swapped planes without the swizzle differ by only %v", mdl, d)
		}
	}
}

// TestBorders checks §4.5 CLAMP_TO_EDGE: beyond the outermost luma texel centre nothing changes,
// for every siting, implicit and explicit.
func TestBorders(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	p := randomPictureN(rng, 8, 6, 1, 1, 8, 0, 255)
	for _, pos := range []float64{PosCositedEven, PosMidpoint, PosOdd} {
		for _, explicit := range []bool{false, true} {
			if explicit && pos == PosOdd {
				continue
			}
			for _, cf := range []Filter{Nearest, Linear} {
				prm := Params{Model: Model709, Range: RangeNarrow, XChromaPos: pos, YChromaPos: pos, LumaFilter: Linear, ChromaFilter: cf, Explicit: explicit}
				lo, hi := 0.5/8, 7.5/8
				for _, tt := range []float64{0.3, 0.5 / 6} {
					for _, s := range []float64{-3, -0.01, 0, lo / 2} {
						if a, b := Sample(p, prm, s, tt), Sample(p, prm, lo, tt); a != b && maxDiff([][4]float64{a}, [][4]float64{b}) > 1e-12 {
							t.Errorf("pos %v explicit %v %v: left border s=%v %v != %v", pos, explicit, cf, s, a, b)
						}
					}
					for _, s := range []float64{1, 1.2, 50, (hi + 1) / 2} {
						if a, b := Sample(p, prm, s, tt), Sample(p, prm, hi, tt); maxDiff([][4]float64{a}, [][4]float64{b}) > 1e-12 {
							t.Errorf("pos %v explicit %v %v: right border s=%v %v != %v", pos, explicit, cf, s, a, b)
						}
					}
				}
				for _, tt := range []float64{-1, 0, 1, 2} {
					e := 0.5 / 6
					if tt > 0.5 {
						e = 5.5 / 6
					}
					if a, b := Sample(p, prm, 0.4, tt), Sample(p, prm, 0.4, e); maxDiff([][4]float64{a}, [][4]float64{b}) > 1e-12 {
						t.Errorf("pos %v explicit %v %v: vertical border t=%v", pos, explicit, cf, tt)
					}
				}
			}
		}
	}
}

// TestExplicitVsImplicit checks §4.1's observations: with LINEAR filters explicit and implicit agree
// at luma texel centres for both offsets (borders included, §4.5), and everywhere for COSITED_EVEN;
// for MIDPOINT they differ off-centre.
func TestExplicitVsImplicit(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, sh := range [][4]int{{8, 6, 1, 1}, {10, 4, 1, 0}, {6, 6, 1, 1}} {
		p := randomPictureN(rng, sh[0], sh[1], sh[2], sh[3], 8, 0, 255)
		for _, xp := range []float64{PosCositedEven, PosMidpoint} {
			for _, yp := range []float64{PosCositedEven, PosMidpoint} {
				imp := Params{Model: Model709, Range: RangeNarrow, XChromaPos: xp, YChromaPos: yp, LumaFilter: Linear, ChromaFilter: Linear}
				exp := imp
				exp.Explicit = true
				if d := maxDiff(Image(p, imp), Image(p, exp)); d > 1e-12 {
					t.Errorf("%v x=%v y=%v: explicit and implicit differ at centres by %v", sh, xp, yp, d)
				}
				var d float64
				for k := 0; k < 400; k++ {
					s, tt := rng.Float64()*1.2-0.1, rng.Float64()*1.2-0.1
					d = math.Max(d, maxDiff([][4]float64{Sample(p, imp, s, tt)}, [][4]float64{Sample(p, exp, s, tt)}))
				}
				cosited := xp == PosCositedEven && (sh[3] == 0 || yp == PosCositedEven)
				if cosited && d > 1e-12 {
					t.Errorf("%v x=%v y=%v: COSITED explicit and implicit differ off-centre by %v", sh, xp, yp, d)
				}
				if !cosited && d < 0.01 {
					t.Errorf("%v x=%v y=%v: MIDPOINT explicit and implicit off-centre differ by only %v", sh, xp, yp, d)
				}
			}
		}
	}
	// §4.4 weights by hand on one row: 4:2:2 MIDPOINT even i → 0.25τ(k−1)+0.75τ(k),
	// odd i → 0.75τ(k)+0.25τ(k+1); COSITED_EVEN even i → τ(k), odd → ½τ(k)+½τ(k+1).
	p := NewPicture(6, 1, 1, 0, 8)
	copy(p.Cb, []uint16{0, 100, 200})
	e := evaluator{p: p, prm: Params{ChromaFilter: Linear}}
	want := map[float64][]float64{
		PosMidpoint:    {0, 25, 75, 125, 175, 200},
		PosCositedEven: {0, 50, 100, 150, 200, 200},
	}
	for pos, w := range want {
		for i, v := range w {
			if got := filter2(p.Cb, 3, e.explicitAxis(i, 1, pos, 3), one(0)); got != v {
				t.Errorf("explicit pos %v i=%d: %v, want %v", pos, i, got, v)
			}
		}
	}
	if err := (Params{Explicit: true, YChromaPos: PosOdd}).Validate(NewPicture(2, 2, 1, 1, 8)); err == nil {
		t.Error("explicit reconstruction with a non-Vulkan position must be rejected")
	}
}

// TestChromaCoord checks §4.2: the general form reproduces Vulkan's two offsets and §7.3's
// bottom siting v_RB = 0.5(v − 0.5).
func TestChromaCoord(t *testing.T) {
	for _, u := range []float64{-1, 0, 0.5, 1.5, 3.25, 10} {
		if got := chromaCoord(u, 1, PosCositedEven); got != 0.5*(u+0.5) {
			t.Errorf("COSITED %v: %v", u, got)
		}
		if got := chromaCoord(u, 1, PosMidpoint); got != 0.5*u {
			t.Errorf("MIDPOINT %v: %v", u, got)
		}
		if got := chromaCoord(u, 1, PosOdd); got != 0.5*(u-0.5) {
			t.Errorf("bottom %v: %v", u, got)
		}
		if got := chromaCoord(u, 0, PosMidpoint); got != u {
			t.Errorf("444 %v: %v", u, got)
		}
	}
}

// TestKrKb checks the shader path's coefficient override.
func TestKrKb(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	p := randomPictureN(rng, 4, 4, 1, 1, 8, 0, 255)
	a := Params{Model: Model709, LumaFilter: Linear, ChromaFilter: Linear}
	b := a
	b.Model, b.Kr, b.Kb = Model601, 0.2126, 0.0722
	if d := maxDiff(Image(p, a), Image(p, b)); d > 1e-15 {
		t.Errorf("Kr/Kb override differs by %v", d)
	}
}

// TestBounds checks §5.4's tight bounds: they contain the exact value everywhere (and the exact
// value of every alternative the spec allows), add nothing but the slack at texel centres when no
// clamp can act, stay within a few LSB off-centre, and map onto 8-bit UNORM correctly.
func TestBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	hw := HardwareTolerance(8, 8)
	for _, sh := range [][4]int{{8, 6, 1, 1}, {8, 5, 1, 0}, {5, 5, 0, 0}, {7, 5, 1, 1}} {
		for _, lf := range []Filter{Nearest, Linear} {
			for _, cf := range []Filter{Nearest, Linear} {
				for _, pos := range []float64{PosCositedEven, PosMidpoint, PosOdd} {
					for _, explicit := range []bool{false, true} {
						if explicit && pos == PosOdd {
							continue
						}
						// In-gamut data: greys ± small chroma keep every clamp inactive.
						p := randomPictureN(rng, sh[0], sh[1], sh[2], sh[3], 8, 60, 190)
						for k := range p.Cb {
							p.Cb[k] = uint16(118 + rng.IntN(21))
							p.Cr[k] = uint16(118 + rng.IntN(21))
						}
						prm := Params{Model: Model709, Range: RangeNarrow, XChromaPos: pos, YChromaPos: pos, LumaFilter: lf, ChromaFilter: cf, Explicit: explicit}
						img, bs := Image(p, prm), ImageBounds(p, prm, hw)
						for k := range img {
							if !bs[k].Contains(img[k]) {
								t.Fatalf("%v %+v pixel %d: %v outside %v", sh, prm, k, img[k], bs[k])
							}
							w := bs[k].Width()
							// Centres: only implicit NEAREST chroma may widen beyond the slack:
							// COSITED by its MIDPOINT allowance and its ties at odd i (§4.3), the
							// bottom siting by its ties at even i (chroma sits between texels).
							widen := !explicit && cf == Nearest && pos != PosMidpoint
							for c := 0; c < 3; c++ {
								if !widen && w[c] > 2*hw.Slack+1e-12 {
									t.Fatalf("%v %+v pixel %d ch%d: width %v at a centre", sh, prm, k, c, w[c])
								}
							}
						}
						for k := 0; k < 200; k++ {
							s, tt := rng.Float64()*1.1-0.05, rng.Float64()*1.1-0.05
							v := Sample(p, prm, s, tt)
							b := SampleBounds(p, prm, s, tt, hw)
							if !b.Contains(v) {
								t.Fatalf("%v %+v at (%v,%v): %v outside %v", sh, prm, s, tt, v, b)
							}
							if lf == Linear && cf == Linear {
								// Snapping moves each weight by < 2^−8; on this data that
								// is well under 2 LSB.
								for c, w := range b.Width() {
									if c < 3 && w > 2*hw.Slack+2.0/255 {
										t.Fatalf("%v %+v at (%v,%v) ch%d: width %v", sh, prm, s, tt, c, w)
									}
								}
							}
							u8 := SampleBounds(p, prm, s, tt, Tolerance{SubTexelBits: 8, Slack: hw.Slack, UnormBits: 8})
							var code [4]float64
							for c := range code {
								code[c] = math.Round(v[c]*255) / 255
							}
							if !u8.Contains(code) {
								t.Fatalf("UNORM8 bounds %v miss %v", u8, code)
							}
						}
					}
				}
			}
		}
	}
}

// TestBoundsAlternatives checks the individual allowances of §5.4 step 2.
func TestBoundsAlternatives(t *testing.T) {
	// Optional clamps (§2.4, §3.3): an out-of-range code gives both clamped and unclamped values.
	p := NewPicture(2, 2, 1, 1, 8)
	for k := range p.Y {
		p.Y[k] = 250 // Y′ > 1
	}
	p.Cb[0], p.Cr[0] = 128, 128
	prm := Params{Model: Model709, Range: RangeNarrow}
	v := Sample(p, prm, 0.25, 0.25)
	if v[0] <= 1 {
		t.Fatalf("expected an out-of-range value, got %v", v)
	}
	b := SampleBounds(p, prm, 0.25, 0.25, Tolerance{})
	if !b.Contains(v) || !b.Contains([4]float64{1, 1, 1, 1}) {
		t.Errorf("clamp alternatives: %v must contain %v and 1", b, v)
	}
	// The Y′/Cb/Cr clamps on their own (no R′G′B′ clamp can stand in for them): YCBCR_IDENTITY
	// has no R′G′B′ clamp, and under a matrix a clamped Y′ = 1 with Cr < 0 stays inside [0,1].
	p.Cb[0], p.Cr[0] = 250, 60
	idn := Params{Model: ModelYCbCrIdentity, Range: RangeNarrow}
	v = Sample(p, idn, 0.25, 0.25)
	b = SampleBounds(p, idn, 0.25, 0.25, Tolerance{})
	if !b.Contains(v) || !b.Contains([4]float64{math.Max(v[0], -0.5), 1, 0.5, 1}) || b.Hi[1] != v[1] || b.Lo[1] != 1 {
		t.Errorf("YCbCr identity clamps: %v for %v", b, v)
	}
	p.Cb[0], p.Cr[0] = 128, 110
	v = Sample(p, prm, 0.25, 0.25)
	_, _, cr := expand(RangeNarrow, 8, 0, 0, 110.0/255)
	clampedR := 1 + 1.5748*cr
	b = SampleBounds(p, prm, 0.25, 0.25, Tolerance{})
	if v[0] > 1 || !b.Contains(v) || !near(b.Lo[0], clampedR, 1e-12) {
		t.Errorf("Y′ clamp under 709: %v for %v, want R′ down to %v", b, v, clampedR)
	}
	// LINEAR weight snapping: at an off-grid fraction both snapped weights are admitted, exact
	// ones at the grid.
	q := NewPicture(2, 1, 0, 0, 8)
	q.Y = []uint16{0, 255}
	rgbID := Params{Model: ModelRGBIdentity, LumaFilter: Linear, ChromaFilter: Linear}
	if b := SampleBounds(q, rgbID, 0.3, 0.5, Tolerance{SubTexelBits: 4}); !near(b.Lo[1], 0.0625, 1e-12) || !near(b.Hi[1], 0.125, 1e-12) {
		t.Errorf("LINEAR α = 0.1 snapped to 1/16: %v, want G in [1/16, 2/16]", b)
	}
	if a := snapAlpha(0.3, 4); len(a) != 2 || a[0] != 0.25 || a[1] != 0.3125 {
		t.Errorf("snapAlpha(0.3, 4) = %v", a)
	}
	if a := snapAlpha(0.75+1e-13, 8); len(a) != 1 || a[0] != 0.75 {
		t.Errorf("snapAlpha(0.75, 8) = %v", a)
	}
	if a := snapAlpha(0.3, 0); len(a) != 1 || a[0] != 0.3 {
		t.Errorf("snapAlpha(0.3, 0) = %v", a)
	}
	// Luma NEAREST coordinate tie: s exactly on a texel edge admits both texels.
	p = NewPicture(4, 1, 1, 0, 8)
	p.Y = []uint16{16, 16, 235, 235}
	for k := range p.Cb {
		p.Cb[k], p.Cr[k] = 128, 128
	}
	prm = Params{Model: Model709, Range: RangeNarrow}
	b = SampleBounds(p, prm, 0.5, 0.5, HardwareTolerance(8, 8))
	if !b.Contains([4]float64{0, 0, 0, 1}) || !b.Contains([4]float64{1, 1, 1, 1}) {
		t.Errorf("NEAREST tie: %v must contain black and white", b)
	}
	if b := SampleBounds(p, prm, 0.49, 0.5, HardwareTolerance(8, 8)); b.Contains([4]float64{1, 1, 1, 1}) {
		t.Errorf("no tie at s=0.49: %v", b)
	}
	// Implicit NEAREST with a COSITED offset may behave as MIDPOINT (§4.3); non-Vulkan sitings
	// get no such alternative.
	p = NewPicture(4, 4, 1, 1, 8)
	for k := range p.Y {
		p.Y[k] = 128
	}
	copy(p.Cb, []uint16{16, 16, 240, 240})
	copy(p.Cr, []uint16{128, 128, 128, 128})
	cos := Params{Model: Model709, Range: RangeNarrow, XChromaPos: PosMidpoint, YChromaPos: PosCositedEven}
	mid := Params{Model: Model709, Range: RangeNarrow, XChromaPos: PosMidpoint, YChromaPos: PosMidpoint}
	s, tt := 0.375, 0.45 // v = 1.8: COSITED v_RB = 1.15 → row 1; MIDPOINT 0.9 → row 0
	a, m := Sample(p, cos, s, tt), Sample(p, mid, s, tt)
	if maxDiff([][4]float64{a}, [][4]float64{m}) < 0.1 {
		t.Fatalf("test picture does not separate the sitings: %v %v", a, m)
	}
	if b := SampleBounds(p, cos, s, tt, HardwareTolerance(8, 8)); !b.Contains(a) || !b.Contains(m) {
		t.Errorf("COSITED NEAREST bounds %v must contain %v and %v", b, a, m)
	}
	if b := SampleBounds(p, mid, s, tt, HardwareTolerance(8, 8)); b.Contains(a) {
		t.Errorf("MIDPOINT NEAREST bounds %v must not contain the COSITED value %v", b, a)
	}
	odd := cos
	odd.YChromaPos = PosOdd // v_RB = 0.5(1.8 − 0.5) = 0.65 → row 0
	if got := Sample(p, odd, s, tt); maxDiff([][4]float64{got}, [][4]float64{m}) != 0 {
		t.Errorf("bottom siting NEAREST at v=1.8: %v, want row 0 %v", got, m)
	}
}

// TestYCgCoLimited checks limited-range YCgCo against H.264 Annex E.2.1's forward equations (H.273
// §8.3 has the same), written out here: R′G′B′ is quantised as luma, R = 2^(n−8)·(219·E′R + 16) and
// likewise G and B (E-13 to E-15), then Y = Round(G/2 + (R + B)/4), Cg = Round(G/2 − (R + B)/4) +
// 2^(n−1), Co = Round((R − B)/2) + 2^(n−1) (E-34 to E-36). The codes are chosen so that no rounding
// happens (G even, R + B a multiple of 4, R − B even): decoding must give E′ back exactly. A chroma
// excursion of 224 (the Kr/Kb matrices') would miss saturated colours by several codes.
func TestYCgCoLimited(t *testing.T) {
	for _, n := range []int{8, 10} {
		q := 1 << (n - 8)
		for _, rgb := range [][3]int{{16, 16, 16}, {234, 234, 234}, {232, 16, 16}, {16, 234, 20}, {18, 20, 230}, {100, 150, 200}} {
			r, g, b := rgb[0]*q, rgb[1]*q, rgb[2]*q
			y := g/2 + (r+b)/4
			cg := g/2 - (r+b)/4 + 1<<(n-1)
			co := (r-b)/2 + 1<<(n-1)
			if g%2 != 0 || (r+b)%4 != 0 || (r-b)%2 != 0 {
				t.Fatalf("%v: codes need rounding", rgb)
			}
			p := NewPicture(1, 1, 0, 0, n)
			p.Y[0], p.Cb[0], p.Cr[0] = uint16(y), uint16(cg), uint16(co)
			got := Sample(p, Params{Model: ModelYCgCo, Range: RangeNarrow}, 0.5, 0.5)
			for c, code := range []int{r, g, b} {
				want := (float64(code)/float64(q) - 16) / 219
				if math.Abs(got[c]-want) > 1e-12 {
					t.Errorf("%d-bit R′G′B′ codes %v (Y %d Cg %d Co %d): channel %d = %v, want %v", n, rgb, y, cg, co, c, got[c], want)
				}
			}
		}
	}
}
