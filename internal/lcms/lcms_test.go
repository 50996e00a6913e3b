package lcms

import (
	"strings"
	"testing"
)

// TestTransform checks the leaf against colours whose transforms are known: sRGB to itself keeps
// every colour, a profile with red and green swapped swaps them, and sRGB white stays white in a
// wider gamut of the same white.
func TestTransform(t *testing.T) {
	srgb, err := SRGB()
	if err != nil {
		t.Skip(err) // liblcms2 not installed
	}
	defer srgb.Close()
	d65 := XY{0.3127, 0.3290}
	swapped, err := NewRGB(d65, XY{0.30, 0.60}, XY{0.64, 0.33}, XY{0.15, 0.06}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer swapped.Close()
	// Round trip through the profile's bytes, as a file is read.
	b, err := swapped.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	read, err := Open(b)
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()

	in := []uint16{65535, 0, 0, 0, 65535, 0, 30000, 20000, 10000, 65535, 65535, 65535}
	for _, c := range []struct {
		name string
		dst  *Profile
		want []uint16
	}{
		{"sRGB to sRGB", srgb, in},
		{"sRGB to red-green swapped", read, []uint16{0, 65535, 0, 65535, 0, 0, 20000, 30000, 10000, 65535, 65535, 65535}},
	} {
		tr, err := NewTransform(srgb, c.dst, RelativeColorimetric)
		if err != nil {
			t.Fatal(c.name, err)
		}
		out := make([]uint16, len(in))
		tr.Do(in, out)
		tr.Close()
		for i := range out {
			if d := int(out[i]) - int(c.want[i]); d < -64 || d > 64 { // 1/1000
				t.Errorf("%s: sample %d is %d, want %d", c.name, i, out[i], c.want[i])
			}
		}
	}

	if _, err := Open([]byte("not a profile at all, just text")); err == nil || !strings.HasPrefix(err.Error(), "lcms: not an ICC profile") {
		t.Errorf("garbage: %v", err)
	}
}
