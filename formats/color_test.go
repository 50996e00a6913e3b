package formats

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every defined value, with FFmpeg's name typed from libavutil/pixdesc.c (av_*_name).
var (
	allMatrices = map[Matrix]string{
		MatrixRGB: "gbr", MatrixBT709: "bt709", MatrixUnspecified: "unknown", MatrixFCC: "fcc",
		MatrixBT470BG: "bt470bg", MatrixSMPTE170M: "smpte170m", MatrixSMPTE240M: "smpte240m",
		MatrixYCgCo: "ycgco", MatrixBT2020NCL: "bt2020nc", MatrixBT2020CL: "bt2020c",
		MatrixSMPTE2085: "smpte2085", MatrixChromaDerivedNCL: "chroma-derived-nc",
		MatrixChromaDerivedCL: "chroma-derived-c", MatrixICtCp: "ictcp", MatrixIPTC2: "ipt-c2",
		MatrixYCgCoRe: "ycgco-re", MatrixYCgCoRo: "ycgco-ro",
	}
	allRanges    = map[Range]string{RangeUnspecified: "unknown", RangeLimited: "tv", RangeFull: "pc"}
	allLocations = map[ChromaLocation]string{
		ChromaUnspecified: "unspecified", ChromaLeft: "left", ChromaCenter: "center", ChromaTopLeft: "topleft",
		ChromaTop: "top", ChromaBottomLeft: "bottomleft", ChromaBottom: "bottom",
	}
	allPrimaries = map[Primaries]string{
		PrimariesBT709: "bt709", PrimariesUnspecified: "unknown", PrimariesBT470M: "bt470m",
		PrimariesBT470BG: "bt470bg", PrimariesSMPTE170M: "smpte170m", PrimariesSMPTE240M: "smpte240m",
		PrimariesFilm: "film", PrimariesBT2020: "bt2020", PrimariesSMPTE428: "smpte428",
		PrimariesSMPTE431: "smpte431", PrimariesSMPTE432: "smpte432", PrimariesEBU3213: "ebu3213",
	}
	allTransfers = map[Transfer]string{
		TransferBT709: "bt709", TransferUnspecified: "unknown", TransferGamma22: "bt470m",
		TransferGamma28: "bt470bg", TransferSMPTE170M: "smpte170m", TransferSMPTE240M: "smpte240m",
		TransferLinear: "linear", TransferLog: "log100", TransferLogSqrt: "log316",
		TransferIEC61966_2_4: "iec61966-2-4", TransferBT1361ECG: "bt1361e", TransferIEC61966_2_1: "iec61966-2-1",
		TransferBT2020_10: "bt2020-10", TransferBT2020_12: "bt2020-12", TransferSMPTE2084: "smpte2084",
		TransferSMPTE428: "smpte428", TransferARIBSTDB67: "arib-std-b67",
	}
)

// Values typed from libavutil/pixfmt.h, so that a wrong constant cannot pass by its own name table.
func TestColorValuesMatchPixfmt(t *testing.T) {
	for got, want := range map[int]int{
		int(MatrixRGB): 0, int(MatrixBT709): 1, int(MatrixUnspecified): 2, int(MatrixFCC): 4,
		int(MatrixBT470BG): 5, int(MatrixSMPTE170M): 6, int(MatrixSMPTE240M): 7, int(MatrixYCgCo): 8,
		int(MatrixBT2020NCL): 9, int(MatrixBT2020CL): 10, int(MatrixSMPTE2085): 11,
		int(MatrixChromaDerivedNCL): 12, int(MatrixChromaDerivedCL): 13, int(MatrixICtCp): 14,
	} {
		if got != want {
			t.Errorf("matrix constant %d, want %d", got, want)
		}
	}
	if RangeUnspecified != 0 || RangeLimited != 1 || RangeFull != 2 {
		t.Error("range values")
	}
	if ChromaUnspecified != 0 || ChromaLeft != 1 || ChromaCenter != 2 || ChromaTopLeft != 3 ||
		ChromaTop != 4 || ChromaBottomLeft != 5 || ChromaBottom != 6 {
		t.Error("chroma location values")
	}
	if PrimariesBT709 != 1 || PrimariesBT2020 != 9 || PrimariesSMPTE432 != 12 || PrimariesEBU3213 != 22 {
		t.Error("primaries values")
	}
	if TransferBT709 != 1 || TransferIEC61966_2_1 != 13 || TransferSMPTE2084 != 16 || TransferARIBSTDB67 != 18 {
		t.Error("transfer values")
	}
}

