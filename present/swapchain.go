package present

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// ErrOutOfDate says the swapchain no longer matches its surface: recreate it and draw again.
var ErrOutOfDate = errors.New("present: swapchain out of date")

// Swapchain presents to a surface (a window's, or a headless one). Its format is always UNORM: the
// conversion's output is already non-linear R′G′B′.
type Swapchain struct {
	Surface       vk.Surface
	Handle        vk.Swapchain
	Format        vk.Format
	Width, Height int
	PresentMode   vk.PresentMode
	Images        []vk.Image
	Views         []vk.ImageView
	Framebuffers  []vk.Framebuffer
	RenderPass    vk.RenderPass
	// LoadPass draws over what compute shaders wrote into an image (gpu.Device.NewLoadPass), with
	// Framebuffers; used when Storage.
	LoadPass vk.RenderPass
	// Storage says the images were made with STORAGE usage, for the scale pass to write them from
	// compute (ycbcr.ScaleTarget.RecordInto); NoStorage says why not, when they were not.
	Storage   bool
	NoStorage string
	// Suboptimal is set when the last acquire or present said the swapchain still works but no longer
	// matches the surface exactly (a resize in progress): recreate at the next chance.
	Suboptimal bool
	// Immediate asks for a present mode without vertical sync (MAILBOX, else IMMEDIATE).
	Immediate bool
	// ColorSpace is the images' colour space: sRGB non-linear (SDR), or HDR10 ST 2084 when asked
	// for (SwapchainOptions.HDR10).
	ColorSpace vk.ColorSpace
	// HDRMetadata is what the display was last given (SetHDRMetadata), and HDRMetadataNote what
	// became of it: "" until then, else sent, or why not.
	HDRMetadata     formats.HDRMetadata
	HDRMetadataNote string
	hdrSet          bool
	dev             *gpu.Device
}

// SwapchainOptions choose the swapchain; the zero value is an SDR swapchain with vertical sync.
type SwapchainOptions struct {
	Immediate bool // present without vertical sync (MAILBOX, else IMMEDIATE)
	// HDR10 asks for a surface format of HDR10Formats: the images then hold PQ-encoded BT.2020
	// (ycbcr.OutputHDR10). Without one NewSwapchain fails, naming what is missing.
	HDR10 bool
}

// HDR10Formats are the surface formats that show HDR10, in preference order:
// VK_COLOR_SPACE_HDR10_ST2084_EXT (VK_EXT_swapchain_colorspace: ST 2084 with BT.2020 primaries)
// with a 10-bit UNORM or a half-float format (Vulkan spec, "VkColorSpaceKHR"). The shader path
// writes PQ values 0..1, which each of them stores as they are.
var HDR10Formats = []vk.SurfaceFormat{
	{Format: vk.FormatA2b10g10r10UnormPack32, ColorSpace: vk.ColorSpaceHdr10St2084},
	{Format: vk.FormatA2r10g10b10UnormPack32, ColorSpace: vk.ColorSpaceHdr10St2084},
	{Format: vk.FormatR16g16b16a16Sfloat, ColorSpace: vk.ColorSpaceHdr10St2084},
}

// Pass is the render pass drawing into the swapchain and its colour format.
func (s *Swapchain) Pass() (vk.RenderPass, vk.Format) { return s.RenderPass, s.Format }

// NewSwapchain creates a swapchain for surface of about width×height (the surface's own extent wins
// when it has one); OpenWindow makes a window's.
func NewSwapchain(d *gpu.Device, surface vk.Surface, width, height int, o SwapchainOptions) (*Swapchain, error) {
	var ok vk.Bool32
	vk.GetPhysicalDeviceSurfaceSupport(d.Physical, d.QueueFamily, surface, &ok)
	if ok == vk.False {
		return nil, fmt.Errorf("present: queue family %d of %s cannot present to this surface", d.QueueFamily, d.Info.Name)
	}
	s := &Swapchain{Surface: surface, dev: d, Immediate: o.Immediate, ColorSpace: vk.ColorSpaceSrgbNonlinear}
	pick := s.pickFormat
	if o.HDR10 {
		pick = s.pickHDR10
	}
	if err := pick(); err != nil {
		return nil, err
	}
	rp, err := d.NewRenderPass(s.Format, vk.ImageLayoutPresentSrc)
	if err != nil {
		return nil, fmt.Errorf("present: %w", err)
	}
	s.RenderPass = rp
	if s.LoadPass, err = d.NewLoadPass(s.Format, vk.ImageLayoutPresentSrc); err != nil {
		s.Destroy()
		return nil, fmt.Errorf("present: %w", err)
	}
	if err := s.Recreate(width, height); err != nil {
		s.Destroy()
		return nil, err
	}
	return s, nil
}

