package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"image"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/oracletest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// decoderFamily is one of FFmpeg's decoders, with the file that makes a clip of it.
type decoderFamily struct {
	name, file string
	args       []string // Debian's ffmpeg's output options
	// yuv: the decoder's frames are Y′CbCr in a layout of the table, compared through the oracle;
	// otherwise ffmpeg's own decode converted to rgb24 is the reference, or for the float
	// families (float) to rgb48le and rounded to 8 bits here: swscale's float → rgb24 conversion
	// does not round to nearest (2 LSB from the player's picture), and its rgb24 → rgb48le is not
	// exact either (2 LSB the other way for the 8-bit families).
	yuv, float bool
	// size is the clip's size: 96x64 unless the encoder needs more (DNxHR: 256×120 at least).
	size string
	// color is a Y′CbCr family's colour metadata as the clip was made (args' tags, and what the
	// codec defines where the file cannot carry a tag): the oracle's parameters, so that the
	// decoder under test's own metadata is checked, not trusted.
	color formats.Color
}

// tagged709 are the output options that tag a clip BT.709 limited range (matrix, primaries,
// transfer, range), which MOV's colr atom and Matroska's Colour element carry.
var tagged709 = []string{"-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"}

// decoderFamilies are the families the build enables beside those it had (issue 28).
var decoderFamilies = []decoderFamily{
	// DNxHR: tagged BT.709 limited; MOV carries no siting, and VC-3's 4:2:2 (SMPTE ST 2019-1) is
	// the studio interfaces' (ST 274), chroma co-sited with the even luma column: left.
	{"dnxhd (DNxHR LB)", "dnxhr.mov", append([]string{"-c:v", "dnxhd", "-profile:v", "dnxhr_lb", "-pix_fmt", "yuv422p"}, tagged709...), true, false, "256x144",
		formats.Color{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaLeft, Primaries: formats.PrimariesBT709, Transfer: formats.TransferBT709}},
	// Theora: its header carries one colour space (Rec. 470BG here: primaries and matrix); its
	// pixels are limited range and its 4:2:0 chroma sits at the centre of each 2×2 block, both fixed
	// by the format (Theora I specification, ch. 4 "Video Formats"; there is no field for either).
	{"theora", "theora.ogv", []string{"-c:v", "libtheora", "-q:v", "8", "-pix_fmt", "yuv420p",
		"-colorspace", "bt470bg", "-color_primaries", "bt470bg", "-color_trc", "bt709"}, true, false, "",
		formats.Color{Matrix: formats.MatrixBT470BG, Range: formats.RangeLimited, ChromaLocation: formats.ChromaCenter, Primaries: formats.PrimariesBT470BG, Transfer: formats.TransferBT709}},
	// JPEG 2000 in Matroska: tagged BT.709 limited; 4:4:4 has no siting (center, as any).
	{"jpeg2000", "j2k.mkv", append([]string{"-c:v", "jpeg2000", "-pix_fmt", "yuv444p"}, tagged709...), true, false, "",
		formats.Color{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaCenter, Primaries: formats.PrimariesBT709, Transfer: formats.TransferBT709}},
	{"gif", "clip.gif", []string{"-c:v", "gif"}, false, false, "", formats.Color{}},
	{"apng", "clip.apng", []string{"-c:v", "apng", "-pix_fmt", "rgb24", "-f", "apng"}, false, false, "", formats.Color{}},
	{"dpx", "clip.dpx", []string{"-c:v", "dpx", "-pix_fmt", "rgb24", "-update", "1"}, false, false, "", formats.Color{}},
	{"exr", "clip.exr", []string{"-c:v", "exr", "-pix_fmt", "gbrpf32le", "-update", "1"}, false, true, "", formats.Color{}},
	{"pam", "clip.pam", []string{"-c:v", "pam", "-pix_fmt", "rgb24", "-update", "1"}, false, false, "", formats.Color{}},
	{"pcx", "clip.pcx", []string{"-c:v", "pcx", "-pix_fmt", "rgb24", "-update", "1"}, false, false, "", formats.Color{}},
	{"pfm", "clip.pfm", []string{"-c:v", "pfm", "-pix_fmt", "gbrpf32le", "-update", "1"}, false, true, "", formats.Color{}},
	{"phm", "clip.phm", []string{"-c:v", "phm", "-pix_fmt", "gbrpf32le", "-update", "1"}, false, true, "", formats.Color{}},
	{"qoi", "clip.qoi", []string{"-c:v", "qoi", "-pix_fmt", "rgb24", "-update", "1"}, false, false, "", formats.Color{}},
	{"sgi", "clip.sgi", []string{"-c:v", "sgi", "-pix_fmt", "rgb24", "-update", "1"}, false, false, "", formats.Color{}},
	{"tiff", "clip.tif", []string{"-c:v", "tiff", "-pix_fmt", "rgb24", "-update", "1"}, false, false, "", formats.Color{}},
	{"xbm", "clip.xbm", []string{"-c:v", "xbm", "-pix_fmt", "monow", "-update", "1"}, false, false, "", formats.Color{}},
}

