// Command pngdiff compares screenshots (docs/hwdec.md, "Pictures"): for each pair A B it prints the
// largest difference of their R, G and B samples in 8-bit steps, how many samples differ by more
// than 1, and whether the pair is within the bound (-max, 1 by default, the 1/255).
// Usage: pngdiff [-max N] [-tiles COLS] A.png B.png [A2.png B2.png ...]; exit status 1 when a pair is
// outside the bound or differs in size, 2 on unreadable input. With -tiles, A is a wall of COLS
// columns of B-sized tiles (ycbcrwall's canvas) and every whole tile of A is compared with B.
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
	cols := flag.Int("tiles", 0, "A is a wall of `COLS` columns of B-sized tiles: compare each with B")
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
				tiles := []image.Point{{}}
				if *cols > 0 {
					tiles = nil
					for y := 0; y+b.Rect.Dy() <= a.Rect.Dy(); y += b.Rect.Dy() {
						for x := 0; x+b.Rect.Dx() <= a.Rect.Dx() && x < *cols*b.Rect.Dx(); x += b.Rect.Dx() {
							tiles = append(tiles, image.Pt(x, y))
						}
					}
				} else if a.Rect.Size() != b.Rect.Size() {
					fmt.Printf("%s %s: sizes %v and %v differ\n", args[i], args[i+1], a.Rect.Size(), b.Rect.Size())
					status = max(status, 1)
					continue
				}
				for t, o := range tiles {
					largest, over := compare(a, b, o)
					verdict := "within"
					if largest > *bound {
						verdict, status = "OUTSIDE", max(status, 1)
					}
					name := args[i]
					if *cols > 0 {
						name = fmt.Sprintf("%s[tile %d]", args[i], t)
					}
					fmt.Printf("%s %s: %dx%d largest %d, %d samples > 1: %s %d/255\n", name, args[i+1], b.Rect.Dx(), b.Rect.Dy(), largest, over, verdict, *bound)
				}
				continue
			}
		}
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		status = 2
	}
	os.Exit(status)
}

// compare is the largest difference of R, G and B between b and the b-sized part of a at o, and how
// many samples differ by more than 1.
func compare(a, b *image.NRGBA, o image.Point) (largest, over int) {
	for y := 0; y < b.Rect.Dy(); y++ {
		for x := 0; x < b.Rect.Dx(); x++ {
			pa, pb := a.Pix[a.PixOffset(o.X+x, o.Y+y):], b.Pix[b.PixOffset(x, y):]
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
	return largest, over
}
