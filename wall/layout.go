package wall

import (
	"bufio"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Layout is where the tiles go: a grid of Cols×Rows units of CellW×CellH pixels, and the cells on
// it. Without Cells each tile has one unit, row by row (the uniform grid); with Cells, tile i has
// Cells[i], in units (a multiviewer's 1+5, 2x2+8: a few large cells among small ones).
type Layout struct {
	Cols, Rows   int
	CellW, CellH int
	Cells        []image.Rectangle
}

// NewLayout is the most nearly square grid for n pictures whose largest is w×h: as many columns as
// the square root of n rounded up, and the rows they need.
func NewLayout(n, w, h int) Layout {
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	if cols < 1 {
		cols = 1
	}
	rows := (n + cols - 1) / cols
	return Layout{Cols: cols, Rows: rows, CellW: w, CellH: h}
}

// Len is how many tiles the layout holds: its cells, or any number on the uniform grid.
func (l Layout) Len() int {
	if l.Cells == nil {
		return l.Cols * l.Rows
	}
	return len(l.Cells)
}

// Size is the canvas's size in pixels.
func (l Layout) Size() (int, int) { return l.Cols * l.CellW, l.Rows * l.CellH }

// Cell is the i-th cell's rectangle on the canvas.
func (l Layout) Cell(i int) image.Rectangle {
	u := l.unit(i)
	return image.Rect(u.Min.X*l.CellW, u.Min.Y*l.CellH, u.Max.X*l.CellW, u.Max.Y*l.CellH)
}

// unit is the i-th cell in grid units: Cells[i], or its place on the uniform grid.
func (l Layout) unit(i int) image.Rectangle {
	if l.Cells != nil {
		return l.Cells[i]
	}
	c := max(l.Cols, 1)
	return image.Rect(i%c, i/c, i%c+1, i/c+1)
}

// Place is where a w×h picture sits in the i-th cell one pixel for one pixel: centred, at its own
// size (clipped to the cell).
func (l Layout) Place(i, w, h int) image.Rectangle {
	c := l.Cell(i)
	w, h = min(w, c.Dx()), min(h, c.Dy())
	x, y := c.Min.X+(c.Dx()-w)/2, c.Min.Y+(c.Dy()-h)/2
	return image.Rect(x, y, x+w, y+h)
}

// Fit is where a w×h picture sits in the i-th cell as a multiviewer shows it: as large as the cell
// holds, its aspect kept, centred (letterboxed or pillarboxed by the cell's rest).
func (l Layout) Fit(i, w, h int) image.Rectangle {
	c := l.Cell(i)
	return fit(w, h, c.Dx(), c.Dy()).Add(c.Min)
}

// Presets are the named layouts (ParseLayout), in grid units: one large cell and the small ones
// around it, as broadcast multiviewers offer them.
var Presets = map[string][]image.Rectangle{
	// A 3×3 grid: one cell of 2×2 at the top left, five of one unit along the right and bottom.
	"1+5": {image.Rect(0, 0, 2, 2), image.Rect(2, 0, 3, 1), image.Rect(2, 1, 3, 2),
		image.Rect(0, 2, 1, 3), image.Rect(1, 2, 2, 3), image.Rect(2, 2, 3, 3)},
	// A 4×4 grid: one cell of 3×3, seven of one unit along the right and bottom.
	"1+7": {image.Rect(0, 0, 3, 3), image.Rect(3, 0, 4, 1), image.Rect(3, 1, 4, 2), image.Rect(3, 2, 4, 3),
		image.Rect(0, 3, 1, 4), image.Rect(1, 3, 2, 4), image.Rect(2, 3, 3, 4), image.Rect(3, 3, 4, 4)},
	// A 6×4 grid: four cells of 2×2 on the left, eight of one unit in the two columns on the right.
	"2x2+8": {image.Rect(0, 0, 2, 2), image.Rect(2, 0, 4, 2), image.Rect(0, 2, 2, 4), image.Rect(2, 2, 4, 4),
		image.Rect(4, 0, 5, 1), image.Rect(5, 0, 6, 1), image.Rect(4, 1, 5, 2), image.Rect(5, 1, 6, 2),
		image.Rect(4, 2, 5, 3), image.Rect(5, 2, 6, 3), image.Rect(4, 3, 5, 4), image.Rect(5, 3, 6, 4)},
}

var gridSpec = regexp.MustCompile(`^([0-9]+)x([0-9]+)$`)

// ParseLayout reads a layout: a preset's name (Presets), COLSxROWS (a uniform grid of that size),
// or a file of one cell per line, "x y w h" in grid units ('#' begins a comment); the grid is the
// cells' bounding box. The cells' pixel size is left 0: Open sets it from the largest picture.
func ParseLayout(spec string) (Layout, error) {
	if cells, ok := Presets[spec]; ok {
		return cellsLayout(cells)
	}
	if m := gridSpec.FindStringSubmatch(spec); m != nil {
		c, _ := strconv.Atoi(m[1])
		r, _ := strconv.Atoi(m[2])
		if c < 1 || r < 1 || c > 64 || r > 64 {
			return Layout{}, fmt.Errorf("layout %q: a grid of 1 to 64 columns and rows", spec)
		}
		return Layout{Cols: c, Rows: r}, nil
	}
	f, err := os.Open(spec)
	if err != nil {
		return Layout{}, fmt.Errorf("layout %q: not a preset (%s), COLSxROWS, or a file: %w", spec, presetNames(), err)
	}
	defer f.Close()
	l, err := readLayout(f)
	if err != nil {
		return Layout{}, fmt.Errorf("layout %s: %w", spec, err)
	}
	return l, nil
}

func presetNames() string { return "1+5, 1+7, 2x2+8" }

// readLayout reads a layout file's cells.
func readLayout(r io.Reader) (Layout, error) {
	var cells []image.Rectangle
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fs := strings.Fields(line)
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 4 {
			return Layout{}, fmt.Errorf("line %d: %q: want \"x y w h\" in grid units", n, strings.TrimSpace(line))
		}
		var v [4]int
		for k, s := range fs {
			x, err := strconv.Atoi(s)
			if err != nil || x < 0 || x > 64 || (k >= 2 && x < 1) {
				return Layout{}, fmt.Errorf("line %d: %q: x and y 0 to 64, w and h 1 to 64", n, s)
			}
			v[k] = x
		}
		cells = append(cells, image.Rect(v[0], v[1], v[0]+v[2], v[1]+v[3]))
	}
	if err := sc.Err(); err != nil {
		return Layout{}, err
	}
	if len(cells) == 0 {
		return Layout{}, fmt.Errorf("no cells (one per line: x y w h)")
	}
	return cellsLayout(cells)
}

// cellsLayout is the layout of cells on their bounding box's grid, which must not overlap.
func cellsLayout(cells []image.Rectangle) (Layout, error) {
	l := Layout{Cells: append([]image.Rectangle(nil), cells...)}
	for i, c := range cells {
		l.Cols, l.Rows = max(l.Cols, c.Max.X), max(l.Rows, c.Max.Y)
		for j := range i {
			if c.Overlaps(cells[j]) {
				return Layout{}, fmt.Errorf("cells %d and %d overlap", j+1, i+1)
			}
		}
	}
	return l, nil
}
