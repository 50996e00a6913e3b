package formats

// Channel names one colour channel of a Y′CbCr (or RGB) picture.
type Channel uint8

const (
	Y  Channel = iota // luma, or G for RGB layouts
	Cb                // blue-difference chroma ("U"), or B for RGB layouts
	Cr                // red-difference chroma ("V"), or R for RGB layouts
)

func (c Channel) String() string { return [...]string{"Y", "Cb", "Cr"}[c] }

// Alignment says where a sample's bits sit in a 16-bit container.
type Alignment uint8

const (
	// AlignNone: the sample fills its container (8 bits in a byte, 16 in a word).
	AlignNone Alignment = iota
	// AlignLSB: the value occupies the low Depth bits (yuv420p10le: 0..1023 in a word).
	AlignLSB
	// AlignMSB: the value occupies the high Depth bits, the low bits are zero (p010le).
	AlignMSB
)

// Plane is one plane of memory as the decoder lays it out.
type Plane struct {
	// Channels in the order they appear inside one texel of this plane:
	// {Y} for a luma plane, {Cb, Cr} for NV12's chroma plane, {Cr, Cb} for NV21's.
	// Packed 4:2:2 layouts list the four samples of their 2×1 block: {Y, Cb, Y, Cr} for yuyv422.
	Channels []Channel
	// Chroma is true when this plane is subsampled like the chroma (its size is the chroma size).
	Chroma bool
	// BytesPerTexel is the size of one texel (one 2×1 block for packed 4:2:2 layouts).
	BytesPerTexel int
	// VkFormat is the single-plane format compatible with this plane of the multi-planar format
	// (vk.xml's <plane compatible=...>): R8, R8G8, R10X6, R16G16, ... For packed 4:2:2 layouts, the
	// format whose texel is the whole 2×1 block read as RGBA (R8G8B8A8 / R16G16B16A16).
	VkFormat VkFormat
}

// Texture is one texture the shader path samples. Planar layouts have one per plane; packed 4:2:2
// layouts have two views of the same bytes: a luma view (W×H, 2 components) and a chroma view
// (W/2×H, 4 components), so that hardware bilinear filtering applies to both.
type Texture struct {
	Plane    int      // which Plane's bytes it reads
	VkFormat VkFormat // format of the view (R8, R8G8, R8G8B8A8, R16, R16G16, R16G16B16A16)
	Chroma   bool     // true: chroma-sized; false: luma-sized
}

// Source says where the shader path reads one channel: texture index and component (0=r,1=g,2=b,3=a).
type Source struct {
	Texture   int
	Component int
}

// PixelFormat is one pixel layout the toolkit supports. The table in table.go is the only place that
// knows layouts: plane counts, Vulkan formats, swizzles and shader parameters all come from here.
type PixelFormat struct {
	Name string // FFmpeg's name (av_get_pix_fmt_name): "yuv420p", "nv12", "p010le", ...

	Planes []Plane
	// Log2ChromaW, Log2ChromaH: chroma subsampling as in AVPixFmtDescriptor (1,1 = 4:2:0; 1,0 = 4:2:2).
	Log2ChromaW, Log2ChromaH int
	Depth                    int       // significant bits per sample: 8, 10, 12, 16
	ContainerBits            int       // bits each sample occupies in memory: 8 or 16
	Align                    Alignment // where Depth bits sit in a 16-bit container
	FullRange                bool      // yuvj*: the layout itself implies full range
	Gray                     bool      // luma only: no chroma planes, no Vulkan Y′CbCr model possible

	// VkFormat is the multi-planar (or packed 4:2:2) format the sampler path uses. For LSB-aligned
	// layouts it is the X6/X4 format the data must be shifted into (SamplerShift). Undefined when the
	// sampler path cannot take the layout (gray), with NoSamplerReason saying why.
	VkFormat        VkFormat
	NoSamplerReason string
	// SamplerShift is how far each sample must be shifted left to fit VkFormat (6 for yuv420p10le into
	// G10X6…, 4 for 12-bit into G12X4…, 0 otherwise).
	SamplerShift int
	// SwapCbCr is true when memory holds Cr before Cb (nv21, nv42, yvyu422): the sampler path then uses
	// the conversion's components swizzle {r=B, b=R}.
	SwapCbCr bool

	// Shader path: the textures it samples and where each of Y, Cb, Cr is read.
	Textures []Texture
	Sources  [3]Source // indexed by Channel; Cb and Cr unused when Gray
}
