// Command pngdiff compares screenshots (docs/hwdec.md, "Pictures"): for each pair A B it prints the
// largest difference of their R, G and B samples in 8-bit steps, how many samples differ by more
// than 1, and whether the pair is within the bound (-max, 1 by default, the 1/255).
// Usage: pngdiff [-max N] A.png B.png [A2.png B2.png ...]; exit status 1 when a pair is outside the
// bound or differs in size, 2 on unreadable input.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
)

func read(path string) (*image.NRGBA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	n := image.NewNRGBA(img.Bounds())
	draw.Draw(n, n.Rect, img, img.Bounds().Min, draw.Src)
	return n, nil
}

func main() {
	bound := flag.Int("max", 1, "largest difference allowed, in 8-bit steps")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 || len(args)%2 != 0 {
		fmt.Fprintln(os.Stderr, "error: pngdiff wants pairs of PNG files")
		os.Exit(2)
	}
	status := 0
	for i := 0; i < len(args); i += 2 {
		a, err := read(args[i])
		if err == nil {
			var b *image.NRGBA
			if b, err = read(args[i+1]); err == nil {
				if a.Rect.Size() != b.Rect.Size() {
					fmt.Printf("%s %s: sizes %v and %v differ\n", args[i], args[i+1], a.Rect.Size(), b.Rect.Size())
					status = max(status, 1)
					continue
				}
				largest, over := 0, 0
				for y := 0; y < a.Rect.Dy(); y++ {
					for x := 0; x < a.Rect.Dx(); x++ {
						pa, pb := a.Pix[a.PixOffset(x, y):], b.Pix[b.PixOffset(x, y):]
						for c := range 3 {
							d := int(pa[c]) - int(pb[c])
							d = max(d, -d)
							largest = max(largest, d)
							if d > 1 {
								over++
							}
						}
					}
				}
				verdict := "within"
				if largest > *bound {
					verdict, status = "OUTSIDE", max(status, 1)
				}
				fmt.Printf("%s %s: %dx%d largest %d, %d samples > 1: %s %d/255\n", args[i], args[i+1], a.Rect.Dx(), a.Rect.Dy(), largest, over, verdict, *bound)
				continue
			}
		}
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		status = 2
	}
	os.Exit(status)
}
