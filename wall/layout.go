package wall

import (
	"image"
	"math"
)

// Layout is the grid the tiles are placed on: Cols×Rows cells of CellW×CellH pixels, filled row by
// row; each picture sits in its cell's centre at its own size.
type Layout struct {
	Cols, Rows   int
	CellW, CellH int
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

// Cell is the i-th cell's rectangle on the canvas.
func (l Layout) Cell(i int) image.Rectangle {
	x, y := (i%l.Cols)*l.CellW, (i/l.Cols)*l.CellH
	return image.Rect(x, y, x+l.CellW, y+l.CellH)
}

// Place is where a w×h picture sits in the i-th cell: centred, at its own size (clipped to the cell).
func (l Layout) Place(i, w, h int) image.Rectangle {
	c := l.Cell(i)
	w, h = min(w, l.CellW), min(h, l.CellH)
	x, y := c.Min.X+(l.CellW-w)/2, c.Min.Y+(l.CellH-h)/2
	return image.Rect(x, y, x+w, y+h)
}
