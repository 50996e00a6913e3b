// Package watchlater keeps playback positions per file between runs as mpv's watch_later does
// (mpv's manual, --save-position-on-quit and --watch-later-dir): one small file per input, named by
// the upper-case hexadecimal MD5 of the input's path made absolute against the current folder (a
// URL as it is), holding "start=SECONDS" in mpv's config syntax. Files that mpv wrote can be read.
package watchlater

import (
	"bufio"
	"crypto/md5"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Dir is where positions are kept: $XDG_STATE_HOME/ycbcrkit/watch_later, else
// ~/.local/state/ycbcrkit/watch_later (the XDG Base Directory Specification's default, as mpv
// uses it for its own). "" when neither can be told.
func Dir() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "ycbcrkit", "watch_later")
}

// urlPrefix is mpv's mp_is_url: a protocol name followed by "://".
var urlPrefix = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9.+-]*://`)

// Name is the file name kept for the input at path: the MD5 of what mpv hashes (a URL as given; a
// path joined to the current folder unless absolute, without cleaning, as mpv's mp_path_join),
// in upper-case hexadecimal.
func Name(path string) (string, error) {
	key := path
	if !urlPrefix.MatchString(path) && !filepath.IsAbs(path) {
		cwd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("watch_later: %w", err)
		}
		key = strings.TrimSuffix(cwd, "/") + "/" + path
	}
	return fmt.Sprintf("%X", md5.Sum([]byte(key))), nil
}

// Save keeps pos (seconds) for the input at path in dir, with the path on a comment line for
// people looking at the folder (as mpv's write-filename-in-watch-later-config).
func Save(dir, path string, pos float64) error {
	name, err := Name(path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("watch_later: %w", err)
	}
	text := fmt.Sprintf("# %s\nstart=%f\n", strings.ReplaceAll(path, "\n", " "), pos)
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("watch_later: %w", err)
	}
	_, werr := tmp.WriteString(text)
	cerr := tmp.Close()
	if werr == nil && cerr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("watch_later: save %s: %w", path, errors.Join(werr, cerr))
	}
	return nil
}

// Load returns the position kept for the input at path in dir; ok is false when there is none.
func Load(dir, path string) (pos float64, ok bool, err error) {
	name, err := Name(path)
	if err != nil {
		return 0, false, err
	}
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("watch_later: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, found := strings.CutPrefix(strings.TrimSpace(sc.Text()), "start=")
		if !found {
			continue
		}
		p, err := strconv.ParseFloat(strings.Trim(v, `"`), 64)
		if err != nil || p < 0 || p != p {
			return 0, false, fmt.Errorf("watch_later: %s: bad start=%q", filepath.Join(dir, name), v)
		}
		pos, ok = p, true
	}
	if err := sc.Err(); err != nil {
		return 0, false, fmt.Errorf("watch_later: %w", err)
	}
	return pos, ok, nil
}

// Delete forgets the position kept for the input at path (mpv removes it once it has resumed).
func Delete(dir, path string) error {
	name, err := Name(path)
	if err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("watch_later: %w", err)
	}
	return nil
}