// surfaceFormats lists the surface's formats.
func (s *Swapchain) surfaceFormats() []vk.SurfaceFormat {
	var n uint32
	vk.GetPhysicalDeviceSurfaceFormats(s.dev.Physical, s.Surface, &n, nil)
	fs := make([]vk.SurfaceFormat, n)
	vkx.NoGC(func() { vk.GetPhysicalDeviceSurfaceFormats(s.dev.Physical, s.Surface, &n, fs) })
	for i := range fs[:n] {
		fs[i].Deref()
	}
	return fs[:n]
}

// pickHDR10 takes the first of HDR10Formats the surface offers, or says what is missing.
func (s *Swapchain) pickHDR10() error {
	fs := s.surfaceFormats()
	for _, want := range HDR10Formats {
		for _, f := range fs {
			if f.Format == want.Format && f.ColorSpace == want.ColorSpace {
				s.Format, s.ColorSpace = f.Format, f.ColorSpace
				return nil
			}
		}
	}
	var missing []string
	if !slices.Contains(s.dev.InstanceExtensions, gpu.ExtSwapchainColorspace) {
		missing = append(missing, "the instance has no "+gpu.ExtSwapchainColorspace)
	}
	spaces := map[vk.ColorSpace]bool{}
	for _, f := range fs {
		spaces[f.ColorSpace] = true
	}
	var names []string
	for c := range spaces {
		names = append(names, colorSpaceName(c))
	}
	slices.Sort(names)
	missing = append(missing, fmt.Sprintf("the surface offers no VK_COLOR_SPACE_HDR10_ST2084_EXT format (A2B10G10R10_UNORM, A2R10G10B10_UNORM or R16G16B16A16_SFLOAT), only %s",
		strings.Join(names, ", ")))
	return fmt.Errorf("present: no HDR10 output on %s: %s", s.dev.Info.Name, strings.Join(missing, "; "))
}

func colorSpaceName(c vk.ColorSpace) string {
	switch c {
	case vk.ColorSpaceSrgbNonlinear:
		return "SRGB_NONLINEAR"
	case vk.ColorSpaceHdr10St2084:
		return "HDR10_ST2084"
	}
	return fmt.Sprintf("colour space %d", int(c))
}

func (s *Swapchain) pickFormat() error {
	fs := s.surfaceFormats()
	for _, want := range []vk.Format{vk.FormatB8g8r8a8Unorm, vk.FormatR8g8b8a8Unorm, vk.FormatA2b10g10r10UnormPack32} {
		for _, f := range fs {
			if f.Format == want && f.ColorSpace == vk.ColorSpaceSrgbNonlinear {
				s.Format = want
				return nil
			}
		}
	}
	return fmt.Errorf("present: the surface offers no UNORM format (an _SRGB one would encode the gamma twice)")
}

func (s *Swapchain) presentMode() vk.PresentMode {
	if !s.Immediate {
		return vk.PresentModeFifo // always supported
	}
	var n uint32
	vk.GetPhysicalDeviceSurfacePresentModes(s.dev.Physical, s.Surface, &n, nil)
	modes := make([]vk.PresentMode, n)
	vk.GetPhysicalDeviceSurfacePresentModes(s.dev.Physical, s.Surface, &n, modes)
	best := vk.PresentModeFifo
	for _, m := range modes[:n] {
		if m == vk.PresentModeMailbox {
			return m
		}
		if m == vk.PresentModeImmediate {
			best = m
		}
	}
	return best
}

