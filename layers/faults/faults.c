// VK_LAYER_YCBCRKIT_faults: a Vulkan layer that plants one Y′CbCr driver fault at a time, so that
// ycbcrcheck can be shown to catch it (issue 37; docs/conformance/faults.md). It sits between the
// application and the driver and rewrites what the application asks for (the conversion's create
// info, an X6 plane's texels as the sampler reads them) or what the driver answers (format feature
// bits). YCBCRKIT_FAULT names the fault (the table below); unset or unknown, the layer passes
// everything through.
//
// It makes no Vulkan call of its own apart from the next layer's vkGetPhysicalDeviceFormatProperties.
// The meta layer VK_LAYER_YCBCRKIT_validated_faults (VkLayer_ycbcrkit_validated_faults.json) puts
// the validation layer above it: validation then checks the application against the faulty device
// and never sees the rewrites. (Named in VK_INSTANCE_LAYERS beside the fault layer, in either
// order, or enabled by the application, the validation layer ends up below it: loader 1.3.239,
// VK_LOADER_DEBUG=layer.)
//
// Layer interface: the Vulkan loader's "LoaderLayerInterface.md" (vkNegotiateLoaderLayerInterfaceVersion,
// the VkLayerInstanceCreateInfo / VkLayerDeviceCreateInfo link info of vk_layer.h). Links only libc.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define EXPORT __attribute__((visibility("default")))

// ---- the faults --------------------------------------------------------------------------------

enum fault {
	F_NONE,
	F_CLAIM,               // control: claims what the other faults need, rewrites nothing
	F_SWAP_OFFSETS,        // xChromaOffset and yChromaOffset swapped
	F_MIDPOINT_AS_COSITED, // MIDPOINT taken as COSITED_EVEN, both axes
	F_COSITED_AS_MIDPOINT, // COSITED_EVEN taken as MIDPOINT, both axes (CasparCG/server#1780)
	F_Y_OFFSET_FLIPPED,    // the vertical offset taken as the other one (raspberrypi/linux#7630)
	F_NARROW_AS_FULL,      // ITU_NARROW taken as ITU_FULL
	F_601_AS_709,          // YCBCR_601 taken as YCBCR_709
	F_SWAP_CBCR,           // Cb and Cr swapped (the components swizzle toggled)
	F_CR_FROM_CB,          // Cr read from the Cb channel: Cr == Cb (mattias800/prosper#2731)
	F_LINEAR_AS_NEAREST,   // LINEAR chroma filter taken as NEAREST
	F_EXPLICIT_IGNORED,    // forceExplicitReconstruction ignored
	F_MIDPOINT_UNHONOURED, // MIDPOINT_CHROMA_SAMPLES claimed where the driver lacks it, sampled COSITED
	F_COSITED_NEAREST_AS_MIDPOINT, // implicit NEAREST + COSITED_EVEN sampled as MIDPOINT (spec-permitted)
	F_X6_LSB,              // 10-bit X6 texels read from the low 10 bits of their 16-bit words
	F_NO_CONVERSION,       // the model conversion dropped: the planes sampled as plain RGB
};

// Claims: feature bits added to every format that has a conversion (COSITED or MIDPOINT bit), so
// that the application asks for what the fault corrupts on a driver that does not offer it.
enum { CLAIM_MIDPOINT = 1, CLAIM_COSITED = 2, CLAIM_FORCEABLE = 4 };

