package formats

import (
	"fmt"
	"strings"
)

// Colour metadata with FFmpeg's numeric values (libavutil/pixfmt.h) and names (libavutil/pixdesc.c:
// av_color_space_name, av_color_range_name, av_chroma_location_name, av_color_primaries_name,
// av_color_transfer_name), so values read from an AVFrame convert with a plain type conversion.

// Matrix is AVColorSpace: the Y′CbCr ↔ R′G′B′ matrix.
type Matrix int

const (
	MatrixRGB              Matrix = 0 // "gbr": the planes hold G, B, R
	MatrixBT709            Matrix = 1
	MatrixUnspecified      Matrix = 2
	MatrixFCC              Matrix = 4
	MatrixBT470BG          Matrix = 5 // BT.601 625-line
	MatrixSMPTE170M        Matrix = 6 // BT.601 525-line, same coefficients as BT470BG
	MatrixSMPTE240M        Matrix = 7
	MatrixYCgCo            Matrix = 8
	MatrixBT2020NCL        Matrix = 9
	MatrixBT2020CL         Matrix = 10
	MatrixSMPTE2085        Matrix = 11
	MatrixChromaDerivedNCL Matrix = 12
	MatrixChromaDerivedCL  Matrix = 13
	MatrixICtCp            Matrix = 14
	// Values added after FFmpeg 5.1 (7.1), kept so that metadata from a newer FFmpeg is named.
	MatrixIPTC2   Matrix = 15
	MatrixYCgCoRe Matrix = 16
	MatrixYCgCoRo Matrix = 17
)

// Range is AVColorRange.
type Range int

const (
	RangeUnspecified Range = 0
	RangeLimited     Range = 1 // "tv", AVCOL_RANGE_MPEG: Y′ 16..235, C 16..240 (×2^(n−8))
	RangeFull        Range = 2 // "pc", AVCOL_RANGE_JPEG: 0..2^n−1
)

// ChromaLocation is AVChromaLocation: where chroma sample 0 sits relative to the luma samples.
type ChromaLocation int

const (
	ChromaUnspecified ChromaLocation = 0
	ChromaLeft        ChromaLocation = 1 // MPEG-2/4 4:2:0, H.264/HEVC default for 4:2:0
	ChromaCenter      ChromaLocation = 2 // MPEG-1 4:2:0, JPEG 4:2:0, H.263 4:2:0
	ChromaTopLeft     ChromaLocation = 3 // ITU-R 601, SMPTE 274M 296M, MPEG-2 4:2:2
	ChromaTop         ChromaLocation = 4
	ChromaBottomLeft  ChromaLocation = 5
	ChromaBottom      ChromaLocation = 6
)

// Primaries is AVColorPrimaries.
type Primaries int

const (
	PrimariesBT709       Primaries = 1
	PrimariesUnspecified Primaries = 2
	PrimariesBT470M      Primaries = 4
	PrimariesBT470BG     Primaries = 5
	PrimariesSMPTE170M   Primaries = 6
	PrimariesSMPTE240M   Primaries = 7
	PrimariesFilm        Primaries = 8
	PrimariesBT2020      Primaries = 9
	PrimariesSMPTE428    Primaries = 10
	PrimariesSMPTE431    Primaries = 11
	PrimariesSMPTE432    Primaries = 12
	PrimariesEBU3213     Primaries = 22
)

// Transfer is AVColorTransferCharacteristic.
type Transfer int

const (
	TransferBT709        Transfer = 1
	TransferUnspecified  Transfer = 2
	TransferGamma22      Transfer = 4 // "bt470m"
	TransferGamma28      Transfer = 5 // "bt470bg"
	TransferSMPTE170M    Transfer = 6
	TransferSMPTE240M    Transfer = 7
	TransferLinear       Transfer = 8
	TransferLog          Transfer = 9
	TransferLogSqrt      Transfer = 10
	TransferIEC61966_2_4 Transfer = 11
	TransferBT1361ECG    Transfer = 12
	TransferIEC61966_2_1 Transfer = 13 // sRGB
	TransferBT2020_10    Transfer = 14
	TransferBT2020_12    Transfer = 15
	TransferSMPTE2084    Transfer = 16 // PQ
	TransferSMPTE428     Transfer = 17
	TransferARIBSTDB67   Transfer = 18 // HLG
)