// Recreate builds the swapchain anew for the surface's current size (width×height when the surface
// leaves it to the application). A zero-size surface (a minimised window) leaves it without images:
// Acquire then reports ErrOutOfDate until the size is back. The caller first waits for the fences
// of the frames that drew into the old images (the player drains its ring): their framebuffers are
// destroyed here.
func (s *Swapchain) Recreate(width, height int) error {
	d := s.dev
	var caps vk.SurfaceCapabilities
	if err := vkx.Check(vk.GetPhysicalDeviceSurfaceCapabilities(d.Physical, s.Surface, &caps), "vkGetPhysicalDeviceSurfaceCapabilitiesKHR"); err != nil {
		return fmt.Errorf("present: %w", err)
	}
	caps.Deref()
	caps.CurrentExtent.Deref()
	caps.MinImageExtent.Deref()
	caps.MaxImageExtent.Deref()
	ext := caps.CurrentExtent
	if ext.Width == 0xFFFFFFFF { // the surface takes the size of the swapchain
		ext.Width = uint32(min(max(width, int(caps.MinImageExtent.Width)), int(caps.MaxImageExtent.Width)))
		ext.Height = uint32(min(max(height, int(caps.MinImageExtent.Height)), int(caps.MaxImageExtent.Height)))
	}
	s.destroyImages()
	if ext.Width == 0 || ext.Height == 0 {
		s.Width, s.Height = 0, 0
		return nil
	}
	count := caps.MinImageCount + 1
	if caps.MaxImageCount > 0 && count > caps.MaxImageCount {
		count = caps.MaxImageCount
	}
	s.PresentMode = s.presentMode()
	usage := vk.ImageUsageColorAttachmentBit | vk.ImageUsageTransferSrcBit
	if s.Storage, s.NoStorage = s.storage(caps); s.Storage {
		usage |= vk.ImageUsageStorageBit
	}
	old := s.Handle
	ci := &vk.SwapchainCreateInfo{
		SType: vk.StructureTypeSwapchainCreateInfo, Surface: s.Surface, MinImageCount: count,
		ImageFormat: s.Format, ImageColorSpace: s.ColorSpace, ImageExtent: ext, ImageArrayLayers: 1,
		ImageUsage:       vk.ImageUsageFlags(usage),
		ImageSharingMode: vk.SharingModeExclusive, PreTransform: caps.CurrentTransform,
		CompositeAlpha: vk.CompositeAlphaOpaqueBit, PresentMode: s.PresentMode, Clipped: vk.True, OldSwapchain: old,
	}
	var sc vk.Swapchain
	err := vkx.Check(vk.CreateSwapchain(d.Device, ci, nil, &sc), "vkCreateSwapchainKHR")
	ci.Free()
	if old != vk.NullSwapchain {
		vk.DestroySwapchain(d.Device, old, nil)
		s.Handle = vk.NullSwapchain
	}
	if err != nil {
		return fmt.Errorf("present: %w", err)
	}
	s.Handle = sc
	s.Width, s.Height = int(ext.Width), int(ext.Height)
	var n uint32
	vk.GetSwapchainImages(d.Device, sc, &n, nil)
	s.Images = make([]vk.Image, n)
	vk.GetSwapchainImages(d.Device, sc, &n, s.Images)
	for _, img := range s.Images {
		v, err := d.NewView(img, s.Format, vk.ImageAspectColorBit, nil)
		if err != nil {
			return fmt.Errorf("present: %w", err)
		}
		s.Views = append(s.Views, v)
		fb, err := d.NewFramebuffer(s.RenderPass, int(ext.Width), int(ext.Height), v)
		if err != nil {
			return fmt.Errorf("present: %w", err)
		}
		s.Framebuffers = append(s.Framebuffers, fb)
	}
	s.Suboptimal = false
	if s.hdrSet { // the metadata belongs to the swapchain object: a new one needs it again
		if err := s.sendHDRMetadata(); err != nil {
			return err
		}
	}
	return nil
}

// HDRMetadataEXT is h as VkHdrMetadataEXT has it: the mastering display's primaries (red, green,
// blue) and white point as xy, its maximum and minimum luminance, MaxCLL and MaxFALL, in cd/m².
// SMPTE ST 2086 codes chromaticities in steps of 0.00002 and luminance in steps of 0.0001 cd/m²
// (and CTA-861.3 content light levels in 1 cd/m²); FFmpeg's AVMasteringDisplayMetadata keeps them
// as those fractions, which decode has already turned into xy and cd/m². Absent items stay 0,
// "unknown" in CTA-861.3's static metadata.
func HDRMetadataEXT(h formats.HDRMetadata) vkx.HDRMetadata {
	xy := func(v [2]float64) vkx.XY { return vkx.XY{X: float32(v[0]), Y: float32(v[1])} }
	return vkx.HDRMetadata{
		Red: xy(h.Primaries[0]), Green: xy(h.Primaries[1]), Blue: xy(h.Primaries[2]), White: xy(h.WhitePoint),
		MaxLuminance: float32(h.MaxLuminance), MinLuminance: float32(h.MinLuminance),
		MaxCLL: float32(h.MaxCLL), MaxFALL: float32(h.MaxFALL),
	}
}

// SetHDRMetadata gives an HDR10 swapchain's display the stream's static metadata (VK_EXT_hdr_metadata),
// now and after every Recreate; nothing happens when h is what it already has. An SDR swapchain
// ignores it; on an HDR10 one, a device without the extension or a stream without metadata leaves
// the display to its defaults, and HDRMetadataNote says which.
func (s *Swapchain) SetHDRMetadata(h formats.HDRMetadata) error {
	if s.hdrSet && h == s.HDRMetadata {
		return nil
	}
	s.HDRMetadata, s.hdrSet = h, true
	return s.sendHDRMetadata()
}