static const struct {
	const char *name;
	enum fault f;
	int claims;
} faults[] = {
	{"claim", F_CLAIM, CLAIM_MIDPOINT | CLAIM_COSITED},
	{"claim-explicit", F_CLAIM, CLAIM_FORCEABLE},
	{"swap-offsets", F_SWAP_OFFSETS, CLAIM_MIDPOINT | CLAIM_COSITED},
	{"midpoint-as-cosited", F_MIDPOINT_AS_COSITED, CLAIM_MIDPOINT | CLAIM_COSITED},
	{"cosited-as-midpoint", F_COSITED_AS_MIDPOINT, CLAIM_MIDPOINT | CLAIM_COSITED},
	{"y-offset-flipped", F_Y_OFFSET_FLIPPED, CLAIM_MIDPOINT | CLAIM_COSITED},
	{"narrow-as-full", F_NARROW_AS_FULL, 0},
	{"601-as-709", F_601_AS_709, 0},
	{"swap-cbcr", F_SWAP_CBCR, 0},
	{"cr-from-cb", F_CR_FROM_CB, 0},
	{"linear-as-nearest", F_LINEAR_AS_NEAREST, 0},
	{"explicit-ignored", F_EXPLICIT_IGNORED, CLAIM_FORCEABLE},
	{"midpoint-unhonoured", F_MIDPOINT_UNHONOURED, CLAIM_MIDPOINT},
	{"cosited-nearest-as-midpoint", F_COSITED_NEAREST_AS_MIDPOINT, 0},
	{"x6-lsb", F_X6_LSB, 0},
	{"no-conversion", F_NO_CONVERSION, 0},
};

// planted reads YCBCRKIT_FAULT at each call, so that one process (a test) can plant several faults
// in turn on one device; *cl gets its claims.
static enum fault planted(int *cl) {
	const char *s = getenv("YCBCRKIT_FAULT");
	*cl = 0;
	for (size_t i = 0; s && i < sizeof faults / sizeof faults[0]; i++)
		if (strcmp(s, faults[i].name) == 0) {
			*cl = faults[i].claims;
			return faults[i].f;
		}
	return F_NONE;
}

static enum fault current(void) {
	int cl;
	return planted(&cl);
}

// ---- dispatch: one record per instance and per device, found by the loader's dispatch key --------

// The loader's dispatch table pointer, the first word of every dispatchable handle.
typedef void *dkey;
static dkey key(const void *h) { return *(dkey *)h; }

struct inst {
	dkey k;
	VkInstance h;
	PFN_vkGetInstanceProcAddr gipa;
	PFN_vkDestroyInstance DestroyInstance;
	PFN_vkGetPhysicalDeviceFormatProperties FormatProperties;
	PFN_vkGetPhysicalDeviceFormatProperties2 FormatProperties2;
	PFN_vkGetPhysicalDeviceFormatProperties2 FormatProperties2KHR;
	struct inst *next;
};

// An X6 image's format, and a buffer's or memory's place in host memory, for F_X6_LSB.
struct image { VkImage h; VkFormat f; struct image *next; };
struct buffer { VkBuffer h; VkDeviceMemory m; VkDeviceSize off; struct buffer *next; };
struct mapping { VkDeviceMemory m; VkDeviceSize off; char *p; struct mapping *next; };

