package decode

import (
	"fmt"
	"strings"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// target is the supported layout a decoder pixel format outside the formats table is converted to.
type target struct {
	src    avx.PixFmtDesc
	dst    *formats.PixelFormat
	dstFmt astiav.PixelFormat
	// rgb: the source holds R′G′B′ (or a palette, Bayer, XYZ): conversion applies a matrix, chosen here
	// as BT.709 with full range. Otherwise Y′CbCr → Y′CbCr keeps the matrix and the range, and only
	// the chroma is resampled (and the depth rescaled).
	rgb    bool
	notice string
}

// depthSuffix names the table's container for a bit depth: 8 bits as they are, 9–10 → 10-bit LSB,
// 11–12 → 12-bit LSB, deeper (14, 16, float) → 16-bit.
func depthSuffix(depth int) string {
	switch {
	case depth <= 8:
		return ""
	case depth <= 10:
		return "10le"
	case depth <= 12:
		return "12le"
	}
	return "16le"
}

// chooseTarget picks the nearest supported layout for src: the same bit depth, and the same
// subsampling family where the table has it (4:1:1 → 4:2:2 and 4:4:0 → 4:4:4 keep every chroma
// sample; 4:1:0 → 4:2:0); gray stays gray; RGB-like formats become 4:4:4 Y′CbCr. Alpha is dropped.
func chooseTarget(src astiav.PixelFormat) (target, error) {
	d, ok := avx.Describe(src)
	if !ok {
		return target{}, fmt.Errorf("unknown pixel format %d", int(src))
	}
	if d.HWAccel {
		return target{}, fmt.Errorf("hardware pixel format %s", d.Name)
	}
	t := target{src: d}
	rgbLike := d.RGB || d.Palette || d.Bayer || strings.HasPrefix(d.Name, "xyz")
	gray := !rgbLike && d.Components <= 2 // gray, gray with alpha (ya8), monochrome
	var name string
	switch {
	case rgbLike:
		t.rgb = true
		name = "yuv444p" + depthSuffix(d.Depth)
	case gray:
		name = "gray" + depthSuffix(d.Depth)
	default:
		sub := map[[2]int]string{
			{0, 0}: "444", {1, 0}: "422", {1, 1}: "420",
			{2, 0}: "422", {0, 1}: "444", {2, 2}: "420",
		}[[2]int{d.Log2ChromaW, d.Log2ChromaH}]
		if sub == "" {
			sub = "444"
		}
		name = "yuv" + sub + "p" + depthSuffix(d.Depth)
	}
	pf, ok := formats.Lookup(name)
	if !ok {
		// Every name built above is in the table today; fall back rather than fail if that changes.
		pf, _ = formats.Lookup("yuv444p")
		t.rgb = rgbLike
	}
	t.dst = pf
	t.dstFmt = astiav.FindPixelFormatByName(pf.Name)
	if t.dstFmt == astiav.PixelFormatNone {
		return target{}, fmt.Errorf("FFmpeg does not know %s", pf.Name)
	}
	t.notice = fmt.Sprintf("notice: %s is not supported by the toolkit; converting to %s with swscale", d.Name, pf.Name)
	if t.rgb {
		t.notice += " (BT.709 matrix, full range)"
	}
	if d.Alpha {
		t.notice += "; alpha is dropped"
	}
	return t, nil
}

// pseudoFormat describes a source layout outside the table well enough for formats.Resolve, which
// looks only at the name, the subsampling, gray and yuvj.
func (t target) pseudoFormat() *formats.PixelFormat {
	return &formats.PixelFormat{
		Name:        t.src.Name,
		Log2ChromaW: t.src.Log2ChromaW,
		Log2ChromaH: t.src.Log2ChromaH,
		Depth:       t.src.Depth,
		FullRange:   strings.HasPrefix(t.src.Name, "yuvj"),
		Gray:        !t.rgb && t.src.Components <= 2,
	}
}

// chromaPos is the position of chroma sample 0 in swscale's units (1/256 luma sample from luma
// sample 0) for a chroma location and a subsampling of n = 2^log2w by m = 2^log2h. Position() is given
// for 2× subsampling (0, ½ or 1 luma sample): for n× the centre of the block is at (n−1)/2 and the far
// edge at n−1, i.e. Position()·(n−1). An axis that is not subsampled gives 0 (co-sited).
func chromaPos(loc formats.ChromaLocation, log2w, log2h int) (h, v int) {
	px, py, err := loc.Position()
	if err != nil {
		return avx.PosDefault, avx.PosDefault
	}
	h = int(px * float64(int(1)<<log2w-1) * 256)
	v = int(py * float64(int(1)<<log2h-1) * 256)
	return h, v
}

// converter is the swscale set-up for one source format, size and colour.
type converter struct {
	key   convKey
	t     target
	sc    *avx.Scaler
	color formats.Color
	notes []string
}

type convKey struct {
	format, w, h int
	tagged       formats.Color
}

func (c *converter) free() {
	if c.sc != nil {
		c.sc.Free()
	}
}

// newConverter sets up the conversion of w×h frames of format f tagged with the given colour.
//
// Colour consistency: the source's metadata is resolved first (its defaults, with notes). Y′CbCr
// sources keep matrix and range (swscale converts Y′CbCr → Y′CbCr without a matrix; both ranges are
// set equal so codes are not rescaled), and swscale is told the source's chroma siting and to write
// the output at the same siting, so Color.ChromaLocation stays true (4:4:4 output has no siting:
// center, as Resolve assumes). RGB-like sources are converted with BT.709 into full range, and the
// frame is tagged so; primaries and transfer are carried over unchanged in every case.
func newConverter(key convKey, t target) (*converter, error) {
	tagged := key.tagged
	if t.rgb {
		// R′G′B′ data: no matrix to guess and no chroma to site.
		tagged.Matrix, tagged.ChromaLocation = formats.MatrixRGB, formats.ChromaCenter
	}
	src, srcNotes := formats.Resolve(tagged, t.pseudoFormat(), key.w, key.h)

	spec := avx.ScaleSpec{
		SrcW: key.w, SrcH: key.h, SrcFormat: astiav.PixelFormat(key.format),
		DstW: key.w, DstH: key.h, DstFormat: t.dstFmt,
		// Bilinear chroma resampling (what the GPU's reconstruction does too), accurate rounding, and
		// full-resolution chroma from RGB input instead of every other pixel.
		Flags:         avx.SwsBilinear | avx.SwsAccurateRnd | avx.SwsFullChrHInt | avx.SwsFullChrHInp,
		SrcColorspace: int(src.Matrix), SrcFull: src.Range == formats.RangeFull,
		SrcHPos: avx.PosDefault, SrcVPos: avx.PosDefault, DstHPos: avx.PosDefault, DstVPos: avx.PosDefault,
	}
	dst := src
	if t.rgb {
		spec.DstColorspace, spec.DstFull = int(formats.MatrixBT709), true
		dst.Matrix, dst.Range = formats.MatrixBT709, formats.RangeFull
	} else {
		spec.DstColorspace, spec.DstFull = spec.SrcColorspace, spec.SrcFull
		if !t.pseudoFormat().Gray {
			spec.SrcHPos, spec.SrcVPos = chromaPos(src.ChromaLocation, t.src.Log2ChromaW, t.src.Log2ChromaH)
			spec.DstHPos, spec.DstVPos = chromaPos(src.ChromaLocation, t.dst.Log2ChromaW, t.dst.Log2ChromaH)
		}
	}
	if t.dst.Log2ChromaW == 0 && t.dst.Log2ChromaH == 0 {
		// 4:4:4 output has no siting; center is what Resolve assumes for it.
		dst.ChromaLocation = formats.ChromaCenter
	}
	sc, err := avx.NewScaler(spec)
	if err != nil {
		return nil, err
	}
	color, dstNotes := formats.Resolve(dst, t.dst, key.w, key.h)
	notes := []string{fmt.Sprintf("converted from %s to %s with swscale", t.src.Name, t.dst.Name)}
	for _, n := range srcNotes {
		notes = append(notes, t.src.Name+": "+n)
	}
	notes = append(notes, dstNotes...)
	return &converter{key: key, t: t, sc: sc, color: color, notes: notes}, nil
}

// convert returns a page-aligned frame in a supported layout made from src by swscale.
func (d *Decoder) convert(src *astiav.Frame, f avx.Fields, tagged formats.Color) (*astiav.Frame, *converter, error) {
	key := convKey{f.Format, f.Width, f.Height, tagged}
	if d.conv == nil || d.conv.key != key {
		t, err := chooseTarget(astiav.PixelFormat(f.Format))
		if err != nil {
			return nil, nil, fmt.Errorf("decode: convert %s: %w", d.url, err)
		}
		c, err := newConverter(key, t)
		if err != nil {
			return nil, nil, fmt.Errorf("decode: convert %s: %w", d.url, err)
		}
		if d.conv != nil {
			d.conv.free()
		}
		d.conv = c
		d.notice(t.notice)
	}
	out := astiav.AllocFrame()
	if out == nil {
		return nil, nil, fmt.Errorf("decode: convert %s: cannot allocate a frame", d.url)
	}
	if err := d.copies.Alloc(out, d.conv.t.dstFmt, f.Width, f.Height); err != nil {
		out.Free()
		return nil, nil, fmt.Errorf("decode: convert %s: %w", d.url, err)
	}
	if err := d.conv.sc.Scale(out, src); err != nil {
		out.Free()
		return nil, nil, fmt.Errorf("decode: convert %s: %w", d.url, err)
	}
	c := d.conv.color
	avx.SetColor(out, int(c.Range), int(c.Matrix), int(c.Primaries), int(c.Transfer), int(c.ChromaLocation))
	d.stats.Converted++
	return out, d.conv, nil
}
