// Package picfile writes the programs' pictures (screenshots) to files, in the format the file's
// extension names, and checks before anything plays that such a file can be written.
package picfile

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

// encoders are the formats a screenshot can be written in, by file extension.
var encoders = map[string]func(io.Writer, image.Image) error{
	".png": func(w io.Writer, img image.Image) error {
		return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
	},
	// Quality 95: 4:2:0 JPEG of a screenshot is for sharing, not for checking colours (PNG is).
	".jpg":  func(w io.Writer, img image.Image) error { return jpeg.Encode(w, img, &jpeg.Options{Quality: 95}) },
	".jpeg": func(w io.Writer, img image.Image) error { return jpeg.Encode(w, img, &jpeg.Options{Quality: 95}) },
}

func encoder(path string) (func(io.Writer, image.Image) error, error) {
	ext := strings.ToLower(filepath.Ext(path))
	enc, ok := encoders[ext]
	if !ok {
		return nil, fmt.Errorf("%s: the extension names no picture format this program writes (.png, .jpg)", path)
	}
	return enc, nil
}

// Check checks, before anything plays, that a picture can be written to path: a format its
// extension names, a folder that exists, a file that can be opened for writing, and not one of the
// inputs (a screenshot must never overwrite the video it shows). Nothing is left behind.
func Check(path string, inputs ...string) error {
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
	if _, err := encoder(path); err != nil {
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

// Write writes img to path in the format the extension names. Errors name the path once.
func Write(path string, img image.Image) error {
	enc, err := encoder(path)
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
