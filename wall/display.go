package wall

import (
	"fmt"
	"image"
	"image/color"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/present/osd"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// View is what a Display shows.
type View struct {
	// Tile is the tile shown alone, scaled to the window (0-based); -1 shows the grid.
	Tile int
	// Cursor, on the grid, is the tile outlined (the one a key would pick); -1 outlines none.
	Cursor int
	// Labels draws each shown tile's label: its number and name, pictures per second, decoder (hw or
	// sw), route or upload, and conversion path.
	Labels bool
	// Paused draws the paused sign.
	Paused bool
	// Filter is the scale pass's filter.
	Filter ycbcr.Filter
	// Note, when Tile is shown alone, is one more line of its label (ycbcrwall's "no sound").
	Note string
}

// Display shows a wall in a swapchain's images: the canvas (the grid) or one tile's picture,
// copied out of the canvas into an image of its own, scaled to fit the window by the player's scale
// pass (drawn as it is where the window shows it one pixel for one pixel) and letterboxed, with the
// tiles' labels drawn over it by the on-screen display's text pass (present/osd). Its submissions go through a ring of its own on the device's queue after the
// tiles' submissions, which the canvas's barriers order them after.
type Display struct {
	w      *Wall
	dev    *gpu.Device
	ring   *stream.Ring
	done   []vk.Semaphore // per swapchain image: its rendering is done, for the presentation
	scaler *ycbcr.Scaler
	// targets are each slot's scale pass: a slot's weight table is rewritten only after its fence.
	targets []*ycbcr.ScaleTarget
	// blit draws the shown image where the window shows it one pixel for one pixel (no filter).
	blit  *ycbcr.Blit
	src   shown
	text  *osd.Pass
	quads osd.Canvas
	rates []rate
	shot  *gpu.Buffer
}

// shown is the part of the canvas a display step shows, copied into an image of its own: the scale
// pass clamps its filter at that image's edges, so a tile shown alone is filtered as the stream's
// own picture is, without its neighbours'. The copy is made again only when the rectangle shown or
// a picture in it changed since (a paused wall, an ended stream, tiles at a lower rate than the
// display steps): the image is then still in SHADER_READ_ONLY_OPTIMAL from the last copy and only
// read. The tiles cannot be drawn into the swapchain's images instead: each display step draws a
// whole image, scaled, while a tile changes only when its stream has a new picture.
type shown struct {
	image  vk.Image
	memory vk.DeviceMemory
	view   vk.ImageView
	w, h   int
	blit   *ycbcr.Binding // the blit's binding of view
	// from is the canvas rectangle last copied and pictures the count of pictures placed in it by
	// then (version); filled says a copy was recorded.
	from     image.Rectangle
	pictures int
	filled   bool
}

func (s shown) destroy(dev *gpu.Device) {
	if s.blit != nil {
		s.blit.Destroy()
	}
	if s.image != vk.NullImage {
		dev.DestroyImage2D(s.image, s.memory, s.view)
	}
}

// rate is a tile's pictures per second for its label, measured over about half a second.
type rate struct {
	at    time.Time
	shown int
	fps   float64
}

// LabelPx is the labels' text size in pixels per em.
const LabelPx = 14

// Label colours: opaque white text on a translucent black box (the paused sign's too); the
// cursor's outline.
var (
	labelText   = color.NRGBA{255, 255, 255, 255}
	labelBack   = color.NRGBA{0, 0, 0, 160}
	cursorColor = color.NRGBA{255, 200, 0, 255}
	// noSignalDim darkens a tile without signal over its last picture (about 45% left).
	noSignalDim = color.NRGBA{0, 0, 0, 140}
)

// LabelPad is the margin inside a label's box, and LabelInset the box's distance from the bottom of
// the tile's picture as shown (when it is drawn over the picture) and from the cell's edges.
const (
	LabelPad   = 3
	LabelInset = 4
)

// NewDisplay prepares w's display on its device. Close it before the wall.
func NewDisplay(w *Wall) (*Display, error) {
	d := &Display{w: w, dev: w.dev, rates: make([]rate, len(w.tiles))}
	if err := d.init(); err != nil {
		d.Close()
		return nil, fmt.Errorf("wall: display: %w", err)
	}
	return d, nil
}

func (d *Display) init() error {
	var err error
	if d.ring, err = stream.NewRing(d.dev, 2); err != nil {
		return err
	}
	d.targets = make([]*ycbcr.ScaleTarget, d.ring.Len())
	if d.scaler, err = ycbcr.NewScaler(d.dev); err != nil {
		return err
	}
	if d.blit, err = ycbcr.NewBlit(d.dev); err != nil {
		return err
	}
	if d.text, err = osd.NewPass(d.dev, LabelPx, d.ring.Len()); err != nil {
		return err
	}
	d.quads.Font = d.text.Font
	return nil
}

// Len is the number of tiles.
func (w *Wall) Len() int { return len(w.tiles) }

// Present draws v into the next image of swap and presents it. With shot it also reads that image
// back, as presented, and returns it (after waiting for the GPU). present.ErrOutOfDate says the
// swapchain must be made again (Drain first): nothing was drawn.
func (d *Display) Present(swap *present.Swapchain, v View, shot bool) (*image.RGBA, error) {
	if err := d.ring.WaitPeek(); err != nil {
		return nil, err
	}
	sl := d.ring.Peek()
	idx, err := swap.Acquire(sl.Acquire)
	if err != nil {
		return nil, err
	}
	for len(d.done) < len(swap.Images) {
		s, err := d.dev.NewSemaphore()
		if err != nil {
			return nil, err
		}
		d.done = append(d.done, s)
	}
	if sl, err = d.ring.Next(); err != nil {
		return nil, err
	}
	recErr := d.record(sl, swap, idx, v, shot)
	// Submitted and presented even when recording failed part way (its command buffer then ends
	// early, valid), so that the acquisition's semaphore is waited on and the image goes back.
	if err := d.ring.Submit(sl, sl.Acquire, d.done[idx]); err != nil {
		return nil, err
	}
	if err := swap.Present(idx, d.done[idx]); err != nil && recErr == nil {
		return nil, err
	}
	if recErr != nil || !shot {
		return nil, recErr
	}
	if err := d.ring.Wait(sl); err != nil {
		return nil, err
	}
	return d.readShot(swap), nil
}

// Drain waits for the display's submissions (before the swapchain is made again).
func (d *Display) Drain() error { return d.ring.Drain() }

// source is the canvas rectangle v shows: the whole canvas, or the tile's picture.
func (d *Display) source(v View) image.Rectangle {
	c := d.w.canvas
	if v.Tile < 0 || v.Tile >= len(d.w.tiles) {
		return image.Rect(0, 0, c.Width, c.Height)
	}
	return d.w.tiles[v.Tile].rect
}

// fit is where a w×h picture goes in a tw×th target: as large as fits, its aspect kept, centred.
func fit(w, h, tw, th int) image.Rectangle {
	vw, vh := tw, th
	if w*th > h*tw {
		vh = max(1, (tw*h+w/2)/w)
	} else {
		vw = max(1, (th*w+h/2)/h)
	}
	x, y := (tw-vw)/2, (th-vh)/2
	return image.Rect(x, y, x+vw, y+vh)
}

func (d *Display) record(sl *stream.Slot, swap *present.Swapchain, idx int, v View, shot bool) error {
	cb := sl.CB
	src := d.source(v)
	if err := d.prepare(src.Dx(), src.Dy()); err != nil {
		return err
	}
	if n := d.pictures(v); !d.src.filled || d.src.from != src || d.src.pictures != n {
		d.copyOut(cb, src)
		d.src.from, d.src.pictures, d.src.filled = src, n, true
	}
	box := fit(src.Dx(), src.Dy(), swap.Width, swap.Height)
	sv := ycbcr.Fit(src.Dx(), src.Dy(), box.Dx(), box.Dy(), formats.Orientation{}, v.Filter)
	var t *ycbcr.ScaleTarget
	if !sv.Exact() { // shown one pixel for one pixel, the picture needs no filter: the blit draws it
		var err error
		if t, err = d.target(sl.Index, sv); err != nil {
			return err
		}
		if err := t.Record(cb, sv); err != nil {
			return err
		}
	}
	gpu.BeginPass(cb, swap.RenderPass, swap.Framebuffers[idx], swap.Width, swap.Height)
	gpu.SetViewport(cb, box.Min.X, box.Min.Y, box.Dx(), box.Dy())
	var err error
	if t != nil {
		err = t.Draw(cb, swap, sv)
	} else {
		err = d.src.blit.Draw(cb, swap)
	}
	if err == nil {
		d.overlay(v, src, box, swap.Width, swap.Height)
		err = d.text.Draw(cb, sl.Index, swap, swap.Width, swap.Height, d.quads.Quads)
	}
	vk.CmdEndRenderPass(cb)
	if err != nil {
		return err
	}
	if shot {
		return d.recordShot(cb, swap, idx)
	}
	return nil
}

// prepare makes the shown image w×h when it is not (the view changed between the grid and a
// tile): the old one, and the scale targets that sample it, are freed once the submissions that
// may read them are done.
func (d *Display) prepare(w, h int) error {
	if d.src.image != vk.NullImage && d.src.w == w && d.src.h == h {
		return nil
	}
	old, targets := d.src, d.targets
	d.targets = make([]*ycbcr.ScaleTarget, len(targets))
	d.ring.RetireLast(func() {
		for _, t := range targets {
			if t != nil {
				t.Destroy()
			}
		}
		old.destroy(d.dev)
	})
	d.src = shown{w: w, h: h}
	var err error
	usage := vk.ImageUsageSampledBit | vk.ImageUsageTransferDstBit
	if d.src.image, d.src.memory, d.src.view, err = d.dev.NewImage2D(gpu.TargetFormat, w, h, usage); err != nil {
		return err
	}
	d.src.blit, err = d.blit.Bind(d.src.view)
	return err
}

// pictures counts the pictures placed in the tiles v shows: when it has not changed, neither has
// what the canvas holds there.
func (d *Display) pictures(v View) int {
	if v.Tile >= 0 && v.Tile < len(d.w.tiles) {
		return d.w.tiles[v.Tile].shown
	}
	n := 0
	for _, t := range d.w.tiles {
		n += t.shown
	}
	return n
}

// copyOut copies r of the canvas into the shown image and leaves it for the scale pass's compute
// and fragment reads. The shown image's earlier contents are discarded (UNDEFINED) after the
// earlier frame's scale pass or blit has read them.
func (d *Display) copyOut(cb vk.CommandBuffer, r image.Rectangle) {
	vkx.CmdBarrier(cb, vk.PipelineStageComputeShaderBit|vk.PipelineStageFragmentShaderBit, vk.PipelineStageTransferBit, 0, 0,
		vkx.Transition{Image: d.src.image, From: vk.ImageLayoutUndefined, To: vk.ImageLayoutTransferDstOptimal,
			DstAccess: vk.AccessTransferWriteBit})
	d.w.canvas.CopyOut(cb, r, d.src.image)
	vkx.CmdBarrier(cb, vk.PipelineStageTransferBit, vk.PipelineStageComputeShaderBit|vk.PipelineStageFragmentShaderBit, 0, 0,
		vkx.Transition{Image: d.src.image, From: vk.ImageLayoutTransferDstOptimal, To: vk.ImageLayoutShaderReadOnlyOptimal,
			SrcAccess: vk.AccessTransferWriteBit, DstAccess: vk.AccessShaderReadBit})
}

// target is slot's scale pass for view v of the shown image, made again when v does not fit it
// (the slot's earlier submission is done: the ring waited for it).
func (d *Display) target(slot int, v ycbcr.ScaleView) (*ycbcr.ScaleTarget, error) {
	if t := d.targets[slot]; t != nil && t.Fits(d.src.view, v) {
		return t, nil
	}
	if t := d.targets[slot]; t != nil {
		t.Destroy()
		d.targets[slot] = nil
	}
	t, err := d.scaler.Bind(d.src.view, v)
	if err != nil {
		return nil, err
	}
	d.targets[slot] = t
	return t, nil
}

// label is tile i's label: its number (the key that picks it) and name; the pictures it showed per
// second over the last half second or so, the pictures it dropped, its decoder (hw: Vulkan Video,
// sw: FFmpeg's software decoder), the route its hardware-decoded pictures took to the conversion
// or the upload of its software-decoded ones, and the conversion path; then its signal state when
// it is not playing (no signal and for how long, ended, error), and note, if any (View.Note).
func (d *Display) label(i int, now time.Time, note string) []string {
	t := d.w.tiles[i]
	h := t.dec.HW()
	dec := "sw " + h.Decoder
	if h.Active {
		dec = "hw " + h.Decoder
	}
	figs := fmt.Sprintf("%.1f fps · %d dropped · %s", d.rates[i].fps, t.dropped, dec)
	if t.shown > 0 {
		plan := t.st.Plan()
		if h.Active {
			figs += " · " + plan.Route.Route.String()
		} else {
			figs += " · " + plan.Upload.Upload.String()
		}
		figs += " · " + plan.Path.Path.String()
	}
	lines := []string{fmt.Sprintf("%d %s", i+1, t.in.Label), figs}
	sig := d.w.Signal(i, now)
	switch {
	case t.err != nil:
		lines = append(lines, "error")
	case t.ended:
		lines = append(lines, "ended")
	case sig.Lost:
		lines = append(lines, fmt.Sprintf("no signal · %.0f s", now.Sub(sig.Since).Seconds()))
	}
	if note != "" {
		lines = append(lines, note)
	}
	return lines
}

// measure updates the tiles' rates.
func (d *Display) measure(now time.Time) {
	for i, t := range d.w.tiles {
		r := &d.rates[i]
		switch el := now.Sub(r.at); {
		case r.at.IsZero():
			r.at, r.shown = now, t.shown
		case el >= 500*time.Millisecond:
			r.fps = float64(t.shown-r.shown) / el.Seconds()
			r.at, r.shown = now, t.shown
		}
	}
}

// labelBox is where a label box of bw×bh goes for a picture shown at r in a cell shown at cell: at
// the bottom centre, so that the picture's corners (where broadcasters put their logos, clocks and
// safe-area marks) stay visible; below the picture, in the letterbox, when the band there holds it,
// else over the picture's bottom edge; never outside the cell.
func labelBox(r, cell image.Rectangle, bw, bh int) image.Rectangle {
	x := (r.Min.X+r.Max.X)/2 - bw/2
	y := r.Max.Y - LabelInset - bh
	if band := cell.Max.Y - r.Max.Y; band >= bh {
		y = r.Max.Y + (band-bh)/2
	}
	x = max(cell.Min.X, min(x, cell.Max.X-bw))
	y = max(cell.Min.Y, min(y, cell.Max.Y-bh))
	return image.Rect(x, y, x+bw, y+bh)
}

// overlay collects the frame's quads: each tile's dimming when its signal is lost, the labels, the
// cursor's outline, the paused sign.
func (d *Display) overlay(v View, src, box image.Rectangle, tw, th int) {
	c := &d.quads
	c.Reset()
	now := time.Now()
	d.measure(now)
	shownTiles := []int{v.Tile}
	if v.Tile < 0 {
		shownTiles = shownTiles[:0]
		for i := range d.w.tiles {
			shownTiles = append(shownTiles, i)
		}
	}
	for _, i := range shownTiles {
		r, cell := box, image.Rect(0, 0, tw, th)
		if v.Tile < 0 {
			r = scaleRect(d.w.tiles[i].rect, src, box)
			cell = scaleRect(d.w.Layout.Cell(i), src, box)
		}
		if d.w.Signal(i, now).Lost {
			c.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y, noSignalDim)
		}
		if v.Tile < 0 && i == v.Cursor {
			const b = 2
			c.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+b, cursorColor)
			c.Rect(r.Min.X, r.Max.Y-b, r.Max.X, r.Max.Y, cursorColor)
			c.Rect(r.Min.X, r.Min.Y+b, r.Min.X+b, r.Max.Y-b, cursorColor)
			c.Rect(r.Max.X-b, r.Min.Y+b, r.Max.X, r.Max.Y-b, cursorColor)
		}
		if v.Labels {
			// As much of the label as the cell holds: cut to its width, its last lines left out
			// (the name first).
			note := ""
			if v.Tile >= 0 {
				note = v.Note
			}
			lines := c.Font.Fit(d.label(i, now, note), cell.Dx()-2*LabelInset-2*LabelPad)
			lines = lines[:max(0, min(len(lines), (cell.Dy()-2*LabelInset-2*LabelPad)/c.Font.LineHeight))]
			if len(lines) == 0 {
				continue
			}
			bw := 0
			for _, l := range lines {
				bw = max(bw, c.Font.Width(l))
			}
			lb := labelBox(r, cell, bw+2*LabelPad, len(lines)*c.Font.LineHeight+2*LabelPad)
			c.Rect(lb.Min.X, lb.Min.Y, lb.Max.X, lb.Max.Y, labelBack)
			for k, l := range lines { // each line centred
				c.Text((lb.Min.X+lb.Max.X-c.Font.Width(l))/2, lb.Min.Y+LabelPad+k*c.Font.LineHeight, l, labelText)
			}
		}
	}
	if v.Paused {
		const s = "paused"
		w := c.Font.Width(s) + 2*LabelPad
		c.Panel(tw-w-LabelInset, th-c.Font.LineHeight-2*LabelPad-LabelInset, LabelPad, []string{s}, labelText, labelBack)
	}
}

