// hw.c: FFmpeg's Vulkan hwaccel on the toolkit's own VkDevice (see hw.h). The contract followed is
// libavutil/hwcontext_vulkan.h's: AVVulkanDeviceContext for a user-created device, and for AVVkFrame
// "Must be waited on at every submission using the value in sem_value, and must be signalled at
// every submission, using an incremented value", with lock_frame "just before command submission".
#include "hw.h"

#include <stdlib.h>
#include <string.h>

typedef void (*queue_fn)(uint32_t family, uint32_t index);

// What the device context owns beyond FFmpeg's struct: the feature chain and the extension lists it
// points to, and the toolkit's queue lock. Freed by AVHWDeviceContext.free.
typedef struct {
	VkPhysicalDeviceVulkan11Features f11;
	VkPhysicalDeviceVulkan12Features f12;
	VkPhysicalDeviceVulkan13Features f13;
	VkPhysicalDeviceVideoMaintenance1FeaturesKHR vm1;
	char **inst_exts, **dev_exts;
	int nb_inst, nb_dev;
	queue_fn lock, unlock;
} Owned;

static void free_list(char **l, int n) {
	for (int i = 0; l && i < n; i++) free(l[i]);
	free(l);
}

static char **copy_list(const char *const *l, int n) {
	char **out = calloc(n > 0 ? n : 1, sizeof(char *));
	for (int i = 0; out && i < n; i++) {
		if (!(out[i] = strdup(l[i]))) {
			free_list(out, i);
			return NULL;
		}
	}
	return out;
}

static void device_free(AVHWDeviceContext *ctx) {
	Owned *o = ctx->user_opaque;
	if (!o) return;
	free_list(o->inst_exts, o->nb_inst);
	free_list(o->dev_exts, o->nb_dev);
	free(o);
	ctx->user_opaque = NULL;
}

static void lock_queue(AVHWDeviceContext *ctx, uint32_t family, uint32_t index) {
	((Owned *)ctx->user_opaque)->lock(family, index);
}

static void unlock_queue(AVHWDeviceContext *ctx, uint32_t family, uint32_t index) {
	((Owned *)ctx->user_opaque)->unlock(family, index);
}

AVBufferRef *avx_hw_vulkan_device(const AvxVulkanDevice *d, int *err) {
	AVBufferRef *ref = av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_VULKAN);
	if (!ref) {
		*err = AVERROR(ENOMEM);
		return NULL;
	}
	AVHWDeviceContext *ctx = (AVHWDeviceContext *)ref->data;
	AVVulkanDeviceContext *vk = ctx->hwctx;
	Owned *o = calloc(1, sizeof(*o));
	if (!o) {
		av_buffer_unref(&ref);
		*err = AVERROR(ENOMEM);
		return NULL;
	}
	ctx->user_opaque = o;
	ctx->free = device_free;
	o->lock = (queue_fn)d->lock;
	o->unlock = (queue_fn)d->unlock;
	o->inst_exts = copy_list(d->inst_exts, d->nb_inst_exts);
	o->nb_inst = o->inst_exts ? d->nb_inst_exts : 0;
	o->dev_exts = copy_list(d->dev_exts, d->nb_dev_exts);
	o->nb_dev = o->dev_exts ? d->nb_dev_exts : 0;
	if (!o->inst_exts || !o->dev_exts) {
		av_buffer_unref(&ref);
		*err = AVERROR(ENOMEM);
		return NULL;
	}

	// device_features: exactly the chain the device was created with (vkx_create_device_video).
	o->vm1 = (VkPhysicalDeviceVideoMaintenance1FeaturesKHR){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_MAINTENANCE_1_FEATURES_KHR,
		.videoMaintenance1 = d->video_maintenance1};
	o->f13 = (VkPhysicalDeviceVulkan13Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	                                            .pNext = d->video_maintenance1 ? &o->vm1 : NULL,
	                                            .synchronization2 = d->sync2};
	o->f12 = (VkPhysicalDeviceVulkan12Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	                                            .pNext = &o->f13, .timelineSemaphore = d->timeline,
	                                            .hostQueryReset = d->host_query_reset};
	o->f11 = (VkPhysicalDeviceVulkan11Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
	                                            .pNext = &o->f12, .samplerYcbcrConversion = d->ycbcr};
	vk->device_features = (VkPhysicalDeviceFeatures2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
	                                                  .pNext = &o->f11};
	vk->get_proc_addr = (PFN_vkGetInstanceProcAddr)d->get_proc_addr;
	vk->inst = d->inst;
	vk->phys_dev = d->phys;
	vk->act_dev = d->dev;
	vk->enabled_inst_extensions = (const char *const *)o->inst_exts;
	vk->nb_enabled_inst_extensions = o->nb_inst;
	vk->enabled_dev_extensions = (const char *const *)o->dev_exts;
	vk->nb_enabled_dev_extensions = o->nb_dev;
	// qf[]: the toolkit's family for FFmpeg's frame preparation (compute, transfers), sharing the
	// toolkit's queue through lock_queue, and the decode family. FFmpeg creates its images CONCURRENT
	// over the distinct families listed here (hwcontext_vulkan.c, img_qfs).
	vk->qf[0] = (AVVulkanDeviceQueueFamily){.idx = d->family, .num = d->queues,
	                                        .flags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT};
	vk->nb_qf = 1;
	if (d->decode_queues > 0) {
		vk->qf[1] = (AVVulkanDeviceQueueFamily){.idx = d->decode_family, .num = d->decode_queues,
		                                        .flags = VK_QUEUE_VIDEO_DECODE_BIT_KHR, .video_caps = d->caps};
		vk->nb_qf = 2;
	}
	// The deprecated fixed-queue fields stay zero (no queues): FFmpeg 7.1 then takes qf[] as given.
	if (d->lock && d->unlock) {
		vk->lock_queue = lock_queue;
		vk->unlock_queue = unlock_queue;
	}
	int ret = av_hwdevice_ctx_init(ref);
	if (ret < 0) {
		av_buffer_unref(&ref);
		*err = ret;
		return NULL;
	}
	return ref;
}

