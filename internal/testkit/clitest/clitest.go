package clitest

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
)

// Run is a program's whole command: arguments, stdout, stderr, exit status.
type Run func(args []string, stdout, stderr io.Writer) int

// Check runs the conventions against run.
func Check(t *testing.T, run Run) {
	t.Helper()
	call := func(args ...string) (int, string, string) {
		var o, e bytes.Buffer
		code := run(args, &o, &e)
		return code, o.String(), e.String()
	}
	for _, h := range []string{"-h", "-help", "--help"} {
		code, out, errOut := call(h)
		if code != 0 || !strings.Contains(strings.ToLower(out), "usage") || errOut != "" {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q: want exit 0 and the usage on stdout", h, code, len(out), errOut)
		}
	}
	for _, bad := range [][]string{{"-no-such-flag"}, {"--bogus=1"}, {"-device", "notanumber"}} {
		code, out, errOut := call(bad...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "error: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q: want exit 2 and one error line", bad, code, out, errOut)
		}
	}
	code, out, errOut := call("-validate", "-device", "-1", "-list-devices")
	if code != 0 || !strings.HasPrefix(out, "0: ") {
		t.Errorf("-validate -device -1 -list-devices: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// Buffer is an io.Writer that a test reads (String) while a command writes it, from its process's
// output or its own goroutines.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