struct dev {
	dkey k;
	VkDevice h;
	VkPhysicalDevice pd;
	struct inst *in;
	PFN_vkGetDeviceProcAddr gdpa;
	PFN_vkDestroyDevice DestroyDevice;
	PFN_vkCreateSamplerYcbcrConversion CreateConversion;
	PFN_vkCreateSamplerYcbcrConversion CreateConversionKHR;
	PFN_vkCreateSampler CreateSampler;
	PFN_vkCreateImage CreateImage;
	PFN_vkDestroyImage DestroyImage;
	PFN_vkBindBufferMemory BindBufferMemory;
	PFN_vkDestroyBuffer DestroyBuffer;
	PFN_vkMapMemory MapMemory;
	PFN_vkUnmapMemory UnmapMemory;
	PFN_vkFreeMemory FreeMemory;
	PFN_vkCmdCopyBufferToImage CmdCopyBufferToImage;
	struct image *images;
	struct buffer *buffers;
	struct mapping *maps;
	struct dev *next;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct inst *insts;
static struct dev *devs;

static struct inst *findInst(const void *h) {
	pthread_mutex_lock(&mu);
	struct inst *i = insts;
	while (i && i->k != key(h)) i = i->next;
	pthread_mutex_unlock(&mu);
	return i;
}

static struct dev *findDev(const void *h) {
	pthread_mutex_lock(&mu);
	struct dev *d = devs;
	while (d && d->k != key(h)) d = d->next;
	pthread_mutex_unlock(&mu);
	return d;
}

// ---- instance ------------------------------------------------------------------------------------

static VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo *ci, const VkAllocationCallbacks *a,
                                          VkInstance *out) {
	VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)ci->pNext;
	while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
		link = (VkLayerInstanceCreateInfo *)link->pNext;
	if (!link) return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext; // the next layer finds its own link
	PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
	VkResult r = create(ci, a, out);
	if (r != VK_SUCCESS) return r;
	struct inst *i = calloc(1, sizeof *i);
	if (!i) return VK_ERROR_OUT_OF_HOST_MEMORY;
	i->k = key(*out);
	i->h = *out;
	i->gipa = gipa;
	i->DestroyInstance = (PFN_vkDestroyInstance)gipa(*out, "vkDestroyInstance");
	i->FormatProperties = (PFN_vkGetPhysicalDeviceFormatProperties)gipa(*out, "vkGetPhysicalDeviceFormatProperties");
	i->FormatProperties2 = (PFN_vkGetPhysicalDeviceFormatProperties2)gipa(*out, "vkGetPhysicalDeviceFormatProperties2");
	i->FormatProperties2KHR = (PFN_vkGetPhysicalDeviceFormatProperties2)gipa(*out, "vkGetPhysicalDeviceFormatProperties2KHR");
	pthread_mutex_lock(&mu);
	i->next = insts;
	insts = i;
	pthread_mutex_unlock(&mu);
	return VK_SUCCESS;
}

static void VKAPI_CALL DestroyInstance(VkInstance h, const VkAllocationCallbacks *a) {
	struct inst *i = findInst(h);
	if (!i) return;
	i->DestroyInstance(h, a);
	pthread_mutex_lock(&mu);
	for (struct inst **p = &insts; *p; p = &(*p)->next)
		if (*p == i) {
			*p = i->next;
			break;
		}
	pthread_mutex_unlock(&mu);
	free(i);
}

// claim adds the fault's claimed bits to a format that has a conversion.
static void claim(VkFormatFeatureFlags *f) {
	int claims;
	planted(&claims);
	const VkFormatFeatureFlags conv = VK_FORMAT_FEATURE_COSITED_CHROMA_SAMPLES_BIT | VK_FORMAT_FEATURE_MIDPOINT_CHROMA_SAMPLES_BIT;
	if (!(*f & conv) || !(*f & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) return;
	if (claims & CLAIM_MIDPOINT) *f |= VK_FORMAT_FEATURE_MIDPOINT_CHROMA_SAMPLES_BIT;
	if (claims & CLAIM_COSITED) *f |= VK_FORMAT_FEATURE_COSITED_CHROMA_SAMPLES_BIT;
	if (claims & CLAIM_FORCEABLE)
		*f |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_FORCEABLE_BIT;
}

static void claimAll(VkFormatProperties *p) {
	claim(&p->optimalTilingFeatures);
	claim(&p->linearTilingFeatures);
}

// claim2 also rewrites a VkFormatProperties3 in the chain: its 64-bit flags carry the same bits.
static void claim2(VkFormatProperties2 *p) {
	claimAll(&p->formatProperties);
	for (VkBaseOutStructure *s = (VkBaseOutStructure *)p->pNext; s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
			VkFormatProperties3 *p3 = (VkFormatProperties3 *)s;
			VkFormatFeatureFlags o = (VkFormatFeatureFlags)p3->optimalTilingFeatures;
			claim(&o);
			p3->optimalTilingFeatures |= o;
			VkFormatFeatureFlags l = (VkFormatFeatureFlags)p3->linearTilingFeatures;
			claim(&l);
			p3->linearTilingFeatures |= l;
		}
}

static void VKAPI_CALL FormatProperties(VkPhysicalDevice pd, VkFormat f, VkFormatProperties *p) {
	struct inst *i = findInst(pd);
	i->FormatProperties(pd, f, p);
	claimAll(p);
}

static void VKAPI_CALL FormatProperties2(VkPhysicalDevice pd, VkFormat f, VkFormatProperties2 *p) {
	struct inst *i = findInst(pd);
	i->FormatProperties2(pd, f, p);
	claim2(p);
}

static void VKAPI_CALL FormatProperties2KHR(VkPhysicalDevice pd, VkFormat f, VkFormatProperties2 *p) {
	struct inst *i = findInst(pd);
	(i->FormatProperties2KHR ? i->FormatProperties2KHR : i->FormatProperties2)(pd, f, p);
	claim2(p);
}

// ---- device --------------------------------------------------------------------------------------

static VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                        const VkAllocationCallbacks *a, VkDevice *out) {
	VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)ci->pNext;
	while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
		link = (VkLayerDeviceCreateInfo *)link->pNext;
	if (!link) return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext;
	struct inst *in = findInst(pd);
	PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(in ? in->h : VK_NULL_HANDLE, "vkCreateDevice");
	VkResult r = create(pd, ci, a, out);
	if (r != VK_SUCCESS) return r;
	struct dev *d = calloc(1, sizeof *d);
	if (!d) return VK_ERROR_OUT_OF_HOST_MEMORY;
	VkDevice h = *out;
	d->k = key(h);
	d->h = h;
	d->pd = pd;
	d->in = in;
	d->gdpa = gdpa;
