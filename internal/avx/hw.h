// hw.h: FFmpeg's Vulkan hwaccel on the toolkit's own device (libavutil/hwcontext_vulkan.h).
#ifndef YCBCRKIT_AVX_HW_H
#define YCBCRKIT_AVX_HW_H
#include "avx.h"
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_vulkan.h>

// AvxVulkanDevice describes a VkDevice the toolkit created for AVVulkanDeviceContext.
typedef struct {
	void *get_proc_addr;
	VkInstance inst;
	VkPhysicalDevice phys;
	VkDevice dev;
	const char *const *inst_exts;
	int nb_inst_exts;
	const char *const *dev_exts;
	int nb_dev_exts;
	uint32_t family, queues;                    // the graphics+compute+transfer family
	uint32_t decode_family, decode_queues, caps; // the decode family, its video_caps
	VkBool32 timeline, sync2, ycbcr, video_maintenance1, host_query_reset;
	void *lock, *unlock; // void (*)(uint32_t family, uint32_t index): the toolkit's queue lock
	// engine_lock, if not 0, is a handle (enginelock.go) of an engine's lock on queue 0 of family:
	// lock_queue takes it for that family instead of lock (package videotex). The device context
	// owns the handle from then on and drops it when it is freed.
	uintptr_t engine_lock;
	// queue_flags are the VkDeviceQueueCreateFlags the queues of family and decode_family were
	// created with: not 0, FFmpeg's queues are fetched with vkGetDeviceQueue2 and them.
	// internally_synchronized: they were created internally synchronized
	// (VK_KHR_internally_synchronized_queues), so lock_queue takes no lock at all.
	uint32_t queue_flags;
	int internally_synchronized;
} AvxVulkanDevice;

// What lock_queue takes for a queue (avx_lock_choice): nothing, the engine's lock (engine_lock), or
// the toolkit's (lock, at *lock_index).
enum { AVX_LOCK_NONE = 0, AVX_LOCK_ENGINE = 1, AVX_LOCK_TOOLKIT = 2 };
int avx_lock_choice(int isq, int engine, uint32_t engine_family, int wrapped, int32_t decode_family, uint32_t family,
                    uint32_t index, uint32_t *lock_index);
// AVX_DECODE_QUEUES bounds the decode family's queues the toolkit hands out one per decoder.
#define AVX_DECODE_QUEUES 32
// avx_pick_decode_queue is the queue of the decode family's n a new decoder gets (hw.c,
// take_vqueue): the fewest users on its device (dev_users), then on the GPU (gpu_users: that
// index on every device), then the lowest index.
int avx_pick_decode_queue(const uint32_t *dev_users, const uint32_t *gpu_users, uint32_t n);
// avx_rebalance_pick is the move hw.c's rebalance makes among the decoders on the GPU's devices,
// users[d*n+q] decoders on queue q of device d: 1 with a decoder of device *dev to move from queue
// *from to *to (and, when *partner >= 0, one of device *partner from *to to *from) when a queue
// index carries two more than another over the GPU (moved from the device whose queues differ most
// between the two), or, that settled, a device's queue two more than another of its own (moved
// where no index then carries more than the GPU's most used, or swapped with a device the other
// way round); 0 when balanced. Each move lowers the sum of squares of the GPU's index loads, or
// keeps it and lowers the devices': the moves end.
int avx_rebalance_pick(const uint32_t *users, int ndev, uint32_t n, int *dev, uint32_t *from, uint32_t *to,
                       int *partner);
// avx_fair_pick is the swap hw.c's fair makes among n decoders of one device, decoder k on queue
// queue_of[k] (users[q] decoders on queue q of the nq) with done[k] decodings submitted: 1 with *lo,
// the decoder furthest behind on a queue more used than another decoder's, and *hi, the one furthest
// ahead on a queue less used than *lo's, when *hi leads by more than lead; 0: no swap.
int avx_fair_pick(const uint32_t *queue_of, const uint64_t *done, int n, const uint32_t *users, uint32_t nq, uint64_t lead,
                  int *lo, int *hi);
