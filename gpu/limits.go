package gpu

import "fmt"

// CheckImageSize refuses a 2D image of width×height that the device cannot make: a side past
// maxImageDimension2D (VUID-VkImageCreateInfo-extent-02252), or not positive. The error names the
// limit, so that a picture too large for the device fails at once in one line instead of in the
// driver or the validation layer.
func (d *Device) CheckImageSize(width, height int) error {
	lim := int(d.Limits.MaxImageDimension2D)
	switch {
	case width <= 0 || height <= 0:
		return fmt.Errorf("gpu: image size %d×%d: must be positive", width, height)
	case lim > 0 && (width > lim || height > lim):
		return fmt.Errorf("gpu: a %d×%d picture is larger than the device's maxImageDimension2D (%d)", width, height, lim)
	}
	return nil
}