#define GET(field, name) d->field = (void *)gdpa(h, name)
	GET(DestroyDevice, "vkDestroyDevice");
	GET(CreateConversion, "vkCreateSamplerYcbcrConversion");
	GET(CreateConversionKHR, "vkCreateSamplerYcbcrConversionKHR");
	GET(CreateSampler, "vkCreateSampler");
	GET(CreateImage, "vkCreateImage");
	GET(DestroyImage, "vkDestroyImage");
	GET(BindBufferMemory, "vkBindBufferMemory");
	GET(DestroyBuffer, "vkDestroyBuffer");
	GET(MapMemory, "vkMapMemory");
	GET(UnmapMemory, "vkUnmapMemory");
	GET(FreeMemory, "vkFreeMemory");
	GET(CmdCopyBufferToImage, "vkCmdCopyBufferToImage");
#undef GET
	pthread_mutex_lock(&mu);
	d->next = devs;
	devs = d;
	pthread_mutex_unlock(&mu);
	return VK_SUCCESS;
}

static void VKAPI_CALL DestroyDevice(VkDevice h, const VkAllocationCallbacks *a) {
	struct dev *d = findDev(h);
	if (!d) return;
	d->DestroyDevice(h, a);
	pthread_mutex_lock(&mu);
	for (struct dev **p = &devs; *p; p = &(*p)->next)
		if (*p == d) {
			*p = d->next;
			break;
		}
	pthread_mutex_unlock(&mu);
	for (struct image *i = d->images, *n; i; i = n) n = i->next, free(i);
	for (struct buffer *b = d->buffers, *n; b; b = n) n = b->next, free(b);
	for (struct mapping *m = d->maps, *n; m; m = n) n = m->next, free(m);
	free(d);
}

// realFeatures is what the driver below offers for f in optimal tiling.
static VkFormatFeatureFlags realFeatures(struct dev *d, VkFormat f) {
	VkFormatProperties p = {0};
	if (d->in && d->in->FormatProperties) d->in->FormatProperties(d->pd, f, &p);
	return p.optimalTilingFeatures;
}

static VkChromaLocation other(VkChromaLocation l) {
	return l == VK_CHROMA_LOCATION_MIDPOINT ? VK_CHROMA_LOCATION_COSITED_EVEN : VK_CHROMA_LOCATION_MIDPOINT;
}

