package planes

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Upload names a way a frame's planes get into an Image.
type Upload int

const (
	// UploadAuto picks the fastest way the device offers for the frame: direct, then import, then copy.
	UploadAuto Upload = iota
	// UploadCopy copies the planes on the CPU into a staging buffer (Stage), then the GPU copies
	// them into the images. Works for every frame; LSB-aligned data for the sampler path is shifted
	// while it is copied.
	UploadCopy
	// UploadImport imports the frame's own memory as buffers (VK_EXT_external_memory_host) and the
	// GPU copies from there: no CPU copy. LSB-aligned data for the sampler path is shifted by a
	// compute pass on the way (shift.go).
	UploadImport
	// UploadDirect binds the frame's memory as the planes of a LINEAR disjoint image and samples it
	// in place: no copy at all, from the second frame in a given memory on (direct.go). Only when
	// asked for; Can and Load say why it is not possible.
	UploadDirect
)

var uploadNames = [...]string{"auto", "copy", "import", "direct"}

func (u Upload) String() string {
	if u >= 0 && int(u) < len(uploadNames) {
		return uploadNames[u]
	}
	return fmt.Sprintf("Upload(%d)", int(u))
}

// ParseUpload reads an upload name: auto, copy, import or direct.
func ParseUpload(s string) (Upload, error) {
	for i, n := range uploadNames {
		if s == n {
			return Upload(i), nil
		}
	}
	return 0, fmt.Errorf("planes: upload %q: want %s", s, strings.Join(uploadNames[:], ", "))
}

// ErrUnavailable is wrapped by the errors that say why an upload path cannot take a frame.
var ErrUnavailable = errors.New("upload path unavailable")

type unavailableError struct{ reason string }

func (e *unavailableError) Error() string        { return e.reason }
func (e *unavailableError) Is(target error) bool { return target == ErrUnavailable }

func unavailable(format string, args ...any) error {
	return &unavailableError{fmt.Sprintf(format, args...)}
}

// Loaded says how Load put a frame on the GPU.
type Loaded struct {
	Upload   Upload // the path taken: UploadCopy or UploadImport
	CPUBytes int    // bytes the CPU copied for this frame (0 for import)
	Reason   string // why this path; for UploadAuto, why not the faster ones
}

// Load records the upload of f into every image of im on cb, by the path how asks for, and leaves
// the images in SHADER_READ_ONLY_OPTIMAL for the fragment shader.
//
// Like Stage, Load must not run while a submission that used im's previous load may still execute:
// wait for that submission's fence first. Load takes that as the sign that the GPU is done with the
// memory the previous load imported (see Importer). For the import path, f's memory must stay
// valid and unmodified until the GPU has executed cb (the same rule as for a decoder frame that is
// being copied from); the image holds the imports it used until its next Load or Done.
//
// Steady-state frames (same layout, cache hits) allocate nothing.
func (im *Image) Load(cb vk.CommandBuffer, f *formats.Frame, how Upload) (Loaded, error) {
	if err := im.matches(f); err != nil {
		return Loaded{}, err
	}
	im.Done()
	im.direct.current = nil
	switch how {
	case UploadCopy:
		return im.loadCopy(cb, f, "asked for")
	case UploadImport:
		p := im.planFor(f)
		if p.importErr != nil {
			return Loaded{}, fmt.Errorf("planes: import %s %dx%d: %w", f.Format.Name, f.Width, f.Height, p.importErr)
		}
		if err := im.recordImport(cb, f); err != nil {
			return Loaded{}, err
		}
		return Loaded{Upload: UploadImport, Reason: "asked for"}, nil
	case UploadDirect:
		if err := im.planFor(f).directErr; err != nil {
			return Loaded{}, fmt.Errorf("planes: direct %s %dx%d: %w", f.Format.Name, f.Width, f.Height, err)
		}
		return im.loadDirect(cb, f)
	case UploadAuto:
		p := im.planFor(f)
		if p.importErr == nil {
			err := im.recordImport(cb, f)
			if err == nil {
				return Loaded{Upload: UploadImport, Reason: p.autoReason}, nil
			}
			im.Done()
			return im.loadCopy(cb, f, "copy: import failed: "+err.Error())
		}
		return im.loadCopy(cb, f, p.autoReason)
	}
	return Loaded{}, fmt.Errorf("planes: load: unknown upload %v", how)
}

// Can says whether how can take f into im: nil, or an error wrapping ErrUnavailable with the reason.
func (im *Image) Can(f *formats.Frame, how Upload) error {
	if err := im.matches(f); err != nil {
		return err
	}
	switch how {
	case UploadCopy, UploadAuto:
		return nil
	case UploadImport:
		return im.planFor(f).importErr
	case UploadDirect:
		return im.planFor(f).directErr
	}
	return fmt.Errorf("planes: unknown upload %v", how)
}

// Done tells im that the GPU has finished every submission that used its last Load, so the host
// memory that load imported may be forgotten (Importer.Forget) and freed. Load does it itself.
func (im *Image) Done() { im.imported.done() }