// Name tables indexed by value, as pixdesc.c has them; "" marks a value FFmpeg does not define.
// "reserved" values have a name but are not valid metadata.
var (
	matrixNames = []string{
		"gbr", "bt709", "unknown", "reserved", "fcc", "bt470bg", "smpte170m", "smpte240m", "ycgco",
		"bt2020nc", "bt2020c", "smpte2085", "chroma-derived-nc", "chroma-derived-c", "ictcp",
		"ipt-c2", "ycgco-re", "ycgco-ro",
	}
	rangeNames  = []string{"unknown", "tv", "pc"}
	chromaNames = []string{"unspecified", "left", "center", "topleft", "top", "bottomleft", "bottom"}
	primNames   = []string{
		"reserved", "bt709", "unknown", "reserved", "bt470m", "bt470bg", "smpte170m", "smpte240m",
		"film", "bt2020", "smpte428", "smpte431", "smpte432", "", "", "", "", "", "", "", "", "",
		"ebu3213",
	}
	transferNames = []string{
		"reserved", "bt709", "unknown", "reserved", "bt470m", "bt470bg", "smpte170m", "smpte240m",
		"linear", "log100", "log316", "iec61966-2-4", "bt1361e", "iec61966-2-1", "bt2020-10",
		"bt2020-12", "smpte2084", "smpte428", "arib-std-b67",
	}
)

// Aliases the FFmpeg command line also accepts (libavcodec's option constants for -colorspace,
// -color_range, -color_primaries, -color_trc, -chroma_sample_location), plus "limited"/"full".
var (
	matrixAliases = map[string]int{
		"rgb": 0, "unspecified": 2, "ycocg": 8, "bt2020_ncl": 9, "bt2020_cl": 10,
	}
	rangeAliases = map[string]int{
		"unspecified": 0, "mpeg": 1, "limited": 1, "jpeg": 2, "full": 2,
	}
	chromaAliases = map[string]int{"unknown": 0}
	primAliases   = map[string]int{"unspecified": 2, "smpte428_1": 10, "jedec-p22": 22}
	transAliases  = map[string]int{
		"unspecified": 2, "gamma22": 4, "gamma28": 5, "log": 9, "log_sqrt": 10,
		"iec61966_2_4": 11, "bt1361": 12, "iec61966_2_1": 13, "bt2020_10bit": 14,
		"bt2020_12bit": 15, "smpte428_1": 17,
	}
)

func name(names []string, v int, typ string) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// parse looks s up among the names (case-insensitive) and aliases. "reserved" is not accepted: it
// names several values and none is valid metadata.
func parse(s string, names []string, aliases map[string]int, what string) (int, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	if k != "reserved" {
		for v, n := range names {
			if n != "" && n == k {
				return v, nil
			}
		}
		if v, ok := aliases[k]; ok {
			return v, nil
		}
	}
	var valid []string
	for _, n := range names {
		if n != "" && n != "reserved" {
			valid = append(valid, n)
		}
	}
	return 0, fmt.Errorf("formats: unknown %s %q (valid: %s)", what, s, strings.Join(valid, ", "))
}

// String returns FFmpeg's name (av_color_space_name): "gbr", "bt709", "unknown", "bt2020nc", ...
func (m Matrix) String() string { return name(matrixNames, int(m), "Matrix") }

// String returns FFmpeg's name (av_color_range_name): "tv", "pc", "unknown".
func (r Range) String() string { return name(rangeNames, int(r), "Range") }

// String returns FFmpeg's name (av_chroma_location_name): "left", "center", "topleft", ...
func (l ChromaLocation) String() string { return name(chromaNames, int(l), "ChromaLocation") }

// String returns FFmpeg's name (av_color_primaries_name): "bt709", "bt2020", "unknown", ...
func (p Primaries) String() string { return name(primNames, int(p), "Primaries") }

// String returns FFmpeg's name (av_color_transfer_name): "bt709", "smpte2084", "arib-std-b67", ...
func (t Transfer) String() string { return name(transferNames, int(t), "Transfer") }

// ParseMatrix accepts FFmpeg's names ("bt709", "bt2020nc", "unknown", ...) and the command line's
// aliases ("rgb", "unspecified", "bt2020_ncl", ...), case-insensitively. On error it returns
// MatrixUnspecified, not 0 (which is "gbr"); the other Parse functions likewise return their
// unspecified value.
func ParseMatrix(s string) (Matrix, error) {
	v, err := parse(s, matrixNames, matrixAliases, "matrix (colorspace)")
	if err != nil {
		return MatrixUnspecified, err
	}
	return Matrix(v), nil
}

