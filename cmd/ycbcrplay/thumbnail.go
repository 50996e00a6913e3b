package main

import (
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/app/picfile"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// Seek thumbnails: small pictures of a time of the input, as front-ends draw over their seek bars.
// Each is decoded on a decoder of its own (one thread, software) and converted on the CPU by the
// exact conversion the GPU paths are checked against (ycbcr/oracle: bilinear, the stream's matrix,
// range and siting), so that making them takes nothing from playback but CPU time. A width below
// the video's averages the source pixels under each thumbnail pixel. SDR R′G′B′: an HDR input's
// thumbnails are not tone-mapped, and the display matrix (rotation) is not applied.

// thumbnailWidth is the default width, as mpv's thumbfast script's (200 px at most).
const thumbnailWidth = 200

// thumbnail writes the picture at seconds (the frame at or after it) of url as a PNG of width
// pixels (0: the video's width; the height keeps the stored aspect) to file.
func thumbnail(url string, seconds float64, width int, file string) error {
	d, err := decode.Open(url, decode.Options{Threads: 1, HWDec: decode.HWDecNo})
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Seek(seconds); err != nil {
		return err
	}
	f, err := d.Next()
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("thumbnail: %s has no picture at %g s", filepath.Base(url), seconds)
	} else if err != nil {
		return err
	}
	defer f.Release()
	op, err := check.OracleParams(f.Picture.Format, ycbcr.FromColor(f.Color))
	if err != nil {
		return fmt.Errorf("thumbnail: %w", err)
	}
	// The whole picture at its texel centres (oracle.Sample would check the picture again at each
	// call), then each thumbnail pixel the mean of the source pixels whose centres fall in it.
	vw, vh := f.Picture.Width, f.Picture.Height
	full := oracle.Image(check.OraclePicture(f.Picture), op)
	w := vw
	if width > 0 {
		w = min(width, vw)
	}
	h := max(1, int(math.Round(float64(vh)*float64(w)/float64(vw))))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		y0, y1 := y*vh/h, max(y*vh/h+1, (y+1)*vh/h)
		for x := 0; x < w; x++ {
			x0, x1 := x*vw/w, max(x*vw/w+1, (x+1)*vw/w)
			var sum [3]float64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					v := full[sy*vw+sx]
					for c := range sum {
						sum[c] += math.Min(math.Max(v[c], 0), 1)
					}
				}
			}
			o := img.PixOffset(x, y)
			for c := range sum {
				img.Pix[o+c] = uint8(math.Round(255 * sum[c] / float64((x1-x0)*(y1-y0))))
			}
			img.Pix[o+3] = 255
		}
	}
	return picfile.Write(file, img)
}

// thumbnailable refuses inputs that are read once (standard input, a named pipe).
func thumbnailable(url string) error {
	if url == "" || url == "-" || strings.HasPrefix(url, "pipe:") || avx.IsFIFO(url) {
		return fmt.Errorf("thumbnail: %q is read once (a pipe): no second decoder can open it", url)
	}
	return nil
}

// thumbnails is -thumbnails DIR N: N pictures of each input, at the middles of N equal parts of its
// duration, written as DIR/NAME-NNN.png, their paths on stdout.
func thumbnails(inputs []input, dir string, n, width int, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-thumbnails: %w", err)
	}
	for _, in := range inputs {
		if err := thumbnailable(in.url); err != nil {
			return err
		}
		d, err := decode.Open(in.url, decode.Options{Threads: 1, HWDec: decode.HWDecNo})
		if err != nil {
			return err
		}
		dur := d.Info().Duration
		d.Close()
		if dur <= 0 {
			return fmt.Errorf("-thumbnails: %s: the duration is unknown", in.name)
		}
		base := strings.TrimSuffix(in.name, filepath.Ext(in.name))
		for i := 0; i < n; i++ {
			file := filepath.Join(dir, fmt.Sprintf("%s-%03d.png", base, i+1))
			if err := thumbnail(in.url, (float64(i)+0.5)*dur/float64(n), width, file); err != nil {
				return err
			}
			fmt.Fprintln(stdout, file)
		}
	}
	return nil
}

// thumbnailSeq numbers the IPC's thumbnails written without a file name.
var thumbnailSeq atomic.Int64

// ipcThumbnail is player.IPCConfig.Thumbnail: the IPC's ycbcrplay-thumbnail, off the player's
// thread.
func ipcThumbnail(url string, seconds float64, width int, file string) (string, error) {
	if err := thumbnailable(url); err != nil {
		return "", err
	}
	if width < 0 { // not given
		width = thumbnailWidth
	}
	if file == "" {
		file = filepath.Join(os.TempDir(), fmt.Sprintf("ycbcrplay-%d-thumbnail-%d.png", os.Getpid(), thumbnailSeq.Add(1)))
	}
	return file, thumbnail(url, seconds, width, file)
}