// scaleRect is r of src as shown in box.
func scaleRect(r, src, box image.Rectangle) image.Rectangle {
	x := func(v int) int { return box.Min.X + (v-src.Min.X)*box.Dx()/src.Dx() }
	y := func(v int) int { return box.Min.Y + (v-src.Min.Y)*box.Dy()/src.Dy() }
	return image.Rect(x(r.Min.X), y(r.Min.Y), x(r.Max.X), y(r.Max.Y))
}

// recordShot copies swapchain image idx, after its render pass (in PRESENT_SRC_KHR), into the shot
// buffer for the host, and gives it back to the presentation in PRESENT_SRC_KHR.
func (d *Display) recordShot(cb vk.CommandBuffer, swap *present.Swapchain, idx int) error {
	if swap.Format != vk.FormatB8g8r8a8Unorm && swap.Format != vk.FormatR8g8b8a8Unorm {
		return fmt.Errorf("a window screenshot reads 8-bit RGBA or BGRA images, not VkFormat %d", swap.Format)
	}
	size := swap.Width * swap.Height * 4
	if d.shot == nil || d.shot.Size < size {
		if d.shot != nil {
			d.shot.Destroy() // not in use: every shot's slot was waited for
			d.shot = nil
		}
		var err error
		if d.shot, err = d.dev.NewBuffer(size, vk.BufferUsageTransferDstBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit); err != nil {
			return err
		}
	}
	img := swap.Images[idx]
	vkx.CmdBarrier(cb, vk.PipelineStageColorAttachmentOutputBit, vk.PipelineStageTransferBit, 0, 0,
		vkx.Transition{Image: img, From: vk.ImageLayoutPresentSrc, To: vk.ImageLayoutTransferSrcOptimal,
			SrcAccess: vk.AccessColorAttachmentWriteBit, DstAccess: vk.AccessTransferReadBit})
	vkx.CmdCopyImageToBuffer(cb, img, vk.ImageLayoutTransferSrcOptimal, d.shot.Handle, swap.Width, swap.Height)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
	vkx.CmdBarrier(cb, vk.PipelineStageTransferBit, vk.PipelineStageBottomOfPipeBit, 0, 0,
		vkx.Transition{Image: img, From: vk.ImageLayoutTransferSrcOptimal, To: vk.ImageLayoutPresentSrc})
	return nil
}

