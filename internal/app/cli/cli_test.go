package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

func TestFailIsOneLine(t *testing.T) {
	var b bytes.Buffer
	if got := Fail(&b, 2, "open %q: %v", "a\nb.mkv", errors.New("no such file")); got != 2 {
		t.Errorf("status %d, want 2", got)
	}
	if want := "error: open \"a\\nb.mkv\": no such file\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	Fail(&b, 1, "%v", errors.New("first\nsecond"))
	if want := "error: first second\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestParse(t *testing.T) {
	newFS := func() (*flag.FlagSet, *int) {
		fs := flag.NewFlagSet("prog", flag.ContinueOnError)
		return fs, fs.Int("n", 1, "how many `N`")
	}
	var out, errOut bytes.Buffer
	fs, n := newFS()
	if status, done := Parse(fs, []string{"-n", "3", "x"}, "help\n", &out, &errOut); done || status != 0 || *n != 3 || fs.Arg(0) != "x" {
		t.Errorf("-n 3 x: status %d, done %v, n %d, args %q", status, done, *n, fs.Args())
	}
	fs, _ = newFS()
	if status, done := Parse(fs, []string{"-h"}, "help\n", &out, &errOut); !done || status != 0 ||
		!strings.HasPrefix(out.String(), "help\n") || !strings.Contains(out.String(), "-n N") || errOut.Len() != 0 {
		t.Errorf("-h: status %d, done %v, stdout %q, stderr %q", status, done, out.String(), errOut.String())
	}
	out.Reset()
	fs, _ = newFS()
	if status, done := Parse(fs, []string{"-bogus"}, "help\n", &out, &errOut); !done || status != 2 || out.Len() != 0 ||
		errOut.String() != "error: flag provided but not defined: -bogus (prog -h lists the flags)\n" {
		t.Errorf("-bogus: status %d, done %v, stdout %q, stderr %q", status, done, out.String(), errOut.String())
	}
}

func TestParseMixed(t *testing.T) {
	fs := flag.NewFlagSet("prog", flag.ContinueOnError)
	n := fs.Int("n", 1, "")
	rest, err := ParseMixed(fs, []string{"a", "-n", "2", "b", "-", "c"})
	if err != nil || *n != 2 || strings.Join(rest, ",") != "a,b,-,c" {
		t.Errorf("got %q, n %d, %v", rest, *n, err)
	}
	if _, err := ParseMixed(fs, []string{"a", "-h"}); err != flag.ErrHelp {
		t.Errorf("-h after a file: %v, want flag.ErrHelp", err)
	}
}

func TestCommand(t *testing.T) {
	got := Command("ycbcrbench", []string{"-sizes", "64x36", "-formats", "", "a b", `x"y`})
	if want := `ycbcrbench -sizes 64x36 -formats "" "a b" "x\"y"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
