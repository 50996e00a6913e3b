package formats

import (
	"math"
	"strings"
	"testing"
)

// Fuzz targets for the package's parsers and mappings. `go test` runs their seed corpora (real
// values) as ordinary tests; scripts/fuzz.sh runs each with the fuzzing engine for a few seconds.

// names is every name and alias the parsers know: the seeds, and the values the round trips check.
func allNames() []string {
	var out []string
	for _, ns := range [][]string{matrixNames, rangeNames, chromaNames, primNames, transferNames} {
		out = append(out, ns...)
	}
	for _, as := range []map[string]int{matrixAliases, rangeAliases, chromaAliases, primAliases, transAliases} {
		for a := range as {
			out = append(out, a)
		}
	}
	return out
}

// FuzzParse: any string either parses to a valid value whose String() parses back to the same value,
// or gives a one-line error and the type's unspecified value. Never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range allNames() {
		f.Add(s)
	}
	for _, s := range []string{"", " BT709 ", "reserved", "Matrix(3)", "bt2020_NCL", "tv\n", "\xff\xfe", "unknown\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		type parser struct {
			what        string
			parse       func(string) (int, string, error)
			unspecified int
			names       []string
		}
		parsers := []parser{
			{"matrix", func(s string) (int, string, error) { v, err := ParseMatrix(s); return int(v), v.String(), err }, 2, matrixNames},
			{"range", func(s string) (int, string, error) { v, err := ParseRange(s); return int(v), v.String(), err }, 0, rangeNames},
			{"chroma", func(s string) (int, string, error) { v, err := ParseChromaLocation(s); return int(v), v.String(), err }, 0, chromaNames},
			{"primaries", func(s string) (int, string, error) { v, err := ParsePrimaries(s); return int(v), v.String(), err }, 2, primNames},
			{"transfer", func(s string) (int, string, error) { v, err := ParseTransfer(s); return int(v), v.String(), err }, 2, transferNames},
		}
		for _, p := range parsers {
			v, name, err := p.parse(s)
			if err != nil {
				if v != p.unspecified {
					t.Errorf("%s %q: error %v with value %d, want the unspecified value %d", p.what, s, err, v, p.unspecified)
				}
				if strings.Count(err.Error(), "\n") > 0 && !strings.Contains(s, "\n") {
					t.Errorf("%s %q: error is not one line: %q", p.what, s, err)
				}
				continue
			}
			if !valid(p.names, v) && v != p.unspecified {
				t.Errorf("%s %q: parsed to %d, which is not a valid value", p.what, s, v)
			}
			back, _, err := p.parse(name)
			if err != nil || back != v {
				t.Errorf("%s %q → %d → %q → %d, %v: no round trip", p.what, s, v, name, back, err)
			}
		}
	})
}

// FuzzMappings: for any integer value of each metadata type, String never panics and round-trips
// through Parse when the value is valid; Model, Coefficients, Vulkan, Position and Offsets (with any
// subsampling) either give an in-range answer or an error, never a panic.
func FuzzMappings(f *testing.F) {
	for v := -2; v < 24; v++ {
		f.Add(v, 1, 1)
	}
	f.Add(math.MaxInt, 0, 0)
	f.Add(math.MinInt, 2, -1)
	f.Add(3, 63, 64)
	f.Add(6, -64, 1)
	f.Fuzz(func(t *testing.T, v, lw, lh int) {
		m, r, l, p, tr := Matrix(v), Range(v), ChromaLocation(v), Primaries(v), Transfer(v)
		_ = m.String() + r.String() + l.String() + p.String() + tr.String()
		if valid(matrixNames, v) {
			if back, err := ParseMatrix(m.String()); err != nil || back != m {
				t.Errorf("matrix %d → %q → %d, %v", v, m, back, err)
			}
		}
		if valid(rangeNames, v) {
			if back, err := ParseRange(r.String()); err != nil || back != r {
				t.Errorf("range %d → %q → %d, %v", v, r, back, err)
			}
		}
		if valid(chromaNames, v) {
			if back, err := ParseChromaLocation(l.String()); err != nil || back != l {
				t.Errorf("chroma %d → %q → %d, %v", v, l, back, err)
			}
		}
		if valid(primNames, v) {
			if back, err := ParsePrimaries(p.String()); err != nil || back != p {
				t.Errorf("primaries %d → %q → %d, %v", v, p, back, err)
			}
		}
		if valid(transferNames, v) {
			if back, err := ParseTransfer(tr.String()); err != nil || back != tr {
				t.Errorf("transfer %d → %q → %d, %v", v, tr, back, err)
			}
		}
		if model, err := m.Model(); err == nil && model > ModelYCbCr2020 {
			t.Errorf("matrix %d: model %d out of range", v, model)
		}
		if kr, kb, ok := m.Coefficients(); ok && (kr <= 0 || kb <= 0 || kr+kb >= 1) {
			t.Errorf("matrix %d: Kr %v Kb %v", v, kr, kb)
		}
		if vr, err := r.Vulkan(); err == nil && vr != RangeITUNarrow && vr != RangeITUFull {
			t.Errorf("range %d: %d", v, vr)
		}
		x, y, err := l.Position()
		if err == nil && (x < 0 || x > 1 || y < 0 || y > 1) {
			t.Errorf("chroma %d: position %v,%v", v, x, y)
		}
		ox, oy, err := l.Offsets(lw, lh)
		if err == nil && ((ox != CositedEven && ox != Midpoint) || (oy != CositedEven && oy != Midpoint)) {
			t.Errorf("chroma %d with subsampling %d,%d: offsets %d,%d", v, lw, lh, ox, oy)
		}
	})
}

