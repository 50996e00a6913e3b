package subtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Cues is a SubRip file: "Hello" from 0.5 s to 1.5 s, "World" from 2 s to 3 s.
const Cues = "1\n00:00:00,500 --> 00:00:01,500\nHello\n\n2\n00:00:02,000 --> 00:00:03,000\nWorld\n"

// StyledASS is an ASS script of a 320×240 PlayRes whose one event, "Red" from 1 s to 2 s, is styled
// red (&H0000FF& is BGR) in DejaVu Sans 32 with no outline or shadow, its top left placed at
// (40, 60) (\an7\pos).
const StyledASS = `[Script Info]
ScriptType: v4.00+
PlayResX: 320
PlayResY: 240

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,DejaVu Sans,32,&H000000FF,&H000000FF,&H00000000,&H00000000,1,0,0,0,100,100,0,0,1,0,0,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\an7\pos(40,60)}Red
`

// FFmpeg runs Debian's ffmpeg program (the one that makes test media) with args.
func FFmpeg(t testing.TB, args ...string) {
	t.Helper()
	if out, err := exec.Command("ffmpeg", append([]string{"-v", "error", "-y"}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %v: %v\n%s", args, err, out)
	}
}

// Clip writes dir/clip.mkv: 4 s of testsrc2 at 320×240 and 25 fps (a frame each 40 ms) with two
// subtitle tracks, Cues as SubRip (language eng) and StyledASS as ASS, muxed into Matroska by
// Debian's ffmpeg.
func Clip(t testing.TB, dir string) string {
	t.Helper()
	srt, as := filepath.Join(dir, "cues.srt"), filepath.Join(dir, "styled.ass")
	if err := os.WriteFile(srt, []byte(Cues), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(as, []byte(StyledASS), 0o644); err != nil {
		t.Fatal(err)
	}
	clip := filepath.Join(dir, "clip.mkv")
	FFmpeg(t, "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-i", srt, "-i", as, "-map", "0:v", "-map", "1", "-map", "2",
		"-t", "4", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s:0", "srt", "-c:s:1", "ass", "-metadata:s:s:0", "language=eng", clip)
	return clip
}
