package wall

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// newCanvas makes the w×h canvas, the image every tile is drawn or computed into: a gpu.Offscreen of
// the Copied and Storage kind, which rests in GENERAL, where the compute variant writes each tile's
// picture straight into its rectangle (stream.Config.Into), so that placing a tile changes no
// layout of the whole image (tiles placed from different queues would otherwise be hazards of each
// other); a drawn tile's pass loads it over the tile's rectangle alone (Offscreen.BeginArea) so
// that drawing one tile keeps the others, and its read-back and the display's copy take it to
// TRANSFER_SRC_OPTIMAL and back. The wall's first submission clears it.
func newCanvas(dev *gpu.Device, w, h int) (*gpu.Offscreen, error) {
	if err := dev.CheckImageSize(w, h); err != nil {
		return nil, fmt.Errorf("wall: canvas: %w: fewer or smaller videos", err)
	}
	c, err := dev.NewComputedOffscreen(w, h)
	if err != nil {
		return nil, fmt.Errorf("wall: canvas: %w", err)
	}
	return c, nil
}
