// Package zscale converts a frame with FFmpeg's zscale filter (zimg), an implementation independent
// of this project, and returns its floating-point R′G′B′: the outside reference the GPU paths are
// compared with. zimg reproduces Vulkan's implicit LINEAR reconstruction, range expansion and matrix
// to float precision (docs/ycbcr-math.md §10).
package zscale

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// matrixNames maps FFmpeg's matrix to zscale's matrixin values.
var matrixNames = map[formats.Matrix]string{
	formats.MatrixBT709: "709", formats.MatrixBT470BG: "470bg", formats.MatrixSMPTE170M: "170m",
	formats.MatrixBT2020NCL: "2020_ncl", formats.MatrixYCgCo: "ycgco", formats.MatrixBT2020CL: "2020_cl",
}

// matrixExtra is what zimg needs besides matrixin for a matrix. Constant luminance is defined through
// BT.2020's transfer, so zimg must be told it; its output is linear light, because zimg encodes R′G′B′
// with BT.1886's inverse EOTF (γ 2.4), not with the OETF constant luminance is defined with: the
// caller applies BT.2020's OETF. zimg also takes negative R′ and B′ (outside BT.2020 Table 4's
// ranges) as 0 before linearizing.
var matrixExtra = map[formats.Matrix]string{
	formats.MatrixBT2020CL: ":transferin=2020_10:transfer=linear:primariesin=2020:primaries=2020",
}

// Convert runs `ffmpeg -vf zscale=...:filter=bilinear:range=full,format=gbrpf32le` on one planar
// 8-bit frame (yuv420p, yuv422p, yuv444p and their j variants) and returns R′G′B′ per pixel.
func Convert(f *formats.Frame, m formats.Matrix, r formats.Range, loc formats.ChromaLocation) ([][3]float64, error) {
	return ConvertWith(f, m, r, loc, "")
}

// ConvertWith is Convert with more zscale options appended (":transferin=smpte2084:transfer=linear"
// and the like).
func ConvertWith(f *formats.Frame, m formats.Matrix, r formats.Range, loc formats.ChromaLocation, extra string) ([][3]float64, error) {
	px, err := ConvertMany(f, []Case{{m, r, loc, extra}})
	if err != nil {
		return nil, err
	}
	return px[0], nil
}

// Case is one conversion of ConvertMany: a matrix, range and chroma location, and zscale options
// appended as ConvertWith's extra.
type Case struct {
	Matrix         formats.Matrix
	Range          formats.Range
	ChromaLocation formats.ChromaLocation
	Extra          string
}

// ConvertMany is ConvertWith for each case, in one ffmpeg run: one output per case, each through
// its own filter graph (the program's start-up, about 0.24 CPU-s for Debian's ffmpeg and its 214
// libraries, paid once).
func ConvertMany(f *formats.Frame, cases []Case) ([][][3]float64, error) {
	pf := f.Format
	if pf.Depth != 8 || len(pf.Planes) != 3 {
		return nil, fmt.Errorf("zscale: %s: only 8-bit three-plane layouts are wired up", pf.Name)
	}
	dir, err := os.MkdirTemp("", "zscale")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var raw bytes.Buffer
	for i := range pf.Planes {
		w, h := pf.PlaneSize(i, f.Width, f.Height)
		for y := 0; y < h; y++ {
			raw.Write(f.Planes[i][y*f.Strides[i] : y*f.Strides[i]+w])
		}
	}
	in := filepath.Join(dir, "in.yuv")
	if err := os.WriteFile(in, raw.Bytes(), 0o644); err != nil {
		return nil, err
	}
	// The input pixel format names its layout only; the range comes from rangein.
	inFmt := map[string]string{"yuvj420p": "yuv420p", "yuvj422p": "yuv422p", "yuvj444p": "yuv444p"}[pf.Name]
	if inFmt == "" {
		inFmt = pf.Name
	}
	args := []string{"-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", inFmt,
		"-s", fmt.Sprintf("%dx%d", f.Width, f.Height), "-i", in}
	outs := make([]string, len(cases))
	for k, c := range cases {
		mat, ok := matrixNames[c.Matrix]
		if !ok {
			return nil, fmt.Errorf("zscale: matrix %s not wired up", c.Matrix)
		}
		rng := map[formats.Range]string{formats.RangeLimited: "limited", formats.RangeFull: "full"}[c.Range]
		if rng == "" {
			return nil, fmt.Errorf("zscale: range %s", c.Range)
		}
		outs[k] = filepath.Join(dir, fmt.Sprintf("out%d.gbrp", k))
		vf := fmt.Sprintf("zscale=matrixin=%s:rangein=%s:chromalin=%s:filter=bilinear:range=full%s%s,format=gbrpf32le",
			mat, rng, c.ChromaLocation, matrixExtra[c.Matrix], c.Extra)
		args = append(args, "-vf", vf, "-f", "rawvideo", "-y", outs[k])
	}
	if msg, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("zscale: ffmpeg: %v: %s", err, msg)
	}
	n := f.Width * f.Height
	all := make([][][3]float64, len(cases))
	for k := range cases {
		b, err := os.ReadFile(outs[k])
		if err != nil {
			return nil, err
		}
		if len(b) != 3*n*4 {
			return nil, fmt.Errorf("zscale: got %d bytes, want %d", len(b), 3*n*4)
		}
		plane := func(p, i int) float64 { // gbrp plane order: G, B, R
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[(p*n+i)*4:])))
		}
		px := make([][3]float64, n)
		for i := range px {
			px[i] = [3]float64{plane(2, i), plane(0, i), plane(1, i)}
		}
		all[k] = px
	}
	return all, nil
}