// TestDecoderFamilies plays the first frame of a clip of each decoder family the build enables
// (made by Debian's ffmpeg) headless through the shader path with the validation layer on, and
// compares the screenshot with FFmpeg's own decode of the clip within 1/255:
//   - Y′CbCr families (DNxHR, Theora, JPEG 2000): the decoder's planes equal the build's ffmpeg
//     program's rawvideo output code for code, its resolved matrix, range and siting are the ones
//     the clip was made with (decoderFamily.color), and the screenshot is within 1 LSB of the CPU
//     oracle's R′G′B′ of those planes with that metadata, not the decoder's;
//   - R′G′B′, float and bitmap families: the screenshot is within 1 LSB of the ffmpeg program's
//     decode converted to rgb24 (float families: at 16 bits, rgb48le, rounded to 8).
func TestDecoderFamilies(t *testing.T) {
	if os.Getenv("YCBCRKIT_FFMPEG") == "" {
		t.Fatal("YCBCRKIT_FFMPEG is unset: eval \"$(scripts/build-ffmpeg.sh --env)\"")
	}
	dir := t.TempDir()
	clipArgs := func(fam decoderFamily) (w, h int, args []string) {
		w, h, args = 96, 64, fam.args
		if fam.size != "" {
			fmt.Sscanf(fam.size, "%dx%d", &w, &h)
			args = append([]string{"-vf", "scale=" + fam.size}, args...)
		}
		return w, h, args
	}
	// Every family's clip in one run; should that run fail, each subtest makes its own and names
	// what failed.
	clips := map[string][]string{}
	for _, fam := range decoderFamilies {
		_, _, clips[filepath.Join(dir, fam.file)] = clipArgs(fam)
	}
	made := makeClips(clips) == nil
	for _, fam := range decoderFamilies {
		t.Run(strings.Fields(fam.name)[0], func(t *testing.T) {
			file := filepath.Join(dir, fam.file)
			w, h, args := clipArgs(fam)
			if !made {
				makeClip(t, file, args...)
			}
			shot := filepath.Join(dir, fam.file+".png")
			_, stderr, code := play(t, "-headless", "-frames", "1", "-validate", "-path", "shader", "-screenshot", shot, file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			img := pictest.ReadPNG(t, shot)
			if img.Bounds().Dx() != w || img.Bounds().Dy() != h {
				t.Fatalf("screenshot %v: want %d×%d", img.Bounds(), w, h)
			}
			if fam.yuv {
				compareYUV(t, file, img, fam.color)
				return
			}
			want := image.NewRGBA(image.Rect(0, 0, w, h))
			if fam.float {
				raw := ffmpegDecode(t, file, "rgb48le")
				if len(raw) != w*h*6 {
					t.Fatalf("ffmpeg's rgb48le decode: %d bytes", len(raw))
				}
				for i := 0; i < w*h; i++ {
					for k := 0; k < 3; k++ {
						v := uint32(raw[6*i+2*k]) | uint32(raw[6*i+2*k+1])<<8
						want.Pix[4*i+k] = uint8((v*255 + 32767) / 65535)
					}
					want.Pix[4*i+3] = 255
				}
			} else {
				raw := ffmpegDecode(t, file, "rgb24")
				if len(raw) != w*h*3 {
					t.Fatalf("ffmpeg's rgb24 decode: %d bytes", len(raw))
				}
				for i := 0; i < w*h; i++ {
					copy(want.Pix[4*i:4*i+3], raw[3*i:3*i+3])
					want.Pix[4*i+3] = 255
				}
			}
			if d := maxDiff(t, img, want); d > 1 {
				t.Errorf("%.0f LSB from ffmpeg's decode (limit 1)", d)
			} else {
				t.Logf("within %.0f LSB of ffmpeg's decode", d)
			}
		})
	}
}

// compareYUV checks a Y′CbCr clip: this project's decoder's first frame against ffmpeg's rawvideo
// decode, then the screenshot against the oracle's picture of ffmpeg's planes.
func compareYUV(t *testing.T, file string, img image.Image, made formats.Color) {
	f := oracletest.FirstFrame(t, file)
	pic := f.Picture
	if f.SourceFormat != pic.Format.Name {
		t.Fatalf("decoded %s, converted to %s: want a layout of the table", f.SourceFormat, pic.Format.Name)
	}
	ref, err := formats.NewFrame(pic.Format, pic.Width, pic.Height)
	if err != nil {
		t.Fatal(err)
	}
	raw := ffmpegDecode(t, file, pic.Format.Name)
	n := 0
	for _, p := range ref.Planes {
		n += len(p)
	}
	if len(raw) != n {
		t.Fatalf("ffmpeg's %s decode: %d bytes, want %d", pic.Format.Name, len(raw), n)
	}
	for i, p := range ref.Planes {
		raw = raw[copy(ref.Planes[i], raw[:len(p)]):]
	}
	for _, c := range []formats.Channel{formats.Y, formats.Cb, formats.Cr} {
		w, h := pic.ChannelSize(c)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if a, b := pic.Code(c, x, y), ref.Code(c, x, y); a != b {
					t.Fatalf("%s code at (%d, %d): decoder %d, ffmpeg %d", channelName(c), x, y, a, b)
				}
			}
		}
	}
	if got := f.Color; got.Matrix != made.Matrix || got.Range != made.Range || got.ChromaLocation != made.ChromaLocation {
		t.Errorf("decoder's metadata %s, the clip was made %s", got, made)
	}
	prm, err := check.OracleParams(pic.Format, ycbcr.FromColor(made))
	if err != nil {
		t.Fatal(err)
	}
	want := oracle.Image(check.OraclePicture(ref), prm)
	if worst, at := diff(img, want, nil); worst > 1 {
		t.Errorf("%s %s: %.2f LSB from the oracle's picture of ffmpeg's decode at pixel %d (limit 1)", pic.Format.Name, made, worst, at)
	} else {
		t.Logf("%s %s: decoder equals ffmpeg's decode; screenshot within %.2f LSB of the oracle", pic.Format.Name, made, worst)
	}
}