// FuzzResolve: for any metadata values, any table layout (or nil, or a made-up one) and any size,
// including zero and negative, Resolve returns fully specified, valid metadata; keeps every field
// that was given and valid (except a yuvj layout's range); writes one note per field it changed; and
// is idempotent.
func FuzzResolve(f *testing.F) {
	all := All()
	for i := range all {
		f.Add(2, 0, 0, 2, 2, i, 0, 64, 48)
		f.Add(1, 1, 1, 1, 1, i, 0, 1920, 1080)
	}
	f.Add(3, 3, 7, 0, 3, -1, 0, 0, 0)          // reserved and invalid values, nil layout
	f.Add(-5, -1, -1, -1, -1, 1000, 7, -1, -1) // made-up layout, negative sizes
	f.Add(math.MaxInt, math.MinInt, 99, 13, 19, 2, 3, math.MaxInt, math.MinInt)
	f.Fuzz(func(t *testing.T, m, r, l, p, tr, layout, flags, w, h int) {
		c := Color{Matrix: Matrix(m), Range: Range(r), ChromaLocation: ChromaLocation(l), Primaries: Primaries(p), Transfer: Transfer(tr)}
		var pf *PixelFormat
		switch {
		case layout >= 0 && layout < len(all):
			pf = all[layout]
		case layout >= len(all):
			// A layout outside the table: any subsampling, gray and full-range flags.
			pf = &PixelFormat{Name: "made-up", Log2ChromaW: flags % 5, Log2ChromaH: (flags / 5) % 5,
				Gray: flags&64 != 0, FullRange: flags&128 != 0}
		}
		got, notes := Resolve(c, pf, w, h)
		if !valid(matrixNames, int(got.Matrix)) || got.Matrix == MatrixUnspecified ||
			(got.Range != RangeLimited && got.Range != RangeFull) ||
			!valid(chromaNames, int(got.ChromaLocation)) || got.ChromaLocation == ChromaUnspecified ||
			!valid(primNames, int(got.Primaries)) || got.Primaries == PrimariesUnspecified ||
			!valid(transferNames, int(got.Transfer)) || got.Transfer == TransferUnspecified {
			t.Fatalf("Resolve(%v) = %v: not fully specified", c, got)
		}
		yuvj := pf != nil && pf.FullRange
		changed := 0
		for _, f := range []struct {
			name      string
			in, out   int
			names     []string
			unspec    int
			overrides bool
		}{
			{"matrix", m, int(got.Matrix), matrixNames, 2, false},
			{"range", r, int(got.Range), rangeNames, 0, yuvj},
			{"chroma", l, int(got.ChromaLocation), chromaNames, 0, false},
			{"primaries", p, int(got.Primaries), primNames, 2, false},
			{"transfer", tr, int(got.Transfer), transferNames, 2, false},
		} {
			if f.in != f.out {
				changed++
				if valid(f.names, f.in) && f.in != f.unspec && !f.overrides {
					t.Errorf("Resolve changed the given, valid %s %d to %d", f.name, f.in, f.out)
				}
			}
		}
		if len(notes) != changed {
			t.Errorf("Resolve(%v) changed %d fields with %d notes: %q", c, changed, len(notes), notes)
		}
		if again, n2 := Resolve(got, pf, w, h); again != got || len(n2) != 0 {
			t.Errorf("Resolve is not idempotent: %v → %v with %q", got, again, n2)
		}
	})
}

// FuzzFrameCodes: in a fresh frame of any table layout and a small size, SetCode then Code of any
// in-range sample returns the code, and leaves every other sample of every channel untouched.
func FuzzFrameCodes(f *testing.F) {
	all := All()
	for i := range all {
		f.Add(i, 7, 5, uint8(0), 3, 2, uint16(0xffff))
		f.Add(i, 1, 1, uint8(2), 0, 0, uint16(0x2aa))
	}
	f.Fuzz(func(t *testing.T, layout, w, h int, ch uint8, x, y int, code uint16) {
		if layout < 0 || layout >= len(all) || w < 1 || h < 1 || w > 33 || h > 33 {
			return
		}
		pf := all[layout]
		c := Channel(ch % 3)
		if c != Y && !pf.HasChroma() {
			return
		}
		fr, err := NewFrame(pf, w, h)
		if err != nil {
			t.Fatal(err)
		}
		cw, chh := fr.ChannelSize(c)
		if x < 0 || y < 0 || x >= cw || y >= chh {
			return
		}
		code &= uint16(1<<uint(pf.Depth) - 1)
		fr.SetCode(c, x, y, code)
		if got := fr.Code(c, x, y); got != code {
			t.Fatalf("%s %dx%d: %s(%d,%d) = %#x after SetCode(%#x)", pf.Name, w, h, c, x, y, got, code)
		}
		for oc := Y; oc <= Cr; oc++ {
			if oc != Y && !pf.HasChroma() {
				continue
			}
			ow, oh := fr.ChannelSize(oc)
			for yy := 0; yy < oh; yy++ {
				for xx := 0; xx < ow; xx++ {
					if (oc != c || xx != x || yy != y) && fr.Code(oc, xx, yy) != 0 {
						t.Fatalf("%s %dx%d: SetCode(%s,%d,%d) also changed %s(%d,%d)", pf.Name, w, h, c, x, y, oc, xx, yy)
					}
				}
			}
		}
	})
}
