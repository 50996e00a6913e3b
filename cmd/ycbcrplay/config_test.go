package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseConf: mpv.conf's syntax (mpv's manual, "Configuration Files"): comments, name=value,
// a name alone, quoted values keeping # and spaces, [profile] sections, [default] back at the top.
func TestParseConf(t *testing.T) {
	text := `# a comment
speed=1.5
  fs   # a flag alone, a comment after it
screenshot="/tmp/a b#c.png"  # quoted: the # is the value's
scale='bilinear'
volume = 40 # spaces around = and a comment

[slow]
profile-desc="half speed"
speed=0.5
[default]
frames=3
`
	c, err := parseConf("x.conf", text)
	if err != nil {
		t.Fatal(err)
	}
	want := []confLine{
		{2, "speed", "1.5", true}, {3, "fs", "", false}, {4, "screenshot", "/tmp/a b#c.png", true},
		{5, "scale", "bilinear", true}, {6, "volume", "40", true}, {12, "frames", "3", true},
	}
	if !reflect.DeepEqual(c.top, want) {
		t.Errorf("top level:\n got %+v\nwant %+v", c.top, want)
	}
	if p := c.profiles["slow"]; !reflect.DeepEqual(p, []confLine{{9, "profile-desc", "half speed", true}, {10, "speed", "0.5", true}}) {
		t.Errorf("[slow]: %+v", p)
	}
	for _, bad := range []struct{ text, want string }{
		{"a=1\n[open\n", "x.conf:2: a section header needs its ]"},
		{"-fs\n", "x.conf:1: bad option name \"-fs\""},
		{"\n\nscreenshot=\"x.png\n", "x.conf:3: screenshot: no closing \""},
		{"[]\n", "x.conf:1: an empty section name"},
	} {
		if _, err := parseConf("x.conf", bad.text); err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q…", bad.text, err, bad.want)
		}
	}
}

// writeConf writes text as a config file in a new folder and returns its path.
func writeConf(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ycbcrplay.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWithConfig: the file's options come before the command line (which so wins), each profile
// asked for after the top level; yes/no for flags without a value; -no-config reads nothing; an
// unknown option, a bad value and a missing profile are one error naming the file and line.
func TestWithConfig(t *testing.T) {
	path := writeConf(t, "speed=2\nfs=yes\nheadless=no\n[one]\nframes=1\nprofile=two\n[two]\nvolume=30\n[bad]\nframes=-1\n")
	got, err := withConfig([]string{"-config", path, "-profile", "one", "-speed", "3", "x.mkv"}, parseProbe{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-speed=2", "-fs=true", "-headless=false", "-frames=1", "-volume=30", "-config", path, "-profile", "one", "-speed", "3", "x.mkv"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
	o, err := parseArgs(got)
	if err != nil {
		t.Fatal(err)
	}
	if o.cfg.Playback.Speed != 3 || o.cfg.Playback.Frames != 1 || !o.cfg.Output.Fullscreen || o.sound.volume != 30 {
		t.Errorf("parsed: speed %g (want 3: the command line wins), frames %d, fs %v, volume %d", o.cfg.Playback.Speed, o.cfg.Playback.Frames, o.cfg.Output.Fullscreen, o.sound.volume)
	}
	if got, err := withConfig([]string{"-config=" + path, "--no-config", "x.mkv"}, parseProbe{}); err != nil || len(got) != 3 {
		t.Errorf("-no-config: %q, %v", got, err)
	}
	for _, tc := range []struct {
		text    string
		args    []string
		wantErr string
	}{
		{"speed=2\n\nbogus=1\n", nil, ":3: unknown option \"bogus\""},
		{"frames=x\n", nil, ":1: invalid value \"x\" for flag -frames"},
		{"speed=99\n", nil, ":1: bad -speed 99"},
		{"frames\n", nil, ":1: frames needs a value"},
		{"no-config\n", nil, ":1: no-config belongs on the command line"},
		{"profile=none\n", nil, ":1: profile=none: no [none] section"},
		{"[a]\nprofile=a\n", []string{"-profile", "a"}, ":2: profile=a: profiles that include each other"},
		{"speed=2\n", []string{"-profile", "fast"}, "-profile fast: no [fast] section in "},
		{"[bad]\nframes=-1\n", []string{"-profile", "bad"}, ":2: bad -frames -1"},
	} {
		p := writeConf(t, tc.text)
		_, err := withConfig(append([]string{"-config", p}, tc.args...), parseProbe{})
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), p) {
			t.Errorf("%q %q: %v, want an error naming %s with %q", tc.text, tc.args, err, p, tc.wantErr)
		}
	}
	if _, err := withConfig([]string{"-config", filepath.Join(t.TempDir(), "missing.conf")}, parseProbe{}); err == nil {
		t.Error("a missing -config FILE: no error")
	}
}

// TestDefaultConfigFile: $XDG_CONFIG_HOME/ycbcrkit/ycbcrplay.conf is read when present, and its
// absence is no error.
func TestDefaultConfigFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if got, err := withConfig([]string{"x.mkv"}, parseProbe{}); err != nil || !reflect.DeepEqual(got, []string{"x.mkv"}) {
		t.Fatalf("no file: %q, %v", got, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "ycbcrkit"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ycbcrkit", "ycbcrplay.conf"), []byte("untimed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := withConfig([]string{"x.mkv"}, parseProbe{}); err != nil || !reflect.DeepEqual(got, []string{"-untimed", "x.mkv"}) {
		t.Fatalf("with the file: %q, %v", got, err)
	}
}

// TestConfigFilePlays: a real config file and its profiles steer a real run: the top level's
// frames=3, a profile's frames=1, the command line's -frames 2 over both, headless=yes and a bare untimed; an
// unknown option ends the run with one error line naming the file and line, exit status 2.
func TestConfigFilePlays(t *testing.T) {
	conf := writeConf(t, "# test\nheadless=yes\nuntimed\nframes=3\n\n[one]\nprofile-desc=\"one frame\"\nframes=1\n")
	clip := filepath.Join(mediaDir, "default.mkv")
	for _, tc := range []struct {
		args   []string
		frames float64
	}{
		{[]string{"-config", conf}, 3},
		{[]string{"-config", conf, "-profile", "one"}, 1},
		{[]string{"-config", conf, "-profile=one", "-frames", "2"}, 2},
		{[]string{"-frames", "2", "-config", conf, "-profile", "one"}, 2},
	} {
		stdout, stderr, code := play(t, append(append([]string{"-validate", "-stats"}, tc.args...), clip)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.args, code, stderr)
		}
		if st := statsLines(t, stdout); len(st) != 1 || st[0]["frames_presented"] != tc.frames {
			t.Errorf("%q: %s, want %v frames", tc.args, stdout, tc.frames)
		}
	}
	bad := writeConf(t, "frames=1\nframez=2\n")
	_, stderr, code := play(t, "-config", bad, "-headless", clip)
	if want := "error: " + bad + ":2: unknown option \"framez\""; code != 2 || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("unknown option: exit %d, %q; want 2 and one line %q…", code, stderr, want)
	}
}
