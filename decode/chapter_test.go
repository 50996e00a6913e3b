package decode

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

// TestChapters: the container's chapters, written by FFmpeg from an ffmetadata file into
// Matroska and MP4, come back with their titles and times on the frames' clock.
func TestChapters(t *testing.T) {
	want := []Chapter{{"One", 0, 1.5}, {"Two", 1.5, 3}, {"Three", 3, 4}}
	var chs []pictest.Chapter
	for _, c := range want {
		chs = append(chs, pictest.Chapter{Start: c.Start, End: c.End, Title: c.Title})
	}
	for _, ext := range []string{"mkv", "mp4"} {
		file := filepath.Join(t.TempDir(), "chapters."+ext)
		pictest.WithChapters(t, filepath.Join(mediaDir, "default.mkv"), file, chs)
		d, err := Open(file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Info().Chapters; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", ext, got, want)
		}
		d.Close()
		d, err = Open(filepath.Join(mediaDir, "default.mkv"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Info().Chapters; got != nil {
			t.Errorf("no chapters: %+v", got)
		}
		d.Close()
	}
}
