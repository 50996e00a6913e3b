package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// debianFFmpeg is Debian 12's ffmpeg program (scripts/install-deps.sh installs it): its encoders
// (libtheora, libjxl and the image encoders) make the clips of the decoder families the project's
// FFmpeg build decodes but does not encode.
const debianFFmpeg = "/usr/bin/ffmpeg"

// makeClip writes one 2-frame 96×64 clip of testsrc2 (colour bars, gradients, moving shapes) with
// Debian's ffmpeg and the given output options.
func makeClip(t *testing.T, out string, args ...string) {
	t.Helper()
	if err := makeClips(map[string][]string{out: args}); err != nil {
		t.Fatalf("make %s with %s: %v", filepath.Base(out), debianFFmpeg, err)
	}
}

// makeClips writes makeClip's clips, each file with its output options, in one run of Debian's
// ffmpeg (an output each, through its own encoder): the program's start-up (0.24 CPU-s, its 214
// libraries) paid once.
func makeClips(clips map[string][]string) error {
	all := []string{"-v", "error", "-f", "lavfi", "-i", "testsrc2=s=96x64:r=10"}
	for out, args := range clips {
		all = append(append(append(all, "-frames:v", "2"), args...), "-y", out)
	}
	if b, err := exec.Command(debianFFmpeg, all...).CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, b)
	}
	return nil
}

// ffmpegDecode is the first frame of file as the build's own ffmpeg program decodes it, as raw
// pix_fmt pixels.
func ffmpegDecode(t *testing.T, file, pixFmt string) []byte {
	t.Helper()
	cmd := exec.Command(os.Getenv("YCBCRKIT_FFMPEG"), "-v", "error", "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", pixFmt, "-")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("ffmpeg's decode of %s: %v: %s", filepath.Base(file), err, e.String())
	}
	return o.Bytes()
}
