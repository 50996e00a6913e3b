package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func TestFormatProgress(t *testing.T) {
	for _, c := range []struct {
		pos, dur float64
		frames   int
		elapsed  time.Duration
		want     string
	}{
		{62.5, 180, 1500, 30 * time.Second, "1:02.5 / 3:00.0  1500 frames  50.0 fps"},
		{0, 0, 0, 0, "0:00.0  0 frames"},
		{3725.04, 7200, 12, 4 * time.Second, "1:02:05.0 / 2:00:00.0  12 frames  3.0 fps"},
		{59.96, 0, 7, time.Second, "1:00.0  7 frames  7.0 fps"},
	} {
		if got := formatProgress(c.pos, c.dur, c.frames, c.elapsed); got != c.want {
			t.Errorf("formatProgress(%v, %v, %d, %v) = %q, want %q", c.pos, c.dur, c.frames, c.elapsed, got, c.want)
		}
	}
}

// TestProgressThrottleAndClear: nothing in the first progressAfter, then at most one line per
// progressEvery, each rewritten in place with \r and padded over a longer previous one; clear
// blanks it.
func TestProgressThrottleAndClear(t *testing.T) {
	var b bytes.Buffer
	t0 := time.Unix(1000, 0)
	p := &progress{w: &b, duration: 100, start: t0}
	p.frame(10, 0.4, t0.Add(500*time.Millisecond))
	if b.Len() != 0 {
		t.Fatalf("a line before progressAfter: %q", b.String())
	}
	for i := 0; i <= 20; i++ { // 2 s at 10 ms per frame
		p.frame(100+i, 4+float64(i)/100, t0.Add(time.Second+time.Duration(i)*100*time.Millisecond))
	}
	lines := strings.Split(b.String(), "\r")[1:]
	if len(lines) < 6 || len(lines) > 9 {
		t.Errorf("%d updates in 2 s, want one per %v:\n%q", len(lines), progressEvery, b.String())
	}
	if !strings.HasPrefix(lines[0], "0:04.0 / 1:40.0  100 frames  100.0 fps") || strings.Contains(b.String(), "\n") {
		t.Errorf("lines %q", lines)
	}
	b.Reset()
	p.clear()
	if got := b.String(); got != "\r"+strings.Repeat(" ", len(lines[len(lines)-1]))+"\r" {
		t.Errorf("clear wrote %q", got)
	}
	b.Reset()
	p.clear()
	var none *progress
	none.frame(1, 1, t0.Add(time.Hour))
	none.clear()
	if b.Len() != 0 {
		t.Errorf("second clear wrote %q", b.String())
	}
}

// TestProgressOnlyOnTerminal: a pipe, a regular file or a buffer gets no status line; a character
// device (what a terminal is) does.
func TestProgressOnlyOnTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(t.TempDir() + "/err")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, out := range map[string]io.Writer{"pipe": w, "file": f, "buffer": &bytes.Buffer{}} {
		if p := newProgress(out, 10, time.Now()); p != nil {
			t.Errorf("%s: a status line", name)
		}
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if newProgress(null, 10, time.Now()) == nil {
		t.Errorf("%s, a character device: no status line", os.DevNull)
	}
}

// TestHeadlessPipeGetsNoProgress plays the default clip headless with stderr a pipe, a line
// allowed at every frame: the pipe gets no carriage return.
func TestHeadlessPipeGetsNoProgress(t *testing.T) {
	every, after := progressEvery, progressAfter
	progressEvery, progressAfter = 0, 0
	defer func() { progressEvery, progressAfter = every, after }()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); got <- b }()
	var stdout bytes.Buffer
	code := run([]string{"-headless", "-frames", "10", "-untimed"}, &stdout, w)
	w.Close()
	errOut := <-got
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if bytes.ContainsRune(errOut, '\r') || strings.Contains(string(errOut), "frames") {
		t.Errorf("the pipe got a status line: %q", errOut)
	}
}
