package pictest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/soundtest"
)

// Debian's ffmpeg and ffprobe make the tests' clips and read what the vectors carry; each start
// loads 214 libraries (0.13-0.25 CPU-s) before it encodes (decode's binary: 46 starts, 11 of its
// 23 CPU-s). What they write depends only on the program, its arguments and its input files, so it
// is kept in KeptDir under a hash of the three (keptKey), as cmd/ycbcrplay keeps its robustness
// corpus, and a later run (the same binary's, the race build's, another package's) copies it
// instead. A changed file or argument, or another ffmpeg, is a new key.
var KeptDir = filepath.Join(os.TempDir(), "ycbcrkit-ffmpeg")

// FFmpegMake runs Debian's ffmpeg quietly with args, whose last is the file it writes, or copies
// that file from an identical earlier run. HLS (segments beside the playlist) runs every time.
func FFmpegMake(t testing.TB, args ...string) {
	t.Helper()
	args = append([]string{"-hide_banner", "-nostdin", "-loglevel", "error", "-y"}, args...)
	out := args[len(args)-1]
	if slices.Contains(args, "hls") {
		runTool(t, "ffmpeg", args...)
		return
	}
	key := keptKey(t, "ffmpeg", args[:len(args)-1], filepath.Base(out))
	if b, err := os.ReadFile(filepath.Join(KeptDir, key)); err == nil {
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	runTool(t, "ffmpeg", args...)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	keep(key, b)
}

// KeptOutput returns what name (Debian's ffprobe, say) writes to stdout with args, or what an
// identical earlier run wrote.
func KeptOutput(t testing.TB, name string, args ...string) []byte {
	t.Helper()
	key := keptKey(t, name, args, "")
	if b, err := os.ReadFile(filepath.Join(KeptDir, key)); err == nil {
		return b
	}
	b := runTool(t, name, args...)
	keep(key, b)
	return b
}

// runTool runs a program with a time limit and returns its stdout (soundtest.Run).
func runTool(t testing.TB, name string, args ...string) []byte {
	t.Helper()
	return soundtest.Run(t, 30*time.Second, name, args...)
}

// keptKey is the hash of the program (its path, size and modification time: Debian replaces the
// program with its libraries, one source package), args (one that names a file: its name and
// contents, not its folder, a test's temporary one) and the output's name (its extension picks the
// muxer).
func keptKey(t testing.TB, name string, args []string, outName string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s %d %d\n%q\n", path, fi.Size(), fi.ModTime().UnixNano(), outName)
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.Mode().IsRegular() {
			fmt.Fprintf(h, "%q\n", a)
			continue
		}
		b, err := os.ReadFile(a)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "file %q %d\n", filepath.Base(a), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// keep keeps b under key in KeptDir (KeepFile).
func keep(key string, b []byte) { KeepFile(KeptDir, key, b) }

// KeepFile writes b to dir/name whole or not at all (a temporary file renamed: test binaries read
// and write side by side), making dir; a failure only loses what keeping it would save.
func KeepFile(dir, name string, b []byte) {
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(dir, name)) != nil {
		os.Remove(f.Name())
	}
}