// avx_move_stays says a decoder that fair or rebalance moved (moved) submits its next batch to its
// old queue still: its decodings there are not done (done) and fewer than 8 batches went there
// since the move (deferred). hw.c's wrap_queue_submit2 asks it.
int avx_move_stays(int moved, int done, uint32_t deferred);
// avx_live_entry_sim (tests) checks, on a made-up entry, that a device's entry is taken for a new
// registration only from the same instance and vkCreateImage (hw.c, live_entry): 1 when so.
int avx_live_entry_sim(void);
// avx_vqueue_sim (tests) runs take_vqueue and end_vqueue as decoders do, on ndev made-up devices of
// one GPU whose decode family has n queues: decoder i starts on device dev_of[i], then decoders
// ends[0..nends) end in that order; index[i] is the queue decoder i is on after that
// (UINT32_MAX: ended). Every entry is removed again. 0 when the tables had no room.
int avx_vqueue_sim(int ndev, uint32_t n, const int *dev_of, int ndec, const int *ends, int nends, uint32_t *index);
// avx_move_sim (tests) runs a decoder of a made-up device of 7 decode queues through hw.c's
// vkQueueSubmit2 wrapper: op[k] 0 submits a batch while the decoder's timeline reads arg[k]
// (queue[k]: where the batch went; waited[k], value[k]: its wait on that timeline), 1 moves the
// decoder to queue arg[k] as fair does. The entries are removed again. 0 when something failed.
int avx_move_sim(int nops, const int *op, const uint64_t *arg, int *queue, int *waited, uint64_t *value);
// avx_query_sim (tests): supported[i], i < 2, is what a caller of hw.c's
// vkGetPhysicalDeviceQueueFamilyProperties2 (through its vkGetInstanceProcAddr) reads of result
// status query support, of two families a made-up driver says offer it. 0 when the call failed.
int avx_query_sim(int supported[2]);
// avx_reads_sim (tests): the hwaccel_flags hw.c's get_format leaves a decoder with, given flags,
// queued or not on a vqueue (reads_unsignalled). -1 when the context could not be made.
int avx_reads_sim(int queued, int flags);
// AvxWaitsOp is one step of avx_waits_sim: op 0 records a decoding's barrier (an image barrier for
// video decode) in command buffer cb, 1 another barrier (for a compute shader), 2 submits cb
// waiting on nwait semaphores wsem[j] (made-up handles by number) at wval[j] and signalling nsig
// ssem[j] at sval[j], 3 moves the decoder to queue arg as fair does.
typedef struct {
	int op, cb;
	uint32_t arg;
	int nwait, nsig;
	int wsem[4], ssem[4];
	uint64_t wval[4], sval[4];
} AvxWaitsOp;
// avx_waits_sim (tests) runs ops through hw.c's vkCmdPipelineBarrier2 and vkQueueSubmit2 wrappers
// for a decoder of a made-up device of 7 decode queues: for a barrier, mem[k] is how many memory
// barriers the driver got (-2: one that orders no decodings); for a submission, kept[k] has bit j
// set when wait j reached the driver, own[k] when a wait on the decoder's own timeline did. The
// entries are removed again. 0 when something failed.
int avx_waits_sim(int nops, const AvxWaitsOp *ops, int *kept, int *mem, int *own);
// avx_trace_* (dtrace.c): YCBCRKIT_DECODE_TRACE=FILE, GPU timestamps around each decoding, for
// device runs. avx_trace_wrap is hw.c's vkGetDeviceProcAddr's answer for the coding scope's
// commands (NULL: unwrapped); avx_trace_first marks a decoding's first command (its barrier) on
// dev; avx_trace_now and avx_trace_submitted bracket each decoding's submission on the decoder's
// thread (avx_trace_now is 0 when this thread records no traced one).
PFN_vkVoidFunction avx_trace_wrap(VkDevice dev, const char *name, PFN_vkGetDeviceProcAddr gdpa,
                                  PFN_vkGetInstanceProcAddr gipa, VkInstance inst, VkPhysicalDevice phys,
                                  int32_t decode_family);
uint64_t avx_trace_now(void);
// avx_env_u64 is the environment variable name as a decimal number, or def where it is unset or
// empty (the A/B knobs of device runs).
uint64_t avx_env_u64(const char *name, uint64_t def);
void avx_trace_first(VkCommandBuffer cb, VkDevice dev);
void avx_trace_submitted(VkQueue q, int stream, uint64_t cpu0, uint32_t waits, uint32_t signals);
// avx_decode_queue_moves counts the decoders moved to another queue while decoding (rebalance).
int64_t avx_decode_queue_moves(void);
// avx_queue_locks_taken counts the locks lock_queue has taken in this process (either kind).
int64_t avx_queue_locks_taken(void);

// avx_hw_vulkan_device makes an AV_HWDEVICE_TYPE_VULKAN device context of d (copies what it needs)
// and initialises it; NULL with *err set on failure.
AVBufferRef *avx_hw_vulkan_device(const AvxVulkanDevice *d, int *err);