// rewrite plants the fault in a conversion's create info (a copy; the application's is const).
static void rewrite(struct dev *d, VkSamplerYcbcrConversionCreateInfo *c) {
	VkComponentMapping *m = &c->components;
	int swapped = m->r == VK_COMPONENT_SWIZZLE_B && m->b == VK_COMPONENT_SWIZZLE_R;
	switch (current()) {
	case F_SWAP_OFFSETS: {
		VkChromaLocation x = c->xChromaOffset;
		c->xChromaOffset = c->yChromaOffset;
		c->yChromaOffset = x;
		break;
	}
	case F_MIDPOINT_AS_COSITED:
		if (c->xChromaOffset == VK_CHROMA_LOCATION_MIDPOINT) c->xChromaOffset = VK_CHROMA_LOCATION_COSITED_EVEN;
		if (c->yChromaOffset == VK_CHROMA_LOCATION_MIDPOINT) c->yChromaOffset = VK_CHROMA_LOCATION_COSITED_EVEN;
		break;
	case F_COSITED_AS_MIDPOINT:
		if (c->xChromaOffset == VK_CHROMA_LOCATION_COSITED_EVEN) c->xChromaOffset = VK_CHROMA_LOCATION_MIDPOINT;
		if (c->yChromaOffset == VK_CHROMA_LOCATION_COSITED_EVEN) c->yChromaOffset = VK_CHROMA_LOCATION_MIDPOINT;
		break;
	case F_Y_OFFSET_FLIPPED:
		c->yChromaOffset = other(c->yChromaOffset);
		break;
	case F_NARROW_AS_FULL:
		if (c->ycbcrRange == VK_SAMPLER_YCBCR_RANGE_ITU_NARROW) c->ycbcrRange = VK_SAMPLER_YCBCR_RANGE_ITU_FULL;
		break;
	case F_601_AS_709:
		if (c->ycbcrModel == VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601)
			c->ycbcrModel = VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709;
		break;
	case F_SWAP_CBCR:
		if (swapped) {
			m->r = m->b = VK_COMPONENT_SWIZZLE_IDENTITY;
		} else {
			m->r = VK_COMPONENT_SWIZZLE_B;
			m->b = VK_COMPONENT_SWIZZLE_R;
		}
		break;
	case F_CR_FROM_CB: // R (Cr) takes the Cb channel, B keeps it: both read Cb
		m->r = swapped ? VK_COMPONENT_SWIZZLE_R : VK_COMPONENT_SWIZZLE_B;
		m->b = swapped ? VK_COMPONENT_SWIZZLE_R : VK_COMPONENT_SWIZZLE_IDENTITY;
		break;
	case F_LINEAR_AS_NEAREST:
		c->chromaFilter = VK_FILTER_NEAREST;
		break;
	case F_EXPLICIT_IGNORED:
		c->forceExplicitReconstruction = VK_FALSE;
		break;
	case F_MIDPOINT_UNHONOURED:
		if (!(realFeatures(d, c->format) & VK_FORMAT_FEATURE_MIDPOINT_CHROMA_SAMPLES_BIT)) {
			if (c->xChromaOffset == VK_CHROMA_LOCATION_MIDPOINT) c->xChromaOffset = VK_CHROMA_LOCATION_COSITED_EVEN;
			if (c->yChromaOffset == VK_CHROMA_LOCATION_MIDPOINT) c->yChromaOffset = VK_CHROMA_LOCATION_COSITED_EVEN;
		}
		break;
	case F_COSITED_NEAREST_AS_MIDPOINT:
		if (c->chromaFilter == VK_FILTER_NEAREST && !c->forceExplicitReconstruction &&
		    !(realFeatures(d, c->format) &
		      VK_FORMAT_FEATURE_SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_BIT)) {
			if (c->xChromaOffset == VK_CHROMA_LOCATION_COSITED_EVEN) c->xChromaOffset = VK_CHROMA_LOCATION_MIDPOINT;
			if (c->yChromaOffset == VK_CHROMA_LOCATION_COSITED_EVEN) c->yChromaOffset = VK_CHROMA_LOCATION_MIDPOINT;
		}
		break;
	case F_NO_CONVERSION:
		c->ycbcrModel = VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY;
		break;
	default:
		break;
	}
}