func channelName(c formats.Channel) string { return [...]string{"Y", "Cb", "Cr"}[c] }

// TestJPEGXLRefused: JPEG XL needs libjxl, which the build does not link (scripts/build-ffmpeg.sh
// says why): a .jxl file ends at once in one error line naming the codec, not a hang or a trace.
func TestJPEGXLRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "clip.jxl")
	makeClip(t, file, "-frames:v", "1", "-c:v", "libjxl", "-update", "1")
	_, stderr, code := play(t, "-headless", "-frames", "1", file)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != 1 || !strings.HasPrefix(last, "error: ") || !strings.Contains(last, "jpegxl") {
		t.Fatalf("exit %d, stderr %q: want 1 and an error line naming jpegxl", code, stderr)
	}
	t.Logf("%s", last)
}

// TestDataAndConcatInputs: a data: URI (a PNG, base64) and a concat: list of two MPEG-TS clips play;
// the concatenation shows the frames of both.
func TestDataAndConcatInputs(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "one.png")
	makeClip(t, png, "-frames:v", "1", "-c:v", "png", "-update", "1")
	b, err := os.ReadFile(png)
	if err != nil {
		t.Fatal(err)
	}
	uri := "data:image/png;base64," + base64.StdEncoding.EncodeToString(b)
	shot := filepath.Join(dir, "data.png")
	if _, stderr, code := play(t, "-headless", "-validate", "-screenshot", shot, uri); code != 0 {
		t.Fatalf("data: URI: exit %d: %s", code, stderr)
	}
	if d := maxDiff(t, pictest.ReadPNG(t, shot), pictest.ReadPNG(t, png)); d > 1 {
		t.Errorf("data: URI: %.0f LSB from the PNG itself", d)
	}
	a, c := filepath.Join(dir, "a.ts"), filepath.Join(dir, "b.ts")
	makeClip(t, a, "-c:v", "mpeg2video", "-q:v", "2")
	makeClip(t, c, "-c:v", "mpeg2video", "-q:v", "2")
	stdout, stderr, code := play(t, "-headless", "-untimed", "-stats", "-no-audio", "concat:"+a+"|"+c)
	if code != 0 {
		t.Fatalf("concat: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `"frames_presented":4`) {
		t.Errorf("concat: of two 2-frame clips: -stats %s: want 4 frames presented", stdout)
	}
}