func TestColorStringParseRoundTrip(t *testing.T) {
	for v, name := range allMatrices {
		if v.String() != name {
			t.Errorf("Matrix(%d).String() = %q, want %q", int(v), v.String(), name)
		}
		if got, err := ParseMatrix(name); err != nil || got != v {
			t.Errorf("ParseMatrix(%q) = %v, %v", name, got, err)
		}
		if got, err := ParseMatrix(strings.ToUpper(name)); err != nil || got != v {
			t.Errorf("ParseMatrix(%q) = %v, %v", strings.ToUpper(name), got, err)
		}
	}
	for v, name := range allRanges {
		if v.String() != name {
			t.Errorf("Range(%d).String() = %q, want %q", int(v), v.String(), name)
		}
		if got, err := ParseRange(name); err != nil || got != v {
			t.Errorf("ParseRange(%q) = %v, %v", name, got, err)
		}
	}
	for v, name := range allLocations {
		if v.String() != name {
			t.Errorf("ChromaLocation(%d).String() = %q, want %q", int(v), v.String(), name)
		}
		if got, err := ParseChromaLocation(name); err != nil || got != v {
			t.Errorf("ParseChromaLocation(%q) = %v, %v", name, got, err)
		}
	}
	for v, name := range allPrimaries {
		if v.String() != name {
			t.Errorf("Primaries(%d).String() = %q, want %q", int(v), v.String(), name)
		}
		if got, err := ParsePrimaries(name); err != nil || got != v {
			t.Errorf("ParsePrimaries(%q) = %v, %v", name, got, err)
		}
	}
	for v, name := range allTransfers {
		if v.String() != name {
			t.Errorf("Transfer(%d).String() = %q, want %q", int(v), v.String(), name)
		}
		if got, err := ParseTransfer(name); err != nil || got != v {
			t.Errorf("ParseTransfer(%q) = %v, %v", name, got, err)
		}
	}

	// Aliases in common use and FFmpeg's command line names.
	for s, want := range map[string]Range{
		"tv": RangeLimited, "limited": RangeLimited, "mpeg": RangeLimited,
		"pc": RangeFull, "full": RangeFull, "jpeg": RangeFull, "unspecified": RangeUnspecified, " TV ": RangeLimited,
	} {
		if got, err := ParseRange(s); err != nil || got != want {
			t.Errorf("ParseRange(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for s, want := range map[string]Matrix{"rgb": MatrixRGB, "ycocg": MatrixYCgCo, "bt2020_ncl": MatrixBT2020NCL, "unspecified": MatrixUnspecified} {
		if got, err := ParseMatrix(s); err != nil || got != want {
			t.Errorf("ParseMatrix(%q) = %v, %v; want %v", s, got, err, want)
		}
	}

	// Errors list the valid names; "reserved" and values without a name are not accepted.
	errCases := []struct {
		err   error
		names []string
	}{
		{second(ParseMatrix("bt601")), []string{"bt709", "bt470bg", "smpte170m", "bt2020nc", "gbr"}},
		{second(ParseRange("narrow")), []string{"tv", "pc", "unknown"}},
		{second(ParseChromaLocation("middle")), []string{"left", "center", "topleft", "bottom"}},
		{second(ParsePrimaries("reserved")), []string{"bt709", "bt2020", "ebu3213"}},
		{second(ParseTransfer("")), []string{"bt709", "smpte2084", "arib-std-b67"}},
	}
	for _, c := range errCases {
		if c.err == nil {
			t.Error("bad name accepted")
			continue
		}
		msg := c.err.Error()
		if !strings.HasPrefix(msg, "formats: ") || strings.Contains(msg, "reserved,") {
			t.Errorf("error %q", msg)
		}
		for _, n := range c.names {
			if !strings.Contains(msg, n) {
				t.Errorf("error %q does not list %q", msg, n)
			}
		}
	}

	// A bad name yields the unspecified value, never gbr.
	if m, _ := ParseMatrix("nope"); m != MatrixUnspecified {
		t.Errorf("ParseMatrix(bad) = %v", m)
	}
	if r, _ := ParseRange("nope"); r != RangeUnspecified {
		t.Errorf("ParseRange(bad) = %v", r)
	}
	if l, _ := ParseChromaLocation("nope"); l != ChromaUnspecified {
		t.Errorf("ParseChromaLocation(bad) = %v", l)
	}
	if p, _ := ParsePrimaries("nope"); p != PrimariesUnspecified {
		t.Errorf("ParsePrimaries(bad) = %v", p)
	}
	if tr, _ := ParseTransfer("nope"); tr != TransferUnspecified {
		t.Errorf("ParseTransfer(bad) = %v", tr)
	}

	// Values outside the tables print as numbers; reserved ones as FFmpeg names them.
	for got, want := range map[string]string{
		Matrix(3).String(): "reserved", Matrix(99).String(): "Matrix(99)", Matrix(-1).String(): "Matrix(-1)",
		Range(3).String(): "Range(3)", ChromaLocation(7).String(): "ChromaLocation(7)",
		Primaries(0).String(): "reserved", Primaries(13).String(): "Primaries(13)", Transfer(19).String(): "Transfer(19)",
	} {
		if got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestMatrixToModel is docs/ycbcr-math.md §7.1, row by row.
func TestMatrixToModel(t *testing.T) {
	for _, tc := range []struct {
		ffmpeg string // AVColorSpace name
		model  string // Vulkan name, "" = none
		reason string // substring of the error
	}{
		{"bt709", "VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709", ""},
		{"bt470bg", "VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601", ""},
		{"smpte170m", "VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601", ""},
		{"bt2020nc", "VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020", ""},
		{"gbr", "VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY", ""},
		{"unknown", "", "resolve first"},
		{"smpte240m", "", "Kr=0.212, Kb=0.087"},
		{"fcc", "", "Kr=0.30, Kb=0.11"},
		{"ycgco", "", "YCgCo"},
		{"ycgco-re", "", "YCgCo"},
		{"ycgco-ro", "", "YCgCo"},
		{"bt2020c", "", "constant luminance"},
		{"smpte2085", "", "2085"},
		{"chroma-derived-nc", "", "primaries"},
		{"chroma-derived-c", "", "primaries"},
		{"ictcp", "", "ICtCp"},
		{"ipt-c2", "", "IPT"},
	} {
		m, err := ParseMatrix(tc.ffmpeg)
		if err != nil {
			t.Fatal(err)
		}
		model, err := m.Model()
		switch {
		case tc.model != "" && (err != nil || model.String() != tc.model):
			t.Errorf("%s: %v, %v; want %s", tc.ffmpeg, model, err, tc.model)
		case tc.model == "" && err == nil:
			t.Errorf("%s: %v, want an error", tc.ffmpeg, model)
		case tc.model == "" && (!strings.Contains(err.Error(), tc.reason) || !strings.HasPrefix(err.Error(), "formats: ")):
			t.Errorf("%s: error %q lacks %q", tc.ffmpeg, err, tc.reason)
		}
	}
	for _, m := range []Matrix{3, -1, 18, 1000} {
		if _, err := m.Model(); err == nil {
			t.Errorf("Matrix(%d).Model(): no error", int(m))
		}
	}
	// Every defined matrix either maps or says why not.
	for m := range allMatrices {
		if _, err := m.Model(); err != nil && len(err.Error()) < 30 {
			t.Errorf("%s: terse reason %q", m, err)
		}
	}
}

func TestCoefficients(t *testing.T) {
	for _, tc := range []struct {
		m      Matrix
		kr, kb float64
		ok     bool
	}{
		{MatrixBT709, 0.2126, 0.0722, true},
		{MatrixBT470BG, 0.299, 0.114, true},
		{MatrixSMPTE170M, 0.299, 0.114, true},
		{MatrixBT2020NCL, 0.2627, 0.0593, true},
		{MatrixSMPTE240M, 0.212, 0.087, true},
		{MatrixFCC, 0.30, 0.11, true},
		{MatrixRGB, 0, 0, false},
		{MatrixUnspecified, 0, 0, false},
		{MatrixYCgCo, 0, 0, false},
		{MatrixBT2020CL, 0, 0, false},
		{MatrixICtCp, 0, 0, false},
		{Matrix(42), 0, 0, false},
	} {
		kr, kb, ok := tc.m.Coefficients()
		if kr != tc.kr || kb != tc.kb || ok != tc.ok {
			t.Errorf("%s: %v %v %v, want %v %v %v", tc.m, kr, kb, ok, tc.kr, tc.kb, tc.ok)
		}
	}
}

// TestRangeToVulkan is docs/ycbcr-math.md §7.2.
func TestRangeToVulkan(t *testing.T) {
	for _, tc := range []struct {
		ffmpeg, vulkan string
	}{
		{"tv", "VK_SAMPLER_YCBCR_RANGE_ITU_NARROW"},
		{"mpeg", "VK_SAMPLER_YCBCR_RANGE_ITU_NARROW"},
		{"pc", "VK_SAMPLER_YCBCR_RANGE_ITU_FULL"},
		{"jpeg", "VK_SAMPLER_YCBCR_RANGE_ITU_FULL"},
		{"unknown", ""},
	} {
		r, _ := ParseRange(tc.ffmpeg)
		v, err := r.Vulkan()
		if tc.vulkan == "" {
			if err == nil || !strings.Contains(err.Error(), "resolve first") {
				t.Errorf("%s: %v, %v; want an error", tc.ffmpeg, v, err)
			}
		} else if err != nil || v.String() != tc.vulkan {
			t.Errorf("%s: %v, %v; want %s", tc.ffmpeg, v, err, tc.vulkan)
		}
	}
	if _, err := Range(7).Vulkan(); err == nil {
		t.Error("Range(7): no error")
	}
}

// TestChromaLocation is docs/ycbcr-math.md §7.3: positions (xpos, ypos)/256 and the offsets for
// 4:2:0, plus the 4:2:2 and 4:4:4 notes below that table.
func TestChromaLocation(t *testing.T) {
	const cos, mid, none = "VK_CHROMA_LOCATION_COSITED_EVEN", "VK_CHROMA_LOCATION_MIDPOINT", ""
	for _, tc := range []struct {
		loc        string
		xpos, ypos int // av_chroma_location_enum_to_pos, 256 = one luma sample
		x420, y420 string
	}{
		{"left", 0, 128, cos, mid},
		{"center", 128, 128, mid, mid},
		{"topleft", 0, 0, cos, cos},
		{"top", 128, 0, mid, cos},
		{"bottomleft", 0, 256, cos, none},
		{"bottom", 128, 256, mid, none},
	} {
		l, err := ParseChromaLocation(tc.loc)
		if err != nil {
			t.Fatal(err)
		}
		x, y, err := l.Position()
		if err != nil || x != float64(tc.xpos)/256 || y != float64(tc.ypos)/256 {
			t.Errorf("%s: Position %v,%v,%v; want %d/256,%d/256", tc.loc, x, y, err, tc.xpos, tc.ypos)
		}
		// 4:2:0
		ox, oy, err := l.Offsets(1, 1)
		if tc.y420 == none {
			if err == nil || !strings.Contains(err.Error(), "bottom chroma location has no Vulkan offset") {
				t.Errorf("%s 4:2:0: %v %v, err %v; want the bottom error", tc.loc, ox, oy, err)
			}
		} else if err != nil || ox.String() != tc.x420 || oy.String() != tc.y420 {
			t.Errorf("%s 4:2:0: %v %v %v; want %s %s", tc.loc, ox, oy, err, tc.x420, tc.y420)
		}
		// 4:2:2: only x matters, so every location (bottom ones too) is representable.
		ox, oy, err = l.Offsets(1, 0)
		if err != nil || ox.String() != tc.x420 || oy != CositedEven {
			t.Errorf("%s 4:2:2: %v %v %v; want %s and COSITED_EVEN", tc.loc, ox, oy, err, tc.x420)
		}
		// 4:4:4: neither matters.
		ox, oy, err = l.Offsets(0, 0)
		if err != nil || ox != CositedEven || oy != CositedEven {
			t.Errorf("%s 4:4:4: %v %v %v", tc.loc, ox, oy, err)
		}
	}
	for _, l := range []ChromaLocation{ChromaUnspecified, -1, 7, 99} {
		if _, _, err := l.Position(); err == nil {
			t.Errorf("%d: Position without error", int(l))
		}
		if _, _, err := l.Offsets(1, 1); err == nil {
			t.Errorf("%d: Offsets without error", int(l))
		}
	}
	if _, _, err := ChromaLeft.Offsets(2, 0); err == nil {
		t.Error("4:1:1: no error")
	}
	if _, _, err := ChromaLeft.Offsets(-1, 0); err == nil {
		t.Error("negative subsampling: no error")
	}
	if _, _, err := ChromaLeft.Offsets(64, 0); err == nil {
		t.Error("huge subsampling: no error")
	}
}

func TestResolve(t *testing.T) {
	u := UnspecifiedColor()
	given := Color{Matrix: MatrixBT2020NCL, Range: RangeFull, ChromaLocation: ChromaTopLeft, Primaries: PrimariesBT2020, Transfer: TransferSMPTE2084}
	for _, tc := range []struct {
		desc  string
		in    Color
		pf    string
		w, h  int
		want  Color
		notes []string // substrings, one per note, in order
	}{
		{"HD", u, "yuv420p", 1920, 1080,
			Color{Matrix: MatrixBT709, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"matrix unspecified: bt709 (width 1920 ≥ 1280)", "range unspecified: tv", "chroma location unspecified: left", "primaries unspecified: bt709", "transfer unspecified: bt709"}},
		{"720p", u, "nv12", 1280, 720,
			Color{Matrix: MatrixBT709, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"width 1280 ≥ 1280", "tv", "left", "bt709", "bt709"}},
		{"tall", u, "nv12", 1024, 600,
			Color{Matrix: MatrixBT709, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"matrix unspecified: bt709 (height 600 > 576)", "tv", "left", "bt709", "bt709"}},
		{"PAL", u, "yuv420p", 720, 576,
			Color{Matrix: MatrixSMPTE170M, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"matrix unspecified: smpte170m", "tv", "left", "bt709", "bt709"}},
		{"NTSC 10-bit", u, "yuv420p10le", 720, 480,
			Color{Matrix: MatrixSMPTE170M, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"smpte170m", "tv", "left", "bt709", "bt709"}},
		{"JPEG", u, "yuvj420p", 1920, 1080,
			Color{Matrix: MatrixSMPTE170M, Range: RangeFull, ChromaLocation: ChromaCenter, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"matrix unspecified: smpte170m (yuvj420p", "range unspecified: pc (yuvj420p is full range)", "chroma location unspecified: center (yuvj420p", "bt709", "bt709"}},
		{"yuvj forces full", Color{Matrix: MatrixBT470BG, Range: RangeLimited, ChromaLocation: ChromaCenter, Primaries: PrimariesBT709, Transfer: TransferBT709}, "yuvj422p", 640, 480,
			Color{Matrix: MatrixBT470BG, Range: RangeFull, ChromaLocation: ChromaCenter, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"range tv overridden: pc"}},
		{"gray", u, "gray10le", 1920, 1080,
			Color{Matrix: MatrixBT709, Range: RangeFull, ChromaLocation: ChromaCenter, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"bt709", "range unspecified: pc (gray", "center", "bt709", "bt709"}},
		{"4:4:4", u, "yuv444p", 3840, 2160,
			Color{Matrix: MatrixBT709, Range: RangeLimited, ChromaLocation: ChromaCenter, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"bt709", "tv", "chroma location unspecified: center (yuv444p is not subsampled", "bt709", "bt709"}},
		{"4:4:4 given", Color{Matrix: MatrixBT709, Range: RangeLimited, ChromaLocation: ChromaTopLeft, Primaries: PrimariesBT709, Transfer: TransferBT709}, "nv24", 3840, 2160,
			Color{Matrix: MatrixBT709, Range: RangeLimited, ChromaLocation: ChromaTopLeft, Primaries: PrimariesBT709, Transfer: TransferBT709}, nil},
		{"packed 4:2:2", u, "uyvy422", 720, 576,
			Color{Matrix: MatrixSMPTE170M, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"smpte170m", "tv", "left", "bt709", "bt709"}},
		{"all given", given, "p010le", 3840, 2160, given, nil},
		{"RGB stays, full range", Color{Matrix: MatrixRGB, Range: RangeUnspecified, ChromaLocation: ChromaUnspecified, Primaries: PrimariesBT709, Transfer: TransferIEC61966_2_1}, "yuv444p", 1920, 1080,
			Color{Matrix: MatrixRGB, Range: RangeFull, ChromaLocation: ChromaCenter, Primaries: PrimariesBT709, Transfer: TransferIEC61966_2_1},
			[]string{"range unspecified: pc (RGB", "center"}},
		{"zero Color", Color{}, "yuv420p", 1920, 1080,
			Color{Matrix: MatrixRGB, Range: RangeFull, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"range unspecified: pc (RGB", "left", "primaries reserved (0): bt709", "transfer reserved (0): bt709"}},
		{"invalid values", Color{Matrix: Matrix(99), Range: Range(9), ChromaLocation: ChromaLocation(-4), Primaries: Primaries(13), Transfer: Transfer(77)}, "nv12", 320, 240,
			Color{Matrix: MatrixSMPTE170M, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"matrix invalid (99): smpte170m", "range invalid (9): tv", "chroma location invalid (-4): left", "primaries invalid (13)", "transfer invalid (77)"}},
		{"reserved matrix", Color{Matrix: Matrix(3), Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709}, "nv12", 1920, 1080,
			Color{Matrix: MatrixBT709, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"matrix reserved (3): bt709"}},
		{"no pixel format", u, "", 0, 0,
			Color{Matrix: MatrixSMPTE170M, Range: RangeLimited, ChromaLocation: ChromaLeft, Primaries: PrimariesBT709, Transfer: TransferBT709},
			[]string{"smpte170m", "tv", "left", "bt709", "bt709"}},
	} {
		var pf *PixelFormat
		if tc.pf != "" {
			pf, _ = Lookup(tc.pf)
			if pf == nil {
				t.Fatalf("%s: no %s", tc.desc, tc.pf)
			}
		}
		got, notes := Resolve(tc.in, pf, tc.w, tc.h)
		if got != tc.want {
			t.Errorf("%s:\n got %v\nwant %v", tc.desc, got, tc.want)
		}
		if len(notes) != len(tc.notes) {
			t.Errorf("%s: notes %q, want %d", tc.desc, notes, len(tc.notes))
			continue
		}
		for i := range notes {
			if !strings.Contains(notes[i], tc.notes[i]) {
				t.Errorf("%s: note %q lacks %q", tc.desc, notes[i], tc.notes[i])
			}
		}
	}
}

// TestResolvedMapsToVulkan: after Resolve, every row with a sampler format gets a model, a range and
// offsets without error at common sizes (the defaults never pick something Vulkan cannot express).
func TestResolvedMapsToVulkan(t *testing.T) {
	for _, pf := range All() {
		for _, sz := range [][2]int{{1920, 1080}, {720, 576}, {3, 1}} {
			c, _ := Resolve(UnspecifiedColor(), pf, sz[0], sz[1])
			if _, err := c.Matrix.Model(); err != nil {
				t.Errorf("%s %v: %v", pf.Name, sz, err)
			}
			if _, err := c.Range.Vulkan(); err != nil {
				t.Errorf("%s %v: %v", pf.Name, sz, err)
			}
			if _, _, err := c.ChromaLocation.Offsets(pf.Log2ChromaW, pf.Log2ChromaH); err != nil {
				t.Errorf("%s %v: %v", pf.Name, sz, err)
			}
			if _, _, ok := c.Matrix.Coefficients(); !ok {
				t.Errorf("%s %v: no coefficients for %s", pf.Name, sz, c.Matrix)
			}
		}
	}
}

func ffmpegOutput(t *testing.T, args ...string) string {
	t.Helper()
	path, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Fatalf("ffmpeg not on PATH (installed by scripts/install-deps.sh): %v", err)
	}
	out, err := exec.Command(path, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestColorNamesMatchFFmpeg has FFmpeg print its own names: setparams sets each value on a frame and
// showinfo prints it with av_color_*_name. FFmpeg 5.1's setparams takes matrices up to 14 and has no
// chroma location, so those are checked against pixdesc.c's table as typed above.
func TestColorNamesMatchFFmpeg(t *testing.T) {
	type check struct {
		opt, key string
		values   []int
		name     func(int) string
	}
	checks := []check{
		{"colorspace", "color_space", nil, func(v int) string { return Matrix(v).String() }},
		{"range", "color_range", []int{0, 1, 2}, func(v int) string { return Range(v).String() }},
		{"color_primaries", "color_primaries", nil, func(v int) string { return Primaries(v).String() }},
		{"color_trc", "color_trc", nil, func(v int) string { return Transfer(v).String() }},
	}
	for v := 0; v <= 14; v++ {
		checks[0].values = append(checks[0].values, v)
	}
	for v := 0; v <= 12; v++ {
		checks[2].values = append(checks[2].values, v)
	}
	checks[2].values = append(checks[2].values, 22)
	for v := 0; v <= 18; v++ {
		checks[3].values = append(checks[3].values, v)
	}
	for _, c := range checks {
		graph := "color=s=16x16:d=0.04"
		for _, v := range c.values {
			graph += fmt.Sprintf(",setparams=%s=%d,showinfo", c.opt, v)
		}
		out := ffmpegOutput(t, "-hide_banner", "-nostats", "-f", "lavfi", "-i", graph, "-frames:v", "1", "-f", "null", "-")
		re := regexp.MustCompile(`\b` + c.key + `:(\S+)`)
		var got []string
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, "showinfo") {
				if m := re.FindStringSubmatch(line); m != nil {
					got = append(got, m[1])
				}
			}
		}
		if len(got) != len(c.values) {
			t.Fatalf("%s: %d showinfo lines for %d values:\n%s", c.opt, len(got), len(c.values), out)
		}
		for i, v := range c.values {
			if want := c.name(v); got[i] != want {
				t.Errorf("%s %d: FFmpeg says %q, String() %q", c.opt, v, got[i], want)
			}
		}
	}
}

// TestParseAcceptsFFmpegOptionNames: every constant FFmpeg's command line accepts for -colorspace,
// -color_range, -color_primaries, -color_trc, -chroma_sample_location (libavcodec) and for the
// setparams filter parses to the same value.
func TestParseAcceptsFFmpegOptionNames(t *testing.T) {
	parsers := map[string]func(string) (int, error){
		"colorspace":      func(s string) (int, error) { v, err := ParseMatrix(s); return int(v), err },
		"color_range":     func(s string) (int, error) { v, err := ParseRange(s); return int(v), err },
		"range":           func(s string) (int, error) { v, err := ParseRange(s); return int(v), err },
		"color_primaries": func(s string) (int, error) { v, err := ParsePrimaries(s); return int(v), err },
		"color_trc":       func(s string) (int, error) { v, err := ParseTransfer(s); return int(v), err },
		"chroma_sample_location": func(s string) (int, error) {
			v, err := ParseChromaLocation(s)
			return int(v), err
		},
	}
	optRe := regexp.MustCompile(`^\s+-?(\S+)\s+<int>\s+(\S+)`)
	constRe := regexp.MustCompile(`^\s{5}(\S+)\s+(-?\d+)\s+\S+`)
	scan := func(out string, wantFlags string) map[string]map[string]int {
		found := map[string]map[string]int{}
		cur := ""
		for _, line := range strings.Split(out, "\n") {
			if m := optRe.FindStringSubmatch(line); m != nil {
				cur = ""
				if _, ok := parsers[m[1]]; ok && strings.HasPrefix(m[2], wantFlags) && found[m[1]] == nil {
					cur = m[1]
					found[cur] = map[string]int{}
				}
				continue
			}
			if cur == "" {
				continue
			}
			if m := constRe.FindStringSubmatch(line); m != nil {
				v, _ := strconv.Atoi(m[2])
				found[cur][m[1]] = v
			} else {
				cur = ""
			}
		}
		return found
	}
	// libavcodec's AVCodecContext options: the first block of each with flags "ED.V".
	codec := scan(ffmpegOutput(t, "-hide_banner", "-h", "full"), "ED.V")
	filter := scan(ffmpegOutput(t, "-hide_banner", "-h", "filter=setparams"), "..FV")
	for _, opt := range []string{"colorspace", "color_range", "color_primaries", "color_trc", "chroma_sample_location"} {
		if len(codec[opt]) < 3 {
			t.Errorf("-%s: %d constants found in ffmpeg -h full", opt, len(codec[opt]))
		}
	}
	for _, opt := range []string{"colorspace", "range", "color_primaries", "color_trc"} {
		if len(filter[opt]) < 3 {
			t.Errorf("setparams %s: %d constants found", opt, len(filter[opt]))
		}
	}
	for _, src := range []map[string]map[string]int{codec, filter} {
		for opt, consts := range src {
			for name, want := range consts {
				if name == "auto" {
					continue // setparams' "keep the input's value", not a value
				}
				got, err := parsers[opt](name)
				if err != nil || got != want {
					t.Errorf("%s %q: parsed %d, %v; FFmpeg says %d", opt, name, got, err, want)
				}
			}
		}
	}
}