// done drops the holds of the last load on the import cache.
func (u *importUpload) done() {
	for i := 0; i < u.npinned; i++ {
		u.cache.release(u.pinned[i])
		u.pinned[i] = nil
	}
	u.npinned = 0
}

// use makes p the import cache (nil: none), destroying the one made for the image itself.
func (u *importUpload) use(p *Importer) {
	u.done()
	if u.own && u.cache != nil {
		u.cache.Destroy()
	}
	u.cache, u.own = p, false
}

// SetImporter makes im import through p, shared with other images (one cache for a decoder's
// buffers however many frames are in flight). The GPU must be done with im's previous loads.
func (im *Image) SetImporter(p *Importer) {
	im.imported.use(p)
	im.plan.valid = false
}

// Importer is the import cache im uses (nil before the first import unless set).
func (im *Image) Importer() *Importer { return im.imported.cache }

func (im *Image) matches(f *formats.Frame) error {
	if f.Format != im.Format || f.Width != im.Width || f.Height != im.Height {
		return fmt.Errorf("planes: load %s %dx%d into %s %dx%d image", f.Format.Name, f.Width, f.Height,
			im.Format.Name, im.Width, im.Height)
	}
	if len(f.Planes) != len(im.Format.Planes) || len(f.Strides) != len(im.Format.Planes) {
		return fmt.Errorf("planes: %s frame has %d planes, %d strides: want %d", f.Format.Name, len(f.Planes),
			len(f.Strides), len(im.Format.Planes))
	}
	for i, p := range im.Format.Planes {
		w, h := im.Format.PlaneSize(i, f.Width, f.Height)
		if row := w * p.BytesPerTexel; f.Strides[i] < row || len(f.Planes[i]) < (h-1)*f.Strides[i]+row {
			return fmt.Errorf("planes: plane %d: %d bytes with stride %d cannot hold %dx%d texels", i, len(f.Planes[i]),
				f.Strides[i], w, h)
		}
	}
	return nil
}

func (im *Image) loadCopy(cb vk.CommandBuffer, f *formats.Frame, reason string) (Loaded, error) {
	if err := im.Stage(f); err != nil {
		return Loaded{}, err
	}
	im.RecordUpload(cb)
	return Loaded{Upload: UploadCopy, CPUBytes: im.StagedBytes(), Reason: reason}, nil
}

// frameShape is what the path decisions depend on: the same shape gets the same answer, so the
// reasons are built once per stream, not per frame.
type frameShape struct {
	strides [maxPlanes]int
	lens    [maxPlanes]int
	offsets [maxPlanes]uintptr // address modulo the import alignment (the page)
}

type loadPlan struct {
	valid      bool
	shape      frameShape
	importErr  error
	directErr  error
	autoReason string
}

func (im *Image) shape(f *formats.Frame) frameShape {
	align := uintptr(4096)
	if im.imported.cache != nil {
		align = uintptr(im.imported.cache.align)
	}
	var s frameShape
	for i, p := range f.Planes {
		s.strides[i], s.lens[i] = f.Strides[i], len(p)
		if len(p) > 0 {
			s.offsets[i] = uintptr(unsafe.Pointer(&p[0])) & (align - 1)
		}
	}
	return s
}

// planFor decides, once per frame shape, which paths can take f and why not.
func (im *Image) planFor(f *formats.Frame) *loadPlan {
	if im.imported.cache == nil && im.imported.err == nil && im.dev.Extensions[gpu.ExtExternalMemoryHost] {
		// Made before the shape is taken: offsets are reduced modulo its alignment.
		im.imported.cache, im.imported.err = NewImporter(im.dev, DefaultImportCapacity)
		im.imported.own = im.imported.cache != nil
	}
	s := im.shape(f)
	if im.plan.valid && im.plan.shape == s {
		return &im.plan
	}
	p := loadPlan{valid: true, shape: s}
	p.importErr = im.importable(f)
	p.directErr = im.directable(f)
	// Measured on the H200 (BenchmarkDirectDraw): drawing from the frame's memory in place takes
	// 1.7–2.1× the time of importing it and drawing from the copy, which the copy engine makes.
	notDirect := "direct is possible but slower: sampling host memory in place took 1.7–2.1× import's time on an H200"
	if p.directErr != nil {
		notDirect = "not direct: " + p.directErr.Error()
	}
	switch {
	case p.importErr == nil && im.staged.shifted != nil:
		p.autoReason = "import: the GPU shifts and copies from the frame's own memory; " + notDirect
	case p.importErr == nil:
		p.autoReason = "import: the GPU copies from the frame's own memory; " + notDirect
	default:
		p.autoReason = "copy: not import: " + p.importErr.Error() + "; " + notDirect
	}
	im.plan = p
	return &im.plan
}

