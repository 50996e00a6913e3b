package watchlater

import (
	"os"
	"path/filepath"
	"testing"
)

// TestName: mpv's names, the upper-case MD5 of the absolute path or the URL. The expected values
// come from coreutils (printf '/abc' | md5sum; printf 'http://x/abc' | md5sum), not from this code.
func TestName(t *testing.T) {
	for path, want := range map[string]string{
		"/abc":         "482A7143AC747EFF5E5A5992A6016D65",
		"http://x/abc": "8A18C71C3EF017C14FC9765B8F23B261",
	} {
		if got, err := Name(path); err != nil || got != want {
			t.Errorf("%s: %s %v, want %s", path, got, err, want)
		}
	}
	// A relative path is the current folder + "/" + path.
	cwd, _ := os.Getwd()
	a, _ := Name("clip.mkv")
	b, _ := Name(cwd + "/clip.mkv")
	if a != b {
		t.Errorf("relative %s vs absolute %s", a, b)
	}
}

// TestSaveLoad: a saved position comes back, a file mpv wrote (its own comment lines and
// start=) is read, Delete forgets it, and a missing one is no error.
func TestSaveLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "watch_later")
	if _, ok, err := Load(dir, "/v/a.mkv"); ok || err != nil {
		t.Fatalf("nothing saved: %v %v", ok, err)
	}
	if err := Save(dir, "/v/a.mkv", 12.5); err != nil {
		t.Fatal(err)
	}
	if pos, ok, err := Load(dir, "/v/a.mkv"); !ok || err != nil || pos != 12.5 {
		t.Fatalf("%v %v %v", pos, ok, err)
	}
	name, _ := Name("/v/b.mkv")
	os.WriteFile(filepath.Join(dir, name), []byte("# /v/b.mkv\nstart=61.250000\nvolume=50.000000\n"), 0o644)
	if pos, ok, err := Load(dir, "/v/b.mkv"); !ok || err != nil || pos != 61.25 {
		t.Fatalf("mpv's file: %v %v %v", pos, ok, err)
	}
	if err := Delete(dir, "/v/a.mkv"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := Load(dir, "/v/a.mkv"); ok {
		t.Error("still there after Delete")
	}
	if err := Delete(dir, "/v/a.mkv"); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
	os.WriteFile(filepath.Join(dir, name), []byte("start=x\n"), 0o644)
	if _, _, err := Load(dir, "/v/b.mkv"); err == nil {
		t.Error("start=x: no error")
	}
}

func TestDir(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/s")
	if d := Dir(); d != "/s/ycbcrkit/watch_later" {
		t.Errorf("%s", d)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/h")
	if d := Dir(); d != "/h/.local/state/ycbcrkit/watch_later" {
		t.Errorf("%s", d)
	}
}
