package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// pinned is FFMPEG_VERSION as build-ffmpeg.sh sets it.
func pinned(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("build-ffmpeg.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^FFMPEG_VERSION=(\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no FFMPEG_VERSION= line in build-ffmpeg.sh")
	}
	return string(m[1])
}

// TestCheckUpdates runs build-ffmpeg.sh --check-updates against a fake apt: apt-get and apt-cache
// earlier on PATH, apt-cache answering showsrc with the versions a case gives (as apt prints them,
// one stanza per source package version), and apt-get recording the sources.list it was pointed at.
// The script must say that the pin is the newest 7.1.x (exit 0), name a newer 7.1.x (exit 1) and
// ignore other series, and fail in one error line when apt cannot be asked (exit 2).
func TestCheckUpdates(t *testing.T) {
	pin := pinned(t)
	for _, c := range []struct {
		name     string
		versions []string // showsrc's Version: lines
		update   int      // apt-get update's exit status
		code     int
		want     string
	}{
		{"pin only", []string{pin, pin}, 0, 0, "is the newest 7.1.x source"},
		{"older and other series", []string{"7:7.1.1-1", pin, "7:8.0.1-2", "7:6.1.2-1"}, 0, 0, "is the newest 7.1.x source"},
		{"newer 7.1.x", []string{pin, "7:7.1.99-0+deb13u1", "7:8.0.1-2"}, 0, 1, "Debian published ffmpeg 7:7.1.99-0+deb13u1, newer than the pinned " + pin},
		{"apt fails", nil, 100, 2, "error: build-ffmpeg: apt-get update"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := t.TempDir()
			var showsrc strings.Builder
			for _, v := range c.versions {
				showsrc.WriteString("Package: ffmpeg\nBinary: ffmpeg, libavcodec61\nVersion: " + v + "\nFormat: 3.0 (quilt)\n\n")
			}
			answer := filepath.Join(bin, "showsrc.txt")
			lists := filepath.Join(bin, "sources.list")
			os.WriteFile(answer, []byte(showsrc.String()), 0o644)
			fake := map[string]string{
				// Copies the sources.list it is given (-oDir::Etc::SourceList=FILE) for the test to read.
				"apt-get": `for a; do case $a in -oDir::Etc::SourceList=*) cp "${a#*=}" "` + lists + `" ;; esac; done
case "$*" in *update) [ ` + strconv.Itoa(c.update) + ` = 0 ] || echo "E: The repository is not signed." >&2; exit ` + strconv.Itoa(c.update) + ` ;; esac`,
				"apt-cache": `for a; do [ "$a" = showsrc ] && exec cat "` + answer + `"; done; exit 100`,
			}
			for name, body := range fake {
				if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("./build-ffmpeg.sh", "--check-updates")
			cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			text := strings.TrimSpace(string(out))
			if code != c.code || strings.Count(text, "\n") != 0 || !strings.Contains(text, c.want) {
				t.Fatalf("exit %d, output %q: want %d and one line containing %q", code, text, c.code, c.want)
			}
			l, err := os.ReadFile(lists)
			if err != nil || !strings.Contains(string(l), " trixie main") || !strings.Contains(string(l), " trixie-security main") {
				t.Errorf("sources.list given to apt: %q (%v): want deb-src lines for trixie and trixie-security", l, err)
			}
			t.Logf("exit %d: %s", code, text)
		})
	}
}