static VkResult createConversion(PFN_vkCreateSamplerYcbcrConversion next, VkDevice h,
                                 const VkSamplerYcbcrConversionCreateInfo *ci, const VkAllocationCallbacks *a,
                                 VkSamplerYcbcrConversion *out) {
	VkSamplerYcbcrConversionCreateInfo c = *ci;
	rewrite(findDev(h), &c);
	return next(h, &c, a, out);
}

static VkResult VKAPI_CALL CreateConversion(VkDevice h, const VkSamplerYcbcrConversionCreateInfo *ci,
                                            const VkAllocationCallbacks *a, VkSamplerYcbcrConversion *out) {
	return createConversion(findDev(h)->CreateConversion, h, ci, a, out);
}

static VkResult VKAPI_CALL CreateConversionKHR(VkDevice h, const VkSamplerYcbcrConversionCreateInfo *ci,
                                               const VkAllocationCallbacks *a, VkSamplerYcbcrConversion *out) {
	struct dev *d = findDev(h);
	return createConversion(d->CreateConversionKHR ? d->CreateConversionKHR : d->CreateConversion, h, ci, a, out);
}

// CreateSampler: with F_LINEAR_AS_NEAREST a Y′CbCr sampler filters NEAREST too. Drivers that take
// min/magFilter for the chroma (lavapipe does, where the two must be equal without
// SEPARATE_RECONSTRUCTION_FILTER: VUID-VkSamplerCreateInfo-minFilter-01645) would otherwise hide
// the conversion's chromaFilter.
static VkResult VKAPI_CALL CreateSampler(VkDevice h, const VkSamplerCreateInfo *ci, const VkAllocationCallbacks *a,
                                         VkSampler *out) {
	struct dev *d = findDev(h);
	int ycbcr = 0;
	for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
		ycbcr |= s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO;
	if (!ycbcr || current() != F_LINEAR_AS_NEAREST) return d->CreateSampler(h, ci, a, out);
	VkSamplerCreateInfo c = *ci;
	c.minFilter = c.magFilter = VK_FILTER_NEAREST;
	return d->CreateSampler(h, &c, a, out);
}

// ---- F_X6_LSB: the X6 planes' words, as the copy into the image reads them -----------------------
//
// A driver that takes the low 10 bits of each 16-bit word (as if the data were LSB-aligned) reads
// (w & 0x3ff) where the value is w >> 6. The layer plants that by rewriting each word of an upload
// into a 10-bit X6 multi-planar image to (w & 0x3ff) << 6 in the mapped staging memory when the copy
// is recorded: the image then holds what the faulty driver would read.

static int x6(VkFormat f) {
	return (f >= VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16 &&
	        f <= VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16) ||
	       f == VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16;
}

static VkResult VKAPI_CALL CreateImage(VkDevice h, const VkImageCreateInfo *ci, const VkAllocationCallbacks *a, VkImage *out) {
	struct dev *d = findDev(h);
	VkResult r = d->CreateImage(h, ci, a, out);
	if (r == VK_SUCCESS && current() == F_X6_LSB && x6(ci->format)) {
		struct image *i = calloc(1, sizeof *i);
		if (i) {
			i->h = *out;
			i->f = ci->format;
			pthread_mutex_lock(&mu);
			i->next = d->images;
			d->images = i;
			pthread_mutex_unlock(&mu);
		}
	}
	return r;
}

static void VKAPI_CALL DestroyImage(VkDevice h, VkImage image, const VkAllocationCallbacks *a) {
	struct dev *d = findDev(h);
	pthread_mutex_lock(&mu);
	for (struct image **p = &d->images; *p; p = &(*p)->next)
		if ((*p)->h == image) {
			struct image *i = *p;
			*p = i->next;
			free(i);
			break;
		}
	pthread_mutex_unlock(&mu);
	d->DestroyImage(h, image, a);
}