// Hardware decoding state of one codec context (its get_format's choices).
typedef struct AvxHwDecode AvxHwDecode;
// avx_hw_install gives avctx the device and a get_format that picks AV_PIX_FMT_VULKAN when offered
// and, with check, when the device's decode capabilities cover the stream (profile, bit depth,
// chroma, coded size, image formats: what FFmpeg's hwaccel would find at its initialisation);
// required: never a software format (-hwdec vulkan). Before avcodec_open2. The pool p (installed
// already) carries the state to frame threads.
int avx_hw_install(AvxPool *p, AVCodecContext *avctx, AVBufferRef *device, int required, int check);
// AvxHwState: installed (avx_hw_install ran on the pool), offered (Vulkan was among get_format's
// formats), chosen (returned), refused (the capability check said no; reason says why), failed
// (FFmpeg asked again without it after choosing it: hwaccel initialisation failed).
typedef struct {
	int installed, offered, chosen, refused, failed, calls;
	char reason[320];
} AvxHwState;
void avx_hw_state(AvxPool *p, AvxHwState *out);
// avx_hw_idle says the decoder of p has ended (drained at the end of its input): its queue is counted
// free, and decoders still decoding may move to it. It counts again at its next decoding.
void avx_hw_idle(AvxPool *p);

// AvxVkFrame is what a consumer needs of an AV_PIX_FMT_VULKAN frame.
typedef struct {
	VkImage img;
	VkImageTiling tiling;
	VkImageLayout layout;
	VkAccessFlags access;
	VkSemaphore sem;
	uint64_t sem_value;
	// read_sem at read_value: the decoder's last decoding that read the frame as a reference without
	// signalling sem (scripts/ffmpeg-patches/0008); a submission waits on it too. NULL: none.
	VkSemaphore read_sem;
	uint64_t read_value;
	uint32_t queue_family;
	int nb_images;
	int sw_format, width, height; // the frames context's sw_format and coded size
	VkImageUsageFlags usage;
	VkImageCreateFlags flags;
	VkFormat format; // av_vkfmt_from_pixfmt(sw_format)[0]
	// epoch is 1 + how many images FFmpeg had destroyed when the frame was read (wrap_destroy_image):
	// a frame read at an epoch seen before shares its image handle with no image destroyed since.
	// 0 where the device's calls are not wrapped (nothing counted).
	uint64_t epoch;
} AvxVkFrame;

// avx_vk_frame_lock locks the frame (AVVulkanFramesContext.lock_frame) and reads its state; call
// avx_vk_frame_submitted after the submission that waited on sem at sem_value and signalled
// sem_value+1, leaving the image in layout, then the lock is released.
int avx_vk_frame_lock(const AVFrame *f, AvxVkFrame *out);
// avx_vk_frame_trylock is avx_vk_frame_lock without waiting: 1 when the lock is held elsewhere.
int avx_vk_frame_trylock(const AVFrame *f, AvxVkFrame *out);
// avx_vk_frame_info reads the same without the lock (image, formats, sizes: not layout or sem_value).
int avx_vk_frame_info(const AVFrame *f, AvxVkFrame *out);
void avx_vk_frame_submitted(const AVFrame *f, VkImageLayout layout, VkAccessFlags access);
void avx_vk_frame_unlock(const AVFrame *f);
// avx_hw_detach takes avctx's hw_device_ctx and hw_frames_ctx references out of it (set to NULL);
// avx_hw_release drops them once avcodec_free_context has joined the frame threads.
void avx_hw_detach(AVCodecContext *avctx, AVBufferRef **device, AVBufferRef **frames);
void avx_hw_release(AVBufferRef *device, AVBufferRef *frames);
// avx_hw_download copies a hardware frame into system memory (av_hwframe_transfer_data) once the
// decodings that read it have finished (wait_reads): call it on the decoder's thread, or while the
// decoder is idle, as a decoding submitted meanwhile that reads the frame is not waited for.
int avx_hw_download(AVFrame *dst, const AVFrame *src);
// avx_hw_frames makes an initialised AV_PIX_FMT_VULKAN frames context of sw_format at width×height
// on device, with the usages decoded frames are sampled with (SAMPLED, TRANSFER_SRC/DST).
AVBufferRef *avx_hw_frames(AVBufferRef *device, int sw_format, int width, int height, int *err);
// avx_hw_get_buffer makes dst a new Vulkan frame of frames; avx_hw_upload then copies the software
// frame src into it (dst's image has the frames context's size, its width and height become src's).
int avx_hw_get_buffer(AVBufferRef *frames, AVFrame *dst);
int avx_hw_upload(AVFrame *dst, const AVFrame *src);
void avx_buffer_unref(AVBufferRef *ref);
#endif