// ---- get_format ---------------------------------------------------------------------------------

struct AvxHwDecode {
	int required;
	int offered, chosen, failed, calls; // atomics
};

static enum AVPixelFormat hw_get_format(AVCodecContext *avctx, const enum AVPixelFormat *fmts) {
	AvxHwDecode *h = avx_pool_hw(avctx->opaque);
	int vulkan = 0;
	for (const enum AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE; p++)
		if (*p == AV_PIX_FMT_VULKAN) vulkan = 1;
	if (!h) return avcodec_default_get_format(avctx, fmts);
	__atomic_add_fetch(&h->calls, 1, __ATOMIC_RELAXED);
	if (vulkan) {
		__atomic_store_n(&h->offered, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&h->chosen, 1, __ATOMIC_RELAXED);
		return AV_PIX_FMT_VULKAN;
	}
	// ff_get_format calls again without the hardware format when the hwaccel failed to initialise
	// (libavcodec/decode.c): a software format from here on, unless hardware was required.
	if (__atomic_load_n(&h->chosen, __ATOMIC_RELAXED)) __atomic_store_n(&h->failed, 1, __ATOMIC_RELAXED);
	if (h->required) return AV_PIX_FMT_NONE;
	return avcodec_default_get_format(avctx, fmts);
}

static void hw_free(void *opaque) { free(opaque); }

int avx_hw_install(AvxPool *p, AVCodecContext *avctx, AVBufferRef *device, int required) {
	AvxHwDecode *h = calloc(1, sizeof(*h));
	if (!h) return AVERROR(ENOMEM);
	h->required = required;
	if (!(avctx->hw_device_ctx = av_buffer_ref(device))) {
		free(h);
		return AVERROR(ENOMEM);
	}
	avx_pool_set_hw(p, h, hw_free);
	avctx->get_format = hw_get_format;
	return 0;
}

void avx_hw_state(AvxPool *p, int *offered, int *chosen, int *failed, int *calls) {
	AvxHwDecode *h = avx_pool_hw(p);
	*offered = *chosen = *failed = *calls = 0;
	if (!h) return;
	*offered = __atomic_load_n(&h->offered, __ATOMIC_RELAXED);
	*chosen = __atomic_load_n(&h->chosen, __ATOMIC_RELAXED);
	*failed = __atomic_load_n(&h->failed, __ATOMIC_RELAXED);
	*calls = __atomic_load_n(&h->calls, __ATOMIC_RELAXED);
}

// ---- AVVkFrame ----------------------------------------------------------------------------------

static AVHWFramesContext *frames_of(const AVFrame *f) {
	return f && f->format == AV_PIX_FMT_VULKAN && f->hw_frames_ctx ? (AVHWFramesContext *)f->hw_frames_ctx->data
	                                                                : NULL;
}

// read fills out from f's AVVkFrame and frames context; lock: under lock_frame (kept held).
static int read_frame(const AVFrame *f, AvxVkFrame *out, int lock) {
	AVHWFramesContext *fc = frames_of(f);
	if (!fc || !f->data[0]) return AVERROR(EINVAL);
	AVVulkanFramesContext *vfc = fc->hwctx;
	AVVkFrame *vf = (AVVkFrame *)f->data[0];
	if (lock) vfc->lock_frame(fc, vf);
	int n = 0;
	while (n < AV_NUM_DATA_POINTERS && vf->img[n]) n++;
	*out = (AvxVkFrame){
		.img = vf->img[0], .tiling = vf->tiling, .layout = vf->layout[0], .access = vf->access[0],
		.sem = vf->sem[0], .sem_value = vf->sem_value[0], .queue_family = vf->queue_family[0], .nb_images = n,
		.sw_format = fc->sw_format, .width = fc->width, .height = fc->height,
		.usage = vfc->usage, .flags = vfc->img_flags, .format = vfc->format[0]};
	return 0;
}