static VkResult VKAPI_CALL BindBufferMemory(VkDevice h, VkBuffer b, VkDeviceMemory m, VkDeviceSize off) {
	struct dev *d = findDev(h);
	VkResult r = d->BindBufferMemory(h, b, m, off);
	if (r == VK_SUCCESS && current() == F_X6_LSB) {
		struct buffer *e = calloc(1, sizeof *e);
		if (e) {
			e->h = b, e->m = m, e->off = off;
			pthread_mutex_lock(&mu);
			e->next = d->buffers;
			d->buffers = e;
			pthread_mutex_unlock(&mu);
		}
	}
	return r;
}

static void VKAPI_CALL DestroyBuffer(VkDevice h, VkBuffer b, const VkAllocationCallbacks *a) {
	struct dev *d = findDev(h);
	pthread_mutex_lock(&mu);
	for (struct buffer **p = &d->buffers; *p; p = &(*p)->next)
		if ((*p)->h == b) {
			struct buffer *e = *p;
			*p = e->next;
			free(e);
			break;
		}
	pthread_mutex_unlock(&mu);
	d->DestroyBuffer(h, b, a);
}

static VkResult VKAPI_CALL MapMemory(VkDevice h, VkDeviceMemory m, VkDeviceSize off, VkDeviceSize size,
                                     VkMemoryMapFlags flags, void **out) {
	struct dev *d = findDev(h);
	VkResult r = d->MapMemory(h, m, off, size, flags, out);
	if (r == VK_SUCCESS && current() == F_X6_LSB) {
		struct mapping *e = calloc(1, sizeof *e);
		if (e) {
			e->m = m, e->off = off, e->p = *out;
			pthread_mutex_lock(&mu);
			e->next = d->maps;
			d->maps = e;
			pthread_mutex_unlock(&mu);
		}
	}
	return r;
}

// forget drops m's mapping: unmapped, or freed (which unmaps it).
static void forget(struct dev *d, VkDeviceMemory m) {
	pthread_mutex_lock(&mu);
	for (struct mapping **p = &d->maps; *p; p = &(*p)->next)
		if ((*p)->m == m) {
			struct mapping *e = *p;
			*p = e->next;
			free(e);
			break;
		}
	pthread_mutex_unlock(&mu);
}

static void VKAPI_CALL UnmapMemory(VkDevice h, VkDeviceMemory m) {
	struct dev *d = findDev(h);
	forget(d, m);
	d->UnmapMemory(h, m);
}

static void VKAPI_CALL FreeMemory(VkDevice h, VkDeviceMemory m, const VkAllocationCallbacks *a) {
	struct dev *d = findDev(h);
	forget(d, m);
	d->FreeMemory(h, m, a);
}

// texelBytes of the plane an X6 copy region addresses: 2 (R10X6) or 4 (R10X6G10X6).
static VkDeviceSize texelBytes(VkFormat f, VkImageAspectFlags aspect) {
	int twoPlane = f == VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16 ||
	               f == VK_FORMAT_G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16 ||
	               f == VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16;
	return twoPlane && (aspect & VK_IMAGE_ASPECT_PLANE_1_BIT) ? 4 : 2;
}

static void VKAPI_CALL CmdCopyBufferToImage(VkCommandBuffer cb, VkBuffer src, VkImage dst, VkImageLayout layout,
                                            uint32_t n, const VkBufferImageCopy *regions) {
	struct dev *d = findDev(cb);
	if (current() == F_X6_LSB) {
		pthread_mutex_lock(&mu);
		struct image *im = d->images;
		while (im && im->h != dst) im = im->next;
		struct buffer *b = d->buffers;
		while (b && b->h != src) b = b->next;
		struct mapping *m = d->maps;
		while (b && m && m->m != b->m) m = m->next;
		if (im && b && m) {
			char *base = m->p + (b->off - m->off);
			for (uint32_t i = 0; i < n; i++) {
				const VkBufferImageCopy *r = &regions[i];
				VkDeviceSize tb = texelBytes(im->f, r->imageSubresource.aspectMask);
				VkDeviceSize row = (r->bufferRowLength ? r->bufferRowLength : r->imageExtent.width) * tb;
				VkDeviceSize rows = r->bufferImageHeight ? r->bufferImageHeight : r->imageExtent.height;
				for (VkDeviceSize y = 0; y < rows && y < r->imageExtent.height; y++) {
					uint16_t *w = (uint16_t *)(base + r->bufferOffset + y * row);
					for (VkDeviceSize k = 0; k < r->imageExtent.width * tb / 2; k++) w[k] = (uint16_t)((w[k] & 0x3ff) << 6);
				}
			}
		}
		pthread_mutex_unlock(&mu);
	}
	d->CmdCopyBufferToImage(cb, src, dst, layout, n, regions);
}

