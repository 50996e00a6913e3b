package pictest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Chapter is one chapter to mux into a test file: start and end in seconds, and a title.
type Chapter struct {
	Start, End float64
	Title      string
}

// WithChapters copies src's streams into dst (Matroska or MP4 by dst's extension) with the given
// chapters, through FFmpeg's ffmetadata format (https://ffmpeg.org/ffmpeg-formats.html#Metadata-1)
// and Debian's ffmpeg program (scripts/install-deps.sh installs it; the project's own build has no
// ffmetadata demuxer), or from an identical earlier run (FFmpegMake).
func WithChapters(t testing.TB, src, dst string, chapters []Chapter) {
	t.Helper()
	var meta strings.Builder
	meta.WriteString(";FFMETADATA1\n")
	for _, c := range chapters {
		fmt.Fprintf(&meta, "[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\ntitle=%s\n", int(c.Start*1000+0.5), int(c.End*1000+0.5), c.Title)
	}
	metaFile := filepath.Join(t.TempDir(), "chapters.txt")
	if err := os.WriteFile(metaFile, []byte(meta.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	FFmpegMake(t, "-i", src, "-i", metaFile, "-map", "0", "-map_chapters", "1", "-c", "copy", dst)
}