// ParseRange accepts "tv"/"limited"/"mpeg", "pc"/"full"/"jpeg" and "unknown"/"unspecified".
func ParseRange(s string) (Range, error) {
	v, err := parse(s, rangeNames, rangeAliases, "color range")
	if err != nil {
		return RangeUnspecified, err
	}
	return Range(v), nil
}

// ParseChromaLocation accepts FFmpeg's names ("left", "center", "topleft", ...) and "unknown".
func ParseChromaLocation(s string) (ChromaLocation, error) {
	v, err := parse(s, chromaNames, chromaAliases, "chroma location")
	if err != nil {
		return ChromaUnspecified, err
	}
	return ChromaLocation(v), nil
}

// ParsePrimaries accepts FFmpeg's names ("bt709", "bt2020", "smpte432", ...) and its aliases. It is
// Primaries.String's inverse, as every field of Color has one: for a program that reads colour
// metadata given by name (ffprobe's color_primaries, a user's override, a manifest such as
// testvectors'); the toolkit's own programs override only matrix, range and siting today.
func ParsePrimaries(s string) (Primaries, error) {
	v, err := parse(s, primNames, primAliases, "color primaries")
	if err != nil {
		return PrimariesUnspecified, err
	}
	return Primaries(v), nil
}

// ParseTransfer accepts FFmpeg's names ("bt709", "smpte2084", "arib-std-b67", ...) and its aliases:
// Transfer.String's inverse, for the same programs as ParsePrimaries (ffprobe's color_transfer).
func ParseTransfer(s string) (Transfer, error) {
	v, err := parse(s, transferNames, transAliases, "color transfer")
	if err != nil {
		return TransferUnspecified, err
	}
	return Transfer(v), nil
}

// valid reports whether v names a defined, non-reserved value.
func valid(names []string, v int) bool {
	return v >= 0 && v < len(names) && names[v] != "" && names[v] != "reserved"
}

// Model maps the matrix to the sampler conversion's ycbcrModel (docs/ycbcr-math.md §7.1). Vulkan
// has only the BT.709, BT.601 and BT.2020 (non-constant-luminance) matrices and RGB identity; every
// other matrix needs the shader path, and the error says why.
func (m Matrix) Model() (Model, error) {
	switch m {
	case MatrixRGB:
		// G, B, R planes map to Vulkan planes 0, 1, 2 as they are. RGB_IDENTITY ignores ycbcrRange,
		// so limited-range GBR still needs the shader path (the caller's check).
		return ModelRGBIdentity, nil
	case MatrixBT709:
		return ModelYCbCr709, nil
	case MatrixBT470BG, MatrixSMPTE170M:
		// pixfmt.h: SMPTE 170M is "functionally identical" to BT.470BG (Kr 0.299, Kb 0.114).
		return ModelYCbCr601, nil
	case MatrixBT2020NCL:
		return ModelYCbCr2020, nil
	case MatrixUnspecified:
		return 0, fmt.Errorf("formats: matrix unspecified: resolve first")
	case MatrixSMPTE240M:
		return 0, fmt.Errorf("formats: matrix smpte240m: SMPTE 240M (Kr=0.212, Kb=0.087) has no Vulkan model")
	case MatrixFCC:
		return 0, fmt.Errorf("formats: matrix fcc: FCC (Kr=0.30, Kb=0.11) has no Vulkan model")
	case MatrixYCgCo, MatrixYCgCoRe, MatrixYCgCoRo:
		return 0, fmt.Errorf("formats: matrix %s: YCgCo is not a Kr/Kb matrix and has no Vulkan model", m)
	case MatrixBT2020CL:
		return 0, fmt.Errorf("formats: matrix bt2020c: BT.2020 constant luminance is non-linear and has no Vulkan model")
	case MatrixSMPTE2085:
		return 0, fmt.Errorf("formats: matrix smpte2085: SMPTE ST 2085 (Y′D′zD′x) has no Vulkan model")
	case MatrixChromaDerivedNCL, MatrixChromaDerivedCL:
		return 0, fmt.Errorf("formats: matrix %s: chromaticity-derived coefficients come from the primaries; no Vulkan model", m)
	case MatrixICtCp, MatrixIPTC2:
		return 0, fmt.Errorf("formats: matrix %s: ICtCp/IPT are not Y′CbCr matrices and have no Vulkan model", m)
	}
	return 0, fmt.Errorf("formats: matrix %d is not a valid AVColorSpace", int(m))
}

