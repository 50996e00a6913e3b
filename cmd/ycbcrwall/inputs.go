package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ycbcrkit/ycbcrkit/wall"
)

// readInputs reads a wall's list of inputs (-inputs FILE): one input a line, its URL (or path) and
// an optional label, the rest of the line ("udp://239.0.0.1:5000 Studio 2"); blank lines and lines
// starting with # are skipped. A relative path is taken from the list's folder, as playlists do.
// Errors name the file and line: "walls.txt:3: ...".
func readInputs(file string) ([]wall.Input, error) {
	f, err := os.Open(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("-inputs %s: %w", file, err)
	}
	defer f.Close()
	var out []wall.Input
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for n := 1; sc.Scan(); n++ {
		in, ok, err := parseInputLine(sc.Text(), filepath.Dir(file))
		if err != nil {
			return nil, fmt.Errorf("-inputs %s:%d: %w", file, n, err)
		}
		if ok {
			out = append(out, in)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("-inputs %s: %w", file, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-inputs %s: no input in it (one URL and an optional label a line)", file)
	}
	return out, nil
}

// parseInputLine reads one line of an inputs list; ok is false for a blank line or a comment.
func parseInputLine(line, dir string) (in wall.Input, ok bool, err error) {
	if !utf8.ValidString(line) {
		return in, false, errors.New("not UTF-8 text")
	}
	line = strings.TrimSpace(strings.TrimPrefix(line, "\uFEFF"))
	if line == "" || strings.HasPrefix(line, "#") {
		return in, false, nil
	}
	if i := strings.IndexFunc(line, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }); i >= 0 {
		return in, false, fmt.Errorf("a control character (%q) in the line", line[i])
	}
	url, label, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
	in.URL, in.Label = url, strings.Join(strings.Fields(label), " ")
	if strings.HasPrefix(url, "\"") || strings.HasPrefix(url, "'") {
		return in, false, fmt.Errorf("%s: quotes are not read (a URL has no spaces: write %%20; a path with spaces cannot be listed)", url)
	}
	if isURL(url) || strings.HasPrefix(url, "pipe:") {
		return in, true, nil
	}
	if !filepath.IsAbs(url) {
		in.URL = filepath.Join(dir, url)
	}
	if _, err := os.Stat(in.URL); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return in, false, fmt.Errorf("%s: %w", in.URL, err)
	}
	if in.Label == "" {
		in.Label = filepath.Base(url)
	}
	return in, true, nil
}

// isURL says whether s has a URL scheme (FFmpeg's protocols: udp://, rtsp://, https://...).
func isURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	if !ok || scheme == "" {
		return false
	}
	for _, r := range scheme {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