// TestAV1ManyTilesParsedAndPlayed: an AV1 frame declaring 32 × 16 = 512 tiles in one tile group,
// more than the 256 (MAX_TILES) FFmpeg's Vulkan AV1 hwaccel has room for. What it exercises: the
// build's AV1 parser and bitstream reader (trace_headers reads the tile counts) and the player
// decoding the frame in software with -hwdec auto and the validation layer on. What it does not:
// the patched hwaccel (scripts/ffmpeg-patches/0003 bounds its tile loop), which runs only on a
// device that decodes AV1 through Vulkan Video (VK_KHR_video_decode_av1). Lavapipe decodes no
// video, and NVIDIA's driver 580 on the H100 and H200 offers no AV1 decode (docs/hwdec.md), so no
// machine this project runs on reaches that path; on one that does, scripts/device/run.sh
// reliability plays the same clip with -hwdec vulkan.
func TestAV1ManyTilesParsedAndPlayed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tiles.ivf")
	all := []string{"-v", "error", "-f", "lavfi", "-i", "testsrc2=s=2048x1024:r=10", "-frames:v", "1",
		"-c:v", "libaom-av1", "-cpu-used", "8", "-usage", "realtime", "-tiles", "32x16", "-y", file}
	if b, err := exec.Command(debianFFmpeg, all...).CombinedOutput(); err != nil {
		t.Fatalf("libaom-av1: %v: %s", err, b)
	}
	cmd := exec.Command(os.Getenv("YCBCRKIT_FFMPEG"), "-v", "trace", "-i", file, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("trace_headers: %v: %s", err, out)
	}
	logs := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		// "[trace_headers @ 0x…] 41  tile_cols_log2  11111 = 5": position, name, bits, value.
		f := strings.Fields(line)
		for _, k := range []string{"tile_cols_log2", "tile_rows_log2"} {
			if len(f) > 4 && f[len(f)-4] == k && f[len(f)-2] == "=" {
				var v int
				fmt.Sscan(f[len(f)-1], &v)
				logs[k] = v
			}
		}
	}
	tiles := (1 << logs["tile_cols_log2"]) * (1 << logs["tile_rows_log2"])
	if tiles <= 256 {
		t.Fatalf("the clip declares %d tiles (%v): want more than 256", tiles, logs)
	}
	_, stderr, code := play(t, "-headless", "-frames", "1", "-validate", "-stats", file)
	if code != 0 {
		t.Fatalf("%d tiles: exit %d: %s", tiles, code, stderr)
	}
	t.Logf("%d tiles declared; played", tiles)
}

// TestHTTPS: the bundled clip served over https (a server in this test, with a certificate made
// here, which FFmpeg does not verify unless asked: -tls_verify is off by default) plays through the
// build's https protocol (Mbed TLS).
func TestHTTPS(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.FileServer(http.Dir(mediaDir)))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	defer srv.Close()
	url := srv.URL + "/default.mkv"
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("server URL %s", url)
	}
	stdout, stderr, code := play(t, "-headless", "-untimed", "-no-audio", "-frames", "5", "-stats", url)
	if code != 0 || !strings.Contains(stdout, `"frames_presented":5`) {
		t.Fatalf("%s: exit %d, stdout %s, stderr %s", url, code, stdout, stderr)
	}
	t.Logf("%s: 5 frames presented", url)
}
