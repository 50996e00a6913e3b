// Package media embeds the bundled default clip, so that ycbcrplay plays something from any
// directory. The other files here are test vectors made by ../make.sh (see ../README.md).
package media

import (
	_ "embed"
	"fmt"
	"os"
)

// DefaultClip is default.mkv: a few seconds of H.264 with real motion (see ../README.md).
//
//go:embed default.mkv
var DefaultClip []byte

// DefaultClipFile writes DefaultClip to a new temporary file, program-default-*.mkv, for a program
// that plays files, and returns its path; the caller removes it.
func DefaultClipFile(program string) (string, error) {
	f, err := os.CreateTemp("", program+"-default-*.mkv")
	if err != nil {
		return "", fmt.Errorf("the default clip: %w", err)
	}
	_, err = f.Write(DefaultClip)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write the default clip: %w", err)
	}
	return f.Name(), nil
}