// readShot is the shot buffer as RGBA (the swapchain's B8G8R8A8 swizzled).
func (d *Display) readShot(swap *present.Swapchain) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, swap.Width, swap.Height))
	copy(img.Pix, d.shot.Bytes())
	bgra := swap.Format == vk.FormatB8g8r8a8Unorm
	for i := 0; i < len(img.Pix); i += 4 {
		if bgra {
			img.Pix[i], img.Pix[i+2] = img.Pix[i+2], img.Pix[i]
		}
		img.Pix[i+3] = 255
	}
	return img
}

// Close waits for the display's submissions and frees it; the wall stays.
func (d *Display) Close() {
	if d.ring != nil {
		d.ring.Close() // runs the retired frees
	}
	for _, t := range d.targets {
		if t != nil {
			t.Destroy()
		}
	}
	d.src.destroy(d.dev)
	if d.scaler != nil {
		d.scaler.Destroy()
	}
	if d.blit != nil {
		d.blit.Destroy()
	}
	if d.text != nil {
		d.text.Destroy()
	}
	if d.shot != nil {
		d.shot.Destroy()
	}
	for _, s := range d.done {
		vk.DestroySemaphore(d.dev.Device, s, nil)
	}
}

// TileAt is the tile whose cell holds (x, y) of a tw×th target showing the grid, or -1.
func (d *Display) TileAt(x, y, tw, th int) int {
	c := d.w.canvas
	src := image.Rect(0, 0, c.Width, c.Height)
	box := fit(src.Dx(), src.Dy(), tw, th)
	for i := range d.w.tiles {
		if image.Pt(x, y).In(scaleRect(d.w.Layout.Cell(i), src, box)) {
			return i
		}
	}
	return -1
}