// importable says whether every plane of f can be imported and copied from as it lies in memory.
func (im *Image) importable(f *formats.Frame) error {
	pf := im.Format
	if !im.dev.Extensions[gpu.ExtExternalMemoryHost] {
		return unavailable("device has no %s", gpu.ExtExternalMemoryHost)
	}
	if im.imported.cache == nil {
		return unavailable("%v", im.imported.err)
	}
	if im.staged.shifted != nil {
		if err := im.shiftable(f); err != nil {
			return err
		}
	}
	texel := func(i, bytes int) error {
		p := f.Planes[i]
		addr := uintptr(unsafe.Pointer(&p[0]))
		switch {
		case f.Strides[i]%bytes != 0:
			return unavailable("plane %d: stride %d is not a whole number of %d-byte texels", i, f.Strides[i], bytes)
		case addr%uintptr(bytes) != 0:
			return unavailable("plane %d: address %#x is not %d-byte aligned", i, addr, bytes)
		}
		return nil
	}
	// matches checked that every plane holds its texels.
	for i, p := range pf.Planes {
		if im.Multi != vk.NullImage && im.staged.shifted == nil { // the shift pass reads samples, not texels
			if err := texel(i, p.BytesPerTexel); err != nil {
				return err
			}
		}
	}
	for k, t := range pf.Textures {
		if len(im.Textures) > 0 && !im.Aliased {
			if err := texel(t.Plane, texelBytes(pf, pf.Textures[k])); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordImport imports (or finds) each plane's memory and records the copies from it.
func (im *Image) recordImport(cb vk.CommandBuffer, f *formats.Frame) error {
	pf := im.Format
	var bufs [maxPlanes]uint64
	var offs [maxPlanes]uint64
	for i := range pf.Planes {
		e, off, err := im.imported.cache.acquire(unsafe.Pointer(&f.Planes[i][0]), len(f.Planes[i]))
		if err != nil {
			return fmt.Errorf("planes: import plane %d: %w", i, err)
		}
		im.imported.pinned[im.imported.npinned] = e
		im.imported.npinned++
		bufs[i], offs[i] = vkx.BufferHandle(e.buffer), off
	}
	copies, regions := im.imported.copies[:0], im.imported.regions[:0]
	if im.staged.shifted != nil {
		var err error
		if copies, regions, err = im.recordImportShift(cb, f, &bufs, &offs, copies, regions); err != nil {
			return err
		}
	} else if im.Multi != vk.NullImage {
		for i, p := range pf.Planes {
			first := len(regions)
			stride, bpt := f.Strides[i], p.BytesPerTexel
			if len(p.Channels) == 4 { // packed 4:2:2: rows of 2×1 blocks, addressed in texels
				regions = append(regions, region(offs[i], stride/bpt*2, vk.ImageAspectColorBit, 0, 0, im.PaddedWidth, f.Height))
			} else {
				aspect := vk.ImageAspectColorBit
				if len(pf.Planes) > 1 {
					aspect = planeAspect(i)
				}
				regions = appendPadded(regions, pf, i, f, offs[i], aspect, im.PaddedWidth, im.PaddedHeight)
			}
			copies = append(copies, vkx.Copy{Buffer: bufs[i], Image: vkx.ImageHandle(im.Multi),
				First: uint32(first), Count: uint32(len(regions) - first)})
		}
	}
	for k, t := range im.Textures {
		if t.Alias {
			continue
		}
		ft := pf.Textures[k]
		copies = append(copies, vkx.Copy{Buffer: bufs[ft.Plane], Image: vkx.ImageHandle(t.Image),
			First: uint32(len(regions)), Count: 1})
		regions = append(regions, region(offs[ft.Plane], f.Strides[ft.Plane]/texelBytes(pf, ft),
			vk.ImageAspectColorBit, 0, 0, t.Width, t.Height))
	}
	im.imported.copies, im.imported.regions = copies, regions
	vkx.CmdUpload(cb, im.targets, im.readers, vk.ImageLayoutUndefined, copies, regions)
	return nil
}

// appendPadded adds the regions that copy plane i of f into its plane of a paddedW×paddedH image:
// the plane itself, then its last column and row repeated into the padding (odd sizes), as Stage
// does on the CPU, so both paths give the same image.
func appendPadded(regions []vkx.BufferImageCopy, pf *formats.PixelFormat, i int, f *formats.Frame, off uint64,
	aspect vk.ImageAspectFlagBits, paddedW, paddedH int) []vkx.BufferImageCopy {
	stride, bpt := f.Strides[i], pf.Planes[i].BytesPerTexel
	rowLen := stride / bpt
	w, h := pf.PlaneSize(i, f.Width, f.Height)
	dw, dh := pf.PlaneSize(i, paddedW, paddedH)
	lastCol := off + uint64((w-1)*bpt)
	lastRow := off + uint64((h-1)*stride)
	regions = append(regions, region(off, rowLen, aspect, 0, 0, w, h))
	for x := w; x < dw; x++ {
		regions = append(regions, region(lastCol, rowLen, aspect, x, 0, 1, h))
	}
	for y := h; y < dh; y++ {
		regions = append(regions, region(lastRow, rowLen, aspect, 0, y, w, 1))
		for x := w; x < dw; x++ {
			regions = append(regions, region(lastRow+uint64((w-1)*bpt), rowLen, aspect, x, y, 1, 1))
		}
	}
	return regions
}
