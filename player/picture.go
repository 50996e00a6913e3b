package player

import (
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// pictureEncoders are the formats a screenshot can be written in, by file extension.
var pictureEncoders = map[string]func(io.Writer, image.Image) error{
	".png": func(w io.Writer, img image.Image) error {
		return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
	},
	// Quality 95: 4:2:0 JPEG of a screenshot is for sharing, not for checking colours (PNG is).
	".jpg":  func(w io.Writer, img image.Image) error { return jpeg.Encode(w, img, &jpeg.Options{Quality: 95}) },
	".jpeg": func(w io.Writer, img image.Image) error { return jpeg.Encode(w, img, &jpeg.Options{Quality: 95}) },
}

func encoderFor(path string) (func(io.Writer, image.Image) error, error) {
	ext := strings.ToLower(filepath.Ext(path))
	enc, ok := pictureEncoders[ext]
	if !ok {
		return nil, fmt.Errorf("%s: the extension names no picture format this player writes (.png, .jpg)", path)
	}
	return enc, nil
}

// CheckOutput checks, before anything plays, that a picture can be written to path: a format its
// extension names, a folder that exists, a file that can be opened for writing, and not one of the
// inputs (a screenshot must never overwrite the video it shows). Nothing is left behind.
func CheckOutput(path string, inputs ...string) error {
	st, statErr := os.Stat(path)
	if statErr == nil {
		for _, in := range inputs {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				return fmt.Errorf("%s is the input file: refusing to overwrite it", path)
			}
		}
		if st.IsDir() {
			return fmt.Errorf("%s is a folder", path)
		}
	}
	if _, err := encoderFor(path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err // *PathError: "open PATH: reason", one line
	}
	f.Close()
	if errors.Is(statErr, os.ErrNotExist) {
		os.Remove(path)
	}
	return nil
}

// writePicture writes img to path in the format the extension names. Errors name the path once.
func writePicture(path string, img image.Image) error {
	enc, err := encoderFor(path)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	// An encoder's write error is already a *PathError naming the file ("write PATH: reason").
	if err := enc(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// screenshot converts the last presented frame again, at the video's size, and writes it as PNG; in
// diff mode the diff picture (|sampler − shader| × DiffGain).
func (p *Player) screenshot(path string) error {
	if p.last == nil {
		return fmt.Errorf("no frame was presented: nothing to write to %s", path)
	}
	if p.rend.active == CompareDiff { // the diff picture, as the diff mode shows it
		img, _, _, err := p.diffPicture(p.last)
		if err != nil {
			return err
		}
		return writeScreenshot(path, img)
	}
	img, err := p.convertPath(p.last, p.rend.Stream.Plan().Path.Path)
	if err != nil {
		return err
	}
	p.burnSubtitles(img)
	return writeScreenshot(path, img)
}

// shoot writes the picture on screen (the video, not the display) as the s key does: the next free
// ycbcrplay-NNNN.png in Config.Output.ShotDir.
func (p *Player) shoot() (string, error) {
	for i := 1; i < 10000; i++ {
		path := filepath.Join(p.cfg.Output.ShotDir, fmt.Sprintf("ycbcrplay-%04d.png", i))
		if _, err := os.Lstat(path); os.IsNotExist(err) {
			return path, p.screenshot(path)
		}
	}
	return "", fmt.Errorf("ycbcrplay-0001..9999.png all exist in %q", p.cfg.Output.ShotDir)
}

// writeScreenshot writes img as an opaque picture (alpha is always 1) in the format path names.
func writeScreenshot(path string, img *image.RGBA) error {
	rgb := image.NewNRGBA(img.Rect)
	copy(rgb.Pix, img.Pix)
	return writePicture(path, rgb)
}