int avx_vk_frame_lock(const AVFrame *f, AvxVkFrame *out) { return read_frame(f, out, 1); }

// The frames context's fields and the image handle, without lock_frame: the layout and semaphore
// value read this way may be stale.
int avx_vk_frame_info(const AVFrame *f, AvxVkFrame *out) { return read_frame(f, out, 0); }

void avx_vk_frame_submitted(const AVFrame *f, VkImageLayout layout, VkAccessFlags access) {
	AVVkFrame *vf = (AVVkFrame *)f->data[0];
	vf->layout[0] = layout;
	vf->access[0] = access;
	vf->sem_value[0]++;
}

void avx_vk_frame_unlock(const AVFrame *f) {
	AVHWFramesContext *fc = frames_of(f);
	if (!fc) return;
	((AVVulkanFramesContext *)fc->hwctx)->unlock_frame(fc, (AVVkFrame *)f->data[0]);
}

int avx_hw_download(AVFrame *dst, const AVFrame *src) {
	av_frame_unref(dst);
	int ret = av_hwframe_transfer_data(dst, src, 0);
	if (ret < 0) return ret;
	dst->width = src->width;
	dst->height = src->height;
	return av_frame_copy_props(dst, src);
}

// ---- Vulkan frames of software pictures (uploads) -----------------------------------------------

AVBufferRef *avx_hw_frames(AVBufferRef *device, int sw_format, int width, int height, int *err) {
	AVBufferRef *ref = av_hwframe_ctx_alloc(device);
	if (!ref) {
		*err = AVERROR(ENOMEM);
		return NULL;
	}
	AVHWFramesContext *fc = (AVHWFramesContext *)ref->data;
	fc->format = AV_PIX_FMT_VULKAN;
	fc->sw_format = sw_format;
	fc->width = width;
	fc->height = height;
	// The usages a decoder's output frames are sampled and copied with, without STORAGE (which
	// would make FFmpeg pick one image per plane where the multi-planar format cannot be a storage
	// image); img_flags stay FFmpeg's default, as for decoding (vulkan_frames_init: ALIAS, and for
	// multi-planar formats MUTABLE_FORMAT | EXTENDED_USAGE).
	AVVulkanFramesContext *vfc = fc->hwctx;
	vfc->usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	int ret = av_hwframe_ctx_init(ref);
	if (ret < 0) {
		av_buffer_unref(&ref);
		*err = ret;
		return NULL;
	}
	return ref;
}

int avx_hw_get_buffer(AVBufferRef *frames, AVFrame *dst) {
	av_frame_unref(dst);
	return av_hwframe_get_buffer(frames, dst, 0);
}

static void keep_free(void *opaque, uint8_t *data) { (void)opaque; (void)data; }

int avx_hw_upload(AVFrame *dst, const AVFrame *src) {
	int ret;
	dst->width = src->width;
	dst->height = src->height;
	// FFmpeg 7.1's upload keeps a clone of the frame it wrote in its transfer execution context until
	// that context is reused (ff_vk_exec_add_dep_frame), and that context belongs to the frames
	// context the clone references: a cycle that keeps the frames context, its images and command
	// pools alive after the last frame is gone. The upload is given a frame whose buffer and frames
	// context references point at dst's without owning them (their free does nothing), so the clone
	// holds nothing; dst itself keeps the image until its user has waited on its semaphore.
	AVFrame *tmp = av_frame_alloc();
	if (!tmp) return AVERROR(ENOMEM);
	tmp->format = dst->format;
	tmp->width = src->width;
	tmp->height = src->height;
	tmp->data[0] = dst->data[0];
	tmp->buf[0] = av_buffer_create(dst->data[0], sizeof(AVVkFrame), keep_free, NULL, 0);
	tmp->hw_frames_ctx = av_buffer_create(dst->hw_frames_ctx->data, dst->hw_frames_ctx->size, keep_free, NULL, 0);
	ret = tmp->buf[0] && tmp->hw_frames_ctx ? av_hwframe_transfer_data(tmp, src, 0) : AVERROR(ENOMEM);
	av_frame_free(&tmp);
	if (ret < 0) return ret;
	if ((ret = av_frame_copy_props(dst, src)) < 0) return ret;
	// FFmpeg 7.1 may copy straight from src's memory, imported as a buffer (host_map_frame with
	// VK_EXT_external_memory_host), and does not wait for the copy nor keep src's buffers: dst holds
	// them (opaque_ref, unreferenced with dst) until whoever uses dst has waited on its semaphore.
	if (!src->buf[0] || src->buf[1]) return AVERROR(EINVAL);
	av_buffer_unref(&dst->opaque_ref);
	if (!(dst->opaque_ref = av_buffer_ref(src->buf[0]))) return AVERROR(ENOMEM);
	return 0;
}

void avx_buffer_unref(AVBufferRef *ref) { av_buffer_unref(&ref); }
