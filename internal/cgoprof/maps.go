package cgoprof

import (
	"os"
	"strconv"
	"strings"
)

// A Mapping is one line of /proc/self/maps (proc(5)): the addresses [Lo, Hi), the permissions
// ("r-xp" for code), the file offset Lo maps and the file's path ("" when anonymous).
type Mapping struct {
	Lo, Hi, Off uintptr
	Perms, Path string
}

// Exec reports whether the mapping holds code.
func (m Mapping) Exec() bool { return strings.HasPrefix(m.Perms, "r-x") }

// Name is the mapping's file name without its folder ("anon" when anonymous; "[heap]" and the
// like as they are).
func (m Mapping) Name() string {
	if m.Path == "" {
		return "anon"
	}
	return m.Path[strings.LastIndexByte(m.Path, '/')+1:]
}

// ReadMaps reads the process's mappings. Both the profile's
// traceback table (refresh) and the wall's wait sampler (which library a sleeping thread's caller
// is in) read them here.
func ReadMaps() ([]Mapping, error) {
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return nil, err
	}
	return ParseMaps(string(b)), nil
}

// ParseMaps parses the text of a maps file, passing over lines it cannot read.
func ParseMaps(text string) []Mapping {
	var ms []Mapping
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) < 5 {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		a, err1 := strconv.ParseUint(lo, 16, 64)
		z, err2 := strconv.ParseUint(hi, 16, 64)
		off, err3 := strconv.ParseUint(f[2], 16, 64)
		if !ok || err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		m := Mapping{Lo: uintptr(a), Hi: uintptr(z), Off: uintptr(off), Perms: f[1]}
		if len(f) > 5 {
			m.Path = f[5]
		}
		ms = append(ms, m)
	}
	return ms
}