// Coefficients returns Kr and Kb for the shader path's Y′CbCr → R′G′B′ matrix (Kg = 1 − Kr − Kb).
// ok is false for matrices that are not of that form (RGB, YCgCo, constant luminance, ICtCp, ...)
// and for unspecified: resolve first.
func (m Matrix) Coefficients() (kr, kb float64, ok bool) {
	switch m {
	case MatrixBT709:
		return 0.2126, 0.0722, true
	case MatrixBT470BG, MatrixSMPTE170M:
		return 0.299, 0.114, true
	case MatrixBT2020NCL:
		return 0.2627, 0.0593, true
	case MatrixSMPTE240M:
		return 0.212, 0.087, true // DFS MODEL_ST240
	case MatrixFCC:
		return 0.30, 0.11, true // swscale's FCC row
	}
	return 0, 0, false
}

// Vulkan maps the range to ycbcrRange (docs/ycbcr-math.md §7.2): FFmpeg's limited and full range
// are exactly Vulkan's ITU_NARROW and ITU_FULL.
func (r Range) Vulkan() (YcbcrRange, error) {
	switch r {
	case RangeLimited:
		return RangeITUNarrow, nil
	case RangeFull:
		return RangeITUFull, nil
	case RangeUnspecified:
		return 0, fmt.Errorf("formats: color range unspecified: resolve first")
	}
	return 0, fmt.Errorf("formats: color range %d is not a valid AVColorRange", int(r))
}

// Position is av_chroma_location_enum_to_pos divided by 256: the position of chroma sample 0 in luma
// texel units, measured from luma sample 0 (LEFT = (0, 0.5), CENTER = (0.5, 0.5), TOPLEFT = (0, 0),
// TOP = (0.5, 0), BOTTOMLEFT = (0, 1), BOTTOM = (0.5, 1)). The positions assume 2× subsampling.
func (l ChromaLocation) Position() (x, y float64, err error) {
	if l == ChromaUnspecified {
		return 0, 0, fmt.Errorf("formats: chroma location unspecified: resolve first")
	}
	if l < ChromaLeft || l > ChromaBottom {
		return 0, 0, fmt.Errorf("formats: chroma location %d is not a valid AVChromaLocation", int(l))
	}
	// The same arithmetic as FFmpeg: after pos--, xpos = (pos&1)·128, ypos = ((pos>>1)^(pos<4))·128.
	pos := int(l) - 1
	lt4 := 0
	if pos < 4 {
		lt4 = 1
	}
	return float64((pos&1)*128) / 256, float64(((pos>>1)^lt4)*128) / 256, nil
}

// Offsets maps the chroma location to the conversion's xChromaOffset and yChromaOffset for a layout
// with the given subsampling (docs/ycbcr-math.md §7.3). On a subsampled axis position 0 is
// COSITED_EVEN, 0.5 is MIDPOINT and 1 (the bottom locations) has no Vulkan value: an error, the
// shader path must take it. On an axis that is not subsampled the offset has no effect
// (samplers.adoc): CositedEven is returned there. That is not a claim about device support: a
// checker must still verify that the format supports COSITED or MIDPOINT (at least one is required
// for any conversion, VUID 01650).
func (l ChromaLocation) Offsets(log2w, log2h int) (x, y ChromaOffset, err error) {
	px, py, err := l.Position()
	if err != nil {
		return 0, 0, err
	}
	axis := func(p float64, log2 int, which string) (ChromaOffset, error) {
		switch {
		case log2 == 0:
			return CositedEven, nil
		case log2 != 1:
			return 0, fmt.Errorf("formats: chroma subsampling 1/%d on %s: Vulkan formats subsample by 2 at most", 1<<uint(min(log2, 30)), which)
		case p == 0:
			return CositedEven, nil
		case p == 0.5:
			return Midpoint, nil
		}
		return 0, fmt.Errorf("formats: %s: bottom chroma location has no Vulkan offset (%s = %g: chroma on the odd luma row)", l, which, p)
	}
	if log2w < 0 || log2h < 0 {
		return 0, 0, fmt.Errorf("formats: negative chroma subsampling %d×%d", log2w, log2h)
	}
	if x, err = axis(px, log2w, "x"); err != nil {
		return 0, 0, err
	}
	if y, err = axis(py, log2h, "y"); err != nil {
		return 0, 0, err
	}
	return x, y, nil
}
