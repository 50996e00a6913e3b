// Package pictest helps tests with pictures: comparisons with the oracle's per-pixel bounds or with
// each other, PNGs, the test vectors' manifest, test files with chapters, and what Debian's ffmpeg
// made for tests, kept between runs.
package pictest

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// Mismatch compares a read-back RGBA8 picture with per-pixel oracle bounds (already mapped to 8-bit
// codes). It returns how many channel values fall outside, the worst excess in 8-bit LSB and where.
func Mismatch(img *image.RGBA, bounds []oracle.Bounds) (fails int, worst float64, where string) {
	w := img.Rect.Dx()
	for i, b := range bounds {
		x, y := i%w, i/w
		for c := 0; c < 3; c++ {
			v := float64(img.Pix[img.PixOffset(x, y)+c]) / 255
			ex := math.Max(b.Lo[c]-v, v-b.Hi[c])
			if ex > 1e-9 {
				fails++
				if ex*255 > worst {
					worst = ex * 255
					where = fmt.Sprintf("(%d,%d) channel %d = %.0f, bounds [%.1f, %.1f]", x, y, c, v*255, b.Lo[c]*255, b.Hi[c]*255)
				}
			}
		}
	}
	return fails, worst, where
}

// FirstDiff finds the first pixel where two pictures of the same size differ ("" if none).
func FirstDiff(a, b *image.RGBA) string {
	if a.Rect != b.Rect {
		return fmt.Sprintf("sizes %v and %v", a.Rect, b.Rect)
	}
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			px := i / 4
			return fmt.Sprintf("(%d,%d) channel %d: %d vs %d", px%a.Rect.Dx(), px/a.Rect.Dx(), i%4, a.Pix[i], b.Pix[i])
		}
	}
	return ""
}

// ReadPNG decodes the PNG at path.
func ReadPNG(t testing.TB, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// ReadNRGBA decodes the PNG at path into an NRGBA picture (screenshots compared sample by sample).
func ReadNRGBA(t testing.TB, path string) *image.NRGBA {
	t.Helper()
	img := ReadPNG(t, path)
	out := image.NewNRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// VectorColor is colour metadata as the manifest spells it (FFmpeg's names).
type VectorColor struct {
	Matrix         string `json:"matrix"`
	Range          string `json:"range"`
	ChromaLocation string `json:"chroma_location"`
	Primaries      string `json:"primaries"`
	Transfer       string `json:"transfer"`
}

// Vector is one entry of testvectors/media/manifest.json (testvectors/make.sh writes it): a small
// file, the metadata its stream carries, the metadata its picture must be converted with, and
// zscale's picture of its first frame.
type Vector struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Codec  string `json:"codec"`
	PixFmt string `json:"pix_fmt"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Frames int    `json:"frames"`
	VectorColor
	Expected VectorColor `json:"expected"`
	PNG      string      `json:"png"`
}

// Manifest is the whole manifest: the FFmpeg that made the vectors, and the vectors.
type Manifest struct {
	FFmpeg  string   `json:"ffmpeg"`
	Vectors []Vector `json:"vectors"`
}

// LoadManifest reads the manifest in dir (the test's path to testvectors/media) and fails t if it
// cannot, or if it lists no vectors.
func LoadManifest(t testing.TB, dir string) Manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatalf("read the manifest (testvectors/make.sh writes it): %v", err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("parse the manifest: %v", err)
	}
	if len(m.Vectors) == 0 {
		t.Fatal("manifest lists no vectors")
	}
	return m
}

// Vectors is LoadManifest's vectors.
func Vectors(t testing.TB, dir string) []Vector {
	t.Helper()
	return LoadManifest(t, dir).Vectors
}

// MaxDiff is the largest per-channel difference in 8-bit steps between two same-size pictures (their
// bounds may start at different points: a tile cut out of a wall against a whole screenshot).
func MaxDiff(t testing.TB, a, b image.Image) float64 {
	t.Helper()
	ra, rb := a.Bounds(), b.Bounds()
	if ra.Size() != rb.Size() {
		t.Fatalf("sizes differ: %v vs %v", ra, rb)
	}
	worst := 0.0
	for y := 0; y < ra.Dy(); y++ {
		for x := 0; x < ra.Dx(); x++ {
			ar, ag, ab, _ := a.At(ra.Min.X+x, ra.Min.Y+y).RGBA()
			br, bg, bb, _ := b.At(rb.Min.X+x, rb.Min.Y+y).RGBA()
			for _, d := range []float64{float64(ar>>8) - float64(br>>8), float64(ag>>8) - float64(bg>>8), float64(ab>>8) - float64(bb>>8)} {
				worst = math.Max(worst, math.Abs(d))
			}
		}
	}
	return worst
}

// Ycbcrplay returns a ycbcrplay program to make reference pictures with: $YCBCRKIT_TEST_YCBCRPLAY
// when set (scripts/test.sh builds one for all the packages that use it), else dir's, built there
// with go build (the environment's GOFLAGS: the test build's tags) unless an earlier call did.
func Ycbcrplay(t testing.TB, dir string) string {
	t.Helper()
	if p := os.Getenv("YCBCRKIT_TEST_YCBCRPLAY"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("YCBCRKIT_TEST_YCBCRPLAY: %v", err)
		}
		return p
	}
	p := filepath.Join(dir, "ycbcrplay")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if out, err := exec.Command("go", "build", "-o", p, "github.com/ycbcrkit/ycbcrkit/cmd/ycbcrplay").CombinedOutput(); err != nil {
		t.Fatalf("go build ycbcrplay: %v\n%s", err, out)
	}
	return p
}
