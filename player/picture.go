package player

import (
	"fmt"
	"image"
	"os"
	"path/filepath"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/app/picfile"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

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
	if img, err = p.shotSubtitles(img); err != nil {
		return err
	}
	return writeScreenshot(path, img)
}

// windowShot writes the headless target as the last frame drew it (-screenshot-window): the
// picture as shown, scaled and letterboxed, what engines drawing into an image of theirs compare
// with (videotex's TestDrawInto).
func (p *Player) windowShot(path string) error {
	if p.off == nil {
		return fmt.Errorf("-screenshot-window needs -headless")
	}
	if p.last == nil {
		return fmt.Errorf("no frame was presented: nothing to write to %s", path)
	}
	if err := vkx.Check(vk.QueueWaitIdle(p.dev.Queue), "vkQueueWaitIdle"); err != nil {
		return err
	}
	if err := p.dev.Submit(func(cb vk.CommandBuffer) { p.off.RecordReadback(cb) }); err != nil {
		return err
	}
	return writeScreenshot(path, p.off.RGBA())
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
	return picfile.Write(path, rgb)
}
