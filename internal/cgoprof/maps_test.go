package cgoprof

import (
	"reflect"
	"testing"
)

// TestParseMaps: a fixed maps text (proc(5)'s layout: code, data, heap, an anonymous mapping, a
// torn line) gives its mappings, with their offsets and names; Exec picks the code.
func TestParseMaps(t *testing.T) {
	text := `55d0c0a00000-55d0c0b00000 r-xp 00002000 08:01 131 /usr/bin/ycbcrwall
55d0c0b00000-55d0c0b10000 rw-p 00102000 08:01 131 /usr/bin/ycbcrwall
55d0c1000000-55d0c1021000 rw-p 00000000 00:00 0 [heap]
7f0000000000-7f0000010000 r-xp 0001a000 08:01 42 /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
7f0000020000-7f0000030000 rw-p 00000000 00:00 0
7f00000400zz-7f0000050000 r-xp 00000000 00:00 0
`
	want := []Mapping{
		{Lo: 0x55d0c0a00000, Hi: 0x55d0c0b00000, Off: 0x2000, Perms: "r-xp", Path: "/usr/bin/ycbcrwall"},
		{Lo: 0x55d0c0b00000, Hi: 0x55d0c0b10000, Off: 0x102000, Perms: "rw-p", Path: "/usr/bin/ycbcrwall"},
		{Lo: 0x55d0c1000000, Hi: 0x55d0c1021000, Perms: "rw-p", Path: "[heap]"},
		{Lo: 0x7f0000000000, Hi: 0x7f0000010000, Off: 0x1a000, Perms: "r-xp", Path: "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"},
		{Lo: 0x7f0000020000, Hi: 0x7f0000030000, Perms: "rw-p"},
	}
	got := ParseMaps(text)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseMaps:\n got %+v\nwant %+v", got, want)
	}
	var names []string
	for _, m := range got {
		if m.Exec() {
			names = append(names, m.Name())
		}
	}
	if w := []string{"ycbcrwall", "libvulkan_lvp.so"}; !reflect.DeepEqual(names, w) {
		t.Errorf("executable mappings %q, want %q", names, w)
	}
	if n := got[4].Name(); n != "anon" {
		t.Errorf("anonymous mapping named %q", n)
	}
}