// ---- entry points --------------------------------------------------------------------------------

#define ENTRY(name, fn) \
	if (strcmp(n, name) == 0) return (PFN_vkVoidFunction)fn

static PFN_vkVoidFunction deviceEntry(const char *n) {
	ENTRY("vkDestroyDevice", DestroyDevice);
	ENTRY("vkCreateSamplerYcbcrConversion", CreateConversion);
	ENTRY("vkCreateSamplerYcbcrConversionKHR", CreateConversionKHR);
	ENTRY("vkCreateSampler", CreateSampler);
	ENTRY("vkCreateImage", CreateImage);
	ENTRY("vkDestroyImage", DestroyImage);
	ENTRY("vkBindBufferMemory", BindBufferMemory);
	ENTRY("vkDestroyBuffer", DestroyBuffer);
	ENTRY("vkMapMemory", MapMemory);
	ENTRY("vkUnmapMemory", UnmapMemory);
	ENTRY("vkFreeMemory", FreeMemory);
	ENTRY("vkCmdCopyBufferToImage", CmdCopyBufferToImage);
	return NULL;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL ycbcrkit_faults_GetDeviceProcAddr(VkDevice h, const char *n);

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL ycbcrkit_faults_GetInstanceProcAddr(VkInstance h, const char *n) {
	ENTRY("vkGetInstanceProcAddr", ycbcrkit_faults_GetInstanceProcAddr);
	ENTRY("vkGetDeviceProcAddr", ycbcrkit_faults_GetDeviceProcAddr);
	ENTRY("vkCreateInstance", CreateInstance);
	ENTRY("vkDestroyInstance", DestroyInstance);
	ENTRY("vkCreateDevice", CreateDevice);
	ENTRY("vkGetPhysicalDeviceFormatProperties", FormatProperties);
	ENTRY("vkGetPhysicalDeviceFormatProperties2", FormatProperties2);
	ENTRY("vkGetPhysicalDeviceFormatProperties2KHR", FormatProperties2KHR);
	PFN_vkVoidFunction f = deviceEntry(n);
	if (f) return f;
	struct inst *i = h ? findInst(h) : NULL;
	return i ? i->gipa(h, n) : NULL;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL ycbcrkit_faults_GetDeviceProcAddr(VkDevice h, const char *n) {
	ENTRY("vkGetDeviceProcAddr", ycbcrkit_faults_GetDeviceProcAddr);
	struct dev *d = findDev(h);
	if (!d) return NULL;
	PFN_vkVoidFunction next = d->gdpa(h, n);
	PFN_vkVoidFunction f = deviceEntry(n);
	// Only what the driver has: an extension entry point it lacks stays NULL.
	return f && next ? f : next;
}

EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *v) {
	if (!v || v->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
	if (v->loaderLayerInterfaceVersion > 2) v->loaderLayerInterfaceVersion = 2;
	v->pfnGetInstanceProcAddr = ycbcrkit_faults_GetInstanceProcAddr;
	v->pfnGetDeviceProcAddr = ycbcrkit_faults_GetDeviceProcAddr;
	v->pfnGetPhysicalDeviceProcAddr = NULL;
	return VK_SUCCESS;
}
