package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputsFile: -inputs reads a wall's list (URLs or paths, a path taken from the list's folder,
// optional labels, # comments, blank lines) after the FILEs of the command line, and each tile is
// named by its label (-stats' input).
func TestInputsFile(t *testing.T) {
	dir := t.TempDir()
	media, err := filepath.Abs(mediaDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(media, "yuv420p_left.mkv"), filepath.Join(dir, "left.mkv")); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "wall.txt")
	body := "# studio wall\n\n" +
		filepath.Join(media, "yuv420p_topleft.mkv") + "   Studio  2 \n" +
		"\t# the left camera, by a path from this folder\n" +
		"left.mkv\tCam\tLeft\n" +
		filepath.Join(media, "yuv420p_center.mkv") + "\n"
	if err := os.WriteFile(list, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	st, stderr := wallRun(t, "-untimed", "-frames", "1", "-stats", "-inputs", list, filepath.Join(mediaDir, "yuv444p.mkv"))
	var names []string
	for _, s := range st.PerStream {
		names = append(names, s.Input)
	}
	if want := "yuv444p.mkv|Studio 2|Cam Left|yuv420p_center.mkv"; strings.Join(names, "|") != want || st.Frames != 4 {
		t.Errorf("tiles %q, %d pictures; want %q, one picture each (stderr %q)", names, st.Frames, want, stderr)
	}
}

// TestInputsFileErrors: a missing list, a list without inputs and a bad line each end the program
// with one error line naming the list (and the line), exit status 1, before any device is opened.
func TestInputsFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	clip, _ := filepath.Abs(filepath.Join(mediaDir, "yuv420p_left.mkv"))
	for _, c := range []struct{ list, want string }{
		{filepath.Join(dir, "none.txt"), "error: -inputs " + filepath.Join(dir, "none.txt") + ": no such file or directory"},
		{write("empty.txt", "# nothing yet\n\n   \n"), "error: -inputs " + filepath.Join(dir, "empty.txt") + ": no input in it"},
		{write("bad.txt", clip+" A\n\n"+"gone.mkv B\n"), "error: -inputs " + filepath.Join(dir, "bad.txt") + ":3: " + filepath.Join(dir, "gone.mkv") + ": no such file or directory"},
		{write("quoted.txt", "\"my clip.mkv\" A\n"), "error: -inputs " + filepath.Join(dir, "quoted.txt") + ":1: \"my: quotes are not read"},
		{write("binary.txt", "udp://127.0.0.1:5000 A\x01B\n"), "error: -inputs " + filepath.Join(dir, "binary.txt") + ":1: a control character"},
	} {
		var o, e bytes.Buffer
		code := run([]string{"-headless", "-inputs", c.list}, &o, &e)
		if code != 1 || !strings.HasPrefix(e.String(), c.want) || strings.Count(e.String(), "\n") != 1 || o.Len() != 0 {
			t.Errorf("-inputs %s: exit %d, stderr %q; want 1 and one line %q…", filepath.Base(c.list), code, e.String(), c.want)
		}
	}
	// A list and FILEs: a FILE alone still works, and neither is an error of its own.
	var o, e bytes.Buffer
	if code := run([]string{"-headless"}, &o, &e); code != 1 || !strings.HasPrefix(e.String(), "error: no FILE") {
		t.Errorf("no FILE, no -inputs: exit %d, %q", code, e.String())
	}
}
