package main

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/lcms"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/oracletest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

const colourDir = "../../testvectors/colour"

// colourVector is an entry of testvectors/colour/manifest.json (testvectors/colour.sh writes it).
type colourVector struct {
	pictest.Vector
	// HDR is the static metadata the stream carries (nil: none), as colour.sh gave it to x265.
	HDR *struct {
		MinLuminance float64 `json:"min_luminance"`
		MaxLuminance float64 `json:"max_luminance"`
		MaxCLL       float64 `json:"max_cll"`
		MaxFALL      float64 `json:"max_fall"`
	} `json:"hdr"`
	// Reference says what the PNG (16-bit RGB, zscale) holds: "rgb" R′G′B′; "linear-bt2020" linear
	// light of the BT.2020 transfer; "linear-bt709-100" linear light in BT.709 primaries, 1 = 100
	// cd/m².
	Reference string `json:"reference"`
}

// TestColourVectors plays the first frame of each colour-system vector (YCgCo limited and full,
// BT.2020 constant luminance, PQ with mastering and content-light metadata, HLG) headless, and
// compares the screenshot with zscale's picture of the file (colour.sh made it; an implementation
// independent of the project) within 1/255:
//   - YCgCo: R′G′B′ directly; constant luminance: zscale's linear light encoded with BT.2020's OETF
//     (zscale returns CL as linear, docs/ycbcr-math.md §12) where R′ and B′ are not negative (zimg
//     takes those as 0), and every pixel against the oracle;
//   - PQ and HLG: zscale's linearization (BT.709 primaries, 100 cd/m² = 1) encoded with BT.709's
//     OETF, over the pixels where the tone curve leaves the picture alone (the oracle's BT.2390
//     EETF result equals its no-curve result to 0.3/255); for HLG on the grey rows only (zimg applies
//     HLG's OOTF per component, BT.2100 to the luminance). Every pixel of PQ and HLG is compared
//     with the oracle's tone stage too (BT.2390, BT.2100 formulas).
//
// The metadata read from the file must be what colour.sh wrote (tags and, for PQ, the mastering
// display's 0.005–4000 cd/m² and MaxCLL 1000, MaxFALL 400), and -stats must report it.
func TestColourVectors(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(colourDir, "manifest.json"))
	if err != nil {
		t.Fatalf("read the manifest (testvectors/colour.sh writes it): %v", err)
	}
	var man struct {
		Vectors []colourVector `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &man); err != nil || len(man.Vectors) == 0 {
		t.Fatalf("parse the manifest: %v (%d vectors)", err, len(man.Vectors))
	}
	dir := t.TempDir()
	for _, v := range man.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			file := filepath.Join(colourDir, v.File)
			shot := filepath.Join(dir, v.Name+".png")
			stdout, stderr, code := play(t, "-headless", "-frames", "1", "-validate", "-stats", "-screenshot", shot, file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var st struct {
				Path, Matrix, Transfer, Primaries, Range string
				HDR                                      string `json:"hdr_metadata"`
				ToneMap                                  string `json:"tonemap"`
				Stage                                    string `json:"colour_stage"`
			}
			if err := json.Unmarshal([]byte(stdout), &st); err != nil {
				t.Fatalf("-stats: %v: %s", err, stdout)
			}

			// The metadata, read by this project's decoder, against what colour.sh wrote.
			f := oracletest.FirstFrame(t, file)
			c := f.Color
			if c.Matrix.String() != v.Matrix || c.Range.String() != v.Range || c.Primaries.String() != v.Primaries || c.Transfer.String() != v.Transfer {
				t.Errorf("decoded tags %s %s %s %s, manifest %s %s %s %s", c.Matrix, c.Range, c.Primaries, c.Transfer, v.Matrix, v.Range, v.Primaries, v.Transfer)
			}
			var wantHDR formats.HDRMetadata
			if v.HDR != nil {
				wantHDR = formats.HDRMetadata{MinLuminance: v.HDR.MinLuminance, MaxLuminance: v.HDR.MaxLuminance, MaxCLL: v.HDR.MaxCLL, MaxFALL: v.HDR.MaxFALL}
			}
			if !nearHDR(c.HDR, wantHDR) {
				t.Errorf("decoded HDR metadata %v, manifest %v", c.HDR, wantHDR)
			}
			if st.Path != "shader" || st.Matrix != v.Matrix || st.Transfer != v.Transfer || st.HDR != c.HDR.String() {
				t.Errorf("-stats: path %q matrix %q transfer %q hdr %q", st.Path, st.Matrix, st.Transfer, st.HDR)
			}
			t.Logf("-stats: tonemap %q, colour stage %q", st.ToneMap, st.Stage)

			img := pictest.ReadPNG(t, shot)
			ref := pictest.ReadPNG(t, filepath.Join(colourDir, v.PNG))
			if img.Bounds() != ref.Bounds() || ref.Bounds().Dx() != v.Width {
				t.Fatalf("screenshot %v, reference %v", img.Bounds(), ref.Bounds())
			}
			p := ycbcr.FromColor(c)
			prm, err := check.OracleParams(f.Picture.Format, p)
			if err != nil {
				t.Fatal(err)
			}
			pic := check.OraclePicture(f.Picture)
			want := oracle.Image(pic, prm)
			w := v.Width
			keep := func(i int) bool { return true }
			encode := func(x float64) float64 { return x }
			switch v.Reference {
			case "rgb":
			case "linear-bt2020":
				encode = oracle.BT2020OETF
				// zimg takes negative R′ and B′ (outside BT.2020 Table 4's ranges, where 4:2:0
				// chroma from colours meets dark greys) as 0: those pixels are the oracle's alone.
				keep = func(i int) bool { return want[i][0] >= 0 && want[i][2] >= 0 }
				if d, at := diff(img, want, nil); d > 1 {
					t.Errorf("%.2f LSB from the oracle at pixel %d", d, at)
				}
			case "linear-bt709-100":
				encode = oracle.BT709OETF
				if prm.Tone == nil {
					t.Fatalf("%s: no tone stage", v.Transfer)
				}
				// Where the EETF changes nothing: the oracle with the curve equals it without.
				noCurve := prm
				tone := *prm.Tone
				tone.Clip = true
				noCurve.Tone = &tone
				flat := oracle.Image(pic, noCurve)
				keep = func(i int) bool {
					if v.Transfer == "arib-std-b67" && i/w >= 7 {
						return false // colours (and row 7, whose chroma mixes in the colour rows)
					}
					for k := 0; k < 3; k++ {
						if math.Abs(want[i][k]-flat[i][k]) > 0.3/255 {
							return false
						}
					}
					return true
				}
				if d, at := diff(img, want, nil); d > 1 {
					t.Errorf("%.2f LSB from the oracle's tone stage at pixel %d", d, at)
				} else {
					t.Logf("within %.2f LSB of the oracle's tone stage (%s)", d, p.Applied(f.Picture.Format))
				}
			default:
				t.Fatalf("reference %q", v.Reference)
			}
			zs := make([][4]float64, w*v.Height)
			n := 0
			for i := range zs {
				r, g, b, _ := ref.At(i%w, i/w).RGBA()
				zs[i] = [4]float64{encode(float64(r) / 65535), encode(float64(g) / 65535), encode(float64(b) / 65535), 1}
				if keep(i) {
					n++
				}
			}
			if n < 40 {
				t.Fatalf("only %d pixels to compare with zscale", n)
			}
			if d, at := diff(img, zs, keep); d > 1 {
				t.Errorf("%.2f LSB from zscale at pixel %d (of %d compared)", d, at, n)
			} else {
				t.Logf("within %.2f LSB of zscale over %d pixels", d, n)
			}
		})
	}
}

// diff is the largest difference in 8-bit steps between the screenshot and want (0..1, clamped as
// the target clamps) over the pixels keep accepts (nil: all).
func diff(img image.Image, want [][4]float64, keep func(int) bool) (worst float64, at int) {
	w := img.Bounds().Dx()
	for i, v := range want {
		if keep != nil && !keep(i) {
			continue
		}
		r, g, b, _ := img.At(i%w, i/w).RGBA()
		for k, got := range []uint32{r >> 8, g >> 8, b >> 8} {
			if d := math.Abs(float64(got) - math.Min(math.Max(v[k], 0), 1)*255); d > worst {
				worst, at = d, i
			}
		}
	}
	return worst, at
}

// nearHDR compares metadata to the precision the bitstream carries (0.0001 cd/m²).
func nearHDR(a, b formats.HDRMetadata) bool {
	return fmt.Sprintf("%.4f %.4f %.4f %.4f", a.MinLuminance, a.MaxLuminance, a.MaxCLL, a.MaxFALL) ==
		fmt.Sprintf("%.4f %.4f %.4f %.4f", b.MinLuminance, b.MaxLuminance, b.MaxCLL, b.MaxFALL)
}

// TestHDROutputUnavailable: lavapipe under Xvfb offers no HDR10 surface format, so -hdr-output
// fails with one error line that names what is missing (the colour space and the formats, and the
// colour spaces the surface does offer); -headless with -hdr-output fails with one line too (no
// swapchain). The HDR10 encoding itself is tested offscreen (ycbcr's TestHDR10Output).
func TestHDROutputUnavailable(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run under xvfb-run")
	}
	file := filepath.Join(colourDir, "pq.mkv")
	for _, args := range [][]string{{"-frames", "1", "-hdr-output", file}, {"-headless", "-frames", "1", "-hdr-output", file}} {
		_, stderr, code := play(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		if code == 0 || !strings.HasPrefix(last, "error: ") || !strings.Contains(last, "-hdr-output") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
			continue
		}
		if args[0] != "-headless" && !strings.Contains(last, "VK_COLOR_SPACE_HDR10_ST2084_EXT") {
			t.Errorf("%q: the error does not name the missing colour space: %s", args, last)
		}
		t.Logf("%q: %s", args, last)
	}
}

// TestICCProfileFlag: -icc-profile with a display profile that LittleCMS makes here (P3 primaries,
// 2.2 power curve) plays under the validation layer. What the profile does to the presented picture
// is player's TestICCProfile; bad files are TestBadInputs' cases.
func TestICCProfileFlag(t *testing.T) {
	p, err := lcms.NewRGB(lcms.XY{X: 0.3127, Y: 0.3290}, lcms.XY{X: 0.680, Y: 0.320}, lcms.XY{X: 0.265, Y: 0.690}, lcms.XY{X: 0.150, Y: 0.060}, 2.2)
	if err != nil {
		t.Skip(err) // liblcms2 not installed
	}
	b, err := p.Bytes()
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(t.TempDir(), "p3.icc")
	if err := os.WriteFile(profile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := play(t, "-headless", "-untimed", "-validate", "-frames", "1", "-icc-profile", profile, filepath.Join(mediaDir, "default.mkv")); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