func (s *Swapchain) sendHDRMetadata() error {
	switch {
	case s.ColorSpace != vk.ColorSpaceHdr10St2084: // SDR: the display has no use for it
		s.HDRMetadataNote = ""
		return nil
	case !s.dev.Extensions[gpu.ExtHDRMetadata]:
		s.HDRMetadataNote = "not sent: " + s.dev.Info.Name + " has no " + gpu.ExtHDRMetadata
		return nil
	case s.HDRMetadata == (formats.HDRMetadata{}):
		s.HDRMetadataNote = "not sent: the stream has none"
		return nil
	case s.Handle == vk.NullSwapchain:
		return nil // minimised: sent when Recreate makes the swapchain again
	}
	if err := vkx.SetHDRMetadata(s.dev.Device, s.Handle, HDRMetadataEXT(s.HDRMetadata)); err != nil {
		return fmt.Errorf("present: %w", err)
	}
	s.HDRMetadataNote = "sent: " + s.HDRMetadata.String()
	return nil
}

// storage says whether the images can be made with STORAGE usage for the scale pass to write them
// from compute, or why not: the surface must allow it (VkSurfaceCapabilitiesKHR::supportedUsageFlags,
// VUID-VkSwapchainCreateInfoKHR-imageUsage-01276), the device must have storage images of the format
// with optimal tiling (VUID-VkImageCreateInfo-usage-00002 of the images the swapchain makes), and
// the pass must write that format (ycbcr.CanScaleInto: its shader's rgba8).
func (s *Swapchain) storage(caps vk.SurfaceCapabilities) (bool, string) {
	switch {
	case caps.SupportedUsageFlags&vk.ImageUsageFlags(vk.ImageUsageStorageBit) == 0:
		return false, "the surface does not allow storage images"
	case !ycbcr.CanScaleInto(s.Format):
		return false, fmt.Sprintf("the swapchain's format %s is not the rgba8 the compute pass writes", formatName(s.Format))
	case !s.dev.StorageFormat(s.Format):
		return false, fmt.Sprintf("the device has no storage images of the swapchain's format %s", formatName(s.Format))
	}
	return true, ""
}

// formatName names the swapchain formats the toolkit picks.
func formatName(f vk.Format) string {
	switch f {
	case vk.FormatB8g8r8a8Unorm:
		return "B8G8R8A8_UNORM"
	case vk.FormatR8g8b8a8Unorm:
		return "R8G8B8A8_UNORM"
	case vk.FormatA2b10g10r10UnormPack32:
		return "A2B10G10R10_UNORM_PACK32"
	case vk.FormatA2r10g10b10UnormPack32:
		return "A2R10G10B10_UNORM_PACK32"
	case vk.FormatR16g16b16a16Sfloat:
		return "R16G16B16A16_SFLOAT"
	}
	return fmt.Sprintf("VkFormat %d", f)
}

// Acquire gets the next image to draw into, signalling sem when it is ready.
func (s *Swapchain) Acquire(sem vk.Semaphore) (int, error) {
	if s.Handle == vk.NullSwapchain || s.Width == 0 {
		return 0, ErrOutOfDate
	}
	var idx uint32
	switch r := vk.AcquireNextImage(s.dev.Device, s.Handle, ^uint64(0), sem, vk.NullFence, &idx); r {
	case vk.Success:
	case vk.Suboptimal:
		s.Suboptimal = true
	case vk.ErrorOutOfDate:
		return 0, ErrOutOfDate
	default:
		return 0, fmt.Errorf("present: %w", vkx.Check(r, "vkAcquireNextImageKHR"))
	}
	return int(idx), nil
}

// Present queues image idx for display once wait is signalled.
func (s *Swapchain) Present(idx int, wait vk.Semaphore) error {
	// Under the queue's lock: the queue may be shared with FFmpeg's Vulkan decoding (gpu.Options.Video).
	r := vkx.QueuePresent(s.dev.Queue, s.Handle, idx, wait)
	switch r {
	case vk.Success:
		return nil
	case vk.Suboptimal:
		s.Suboptimal = true
		return nil
	case vk.ErrorOutOfDate:
		return ErrOutOfDate
	}
	return fmt.Errorf("present: %w", vkx.Check(r, "vkQueuePresentKHR"))
}

func (s *Swapchain) destroyImages() {
	d := s.dev.Device
	for _, fb := range s.Framebuffers {
		vk.DestroyFramebuffer(d, fb, nil)
	}
	for _, v := range s.Views {
		vk.DestroyImageView(d, v, nil)
	}
	s.Framebuffers, s.Views, s.Images = nil, nil, nil
}

// Destroy releases the swapchain (not the surface, which belongs to the window).
func (s *Swapchain) Destroy() {
	d := s.dev.Device
	vkx.DeviceWaitIdle(d)
	s.destroyImages()
	if s.Handle != vk.NullSwapchain {
		vk.DestroySwapchain(d, s.Handle, nil)
		s.Handle = vk.NullSwapchain
	}
	for _, rp := range []*vk.RenderPass{&s.RenderPass, &s.LoadPass} {
		if *rp != vk.NullRenderPass {
			vk.DestroyRenderPass(d, *rp, nil)
			*rp = vk.NullRenderPass
		}
	}
}
