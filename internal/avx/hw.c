// hw.c: FFmpeg's Vulkan hwaccel on the toolkit's own VkDevice (see hw.h). The contract followed is
// libavutil/hwcontext_vulkan.h's: AVVulkanDeviceContext for a user-created device, and for AVVkFrame
// "Must be waited on at every submission using the value in sem_value, and must be signalled at
// every submission, using an incremented value", with lock_frame "just before command submission".
#include "hw.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/pixdesc.h>

typedef void (*queue_fn)(uint32_t family, uint32_t index);

// The engine's queue lock, in Go (enginelock.go): FFmpeg calls lock_queue from its own threads, which
// cgo allows to call into Go.
extern void avxEngineQueueLock(uintptr_t h);
extern void avxEngineQueueUnlock(uintptr_t h);
extern void avxEngineQueueRelease(uintptr_t h);

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
	uintptr_t engine;       // the engine's lock on queue 0 of engine_family (0: none)
	uint32_t engine_family; // the toolkit's family when it is an engine's (qf[0])
	int wrapped;            // get_proc_addr is wrap_gipa (register_device)
	int32_t decode_family;  // the decode family (-1: none), whose queues share one lock (wrap_get_device_queue)
	int isq;                // the engine's queues are internally synchronized: lock_queue takes no lock
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

// ---- vkCreateImage for decode images ------------------------------------------------------------
//
// FFmpeg 7.1 creates its decode output images with VK_IMAGE_CREATE_ALIAS_BIT (and MUTABLE_FORMAT |
// EXTENDED_USAGE for multi-planar formats) whatever the device lists (hwcontext_vulkan.c,
// vulkan_frames_init), while an image whose pNext carries a decode VkVideoProfileListInfoKHR may only
// use the flags vkGetPhysicalDeviceVideoFormatPropertiesKHR reports for its format and usage
// (VUID-VkImageCreateInfo-pNext-06811; NVIDIA 580 does not list ALIAS). FFmpeg takes every Vulkan
// entry point through AVVulkanDeviceContext.get_proc_addr, so the toolkit hands it a lookup that
// returns its own vkCreateImage: for such images the flags are masked to the listed ones (FFmpeg's
// decoding relies on none of the flags dropped; the in-place route reads the flags really used, see
// avx_vk_frame_info), every other image is created unchanged.

#define MAX_DEVICES 8

static struct {
	VkDevice dev;
	VkInstance inst;
	VkPhysicalDevice phys;
	PFN_vkGetDeviceProcAddr gdpa;
	PFN_vkCreateImage create;
	PFN_vkGetPhysicalDeviceVideoFormatPropertiesKHR fmts;
	VkImageCreateFlags dropped; // the flags masked from any decode image so far
	int refs;                   // device contexts on dev (each decoder makes its own)
	PFN_vkGetDeviceQueue get_queue;
	PFN_vkGetDeviceQueue2 get_queue2;
	VkDeviceQueueCreateFlags queue_flags; // what the queues were created with (0: vkGetDeviceQueue)
	int32_t decode_family;                // -1: none
	uint32_t decode_queues, next_decode;
	uint32_t users[AVX_DECODE_QUEUES]; // decoders decoding on each queue of the decode family (vqueue)
	VkQueue queues[AVX_DECODE_QUEUES]; // the decode family's queues, fetched when first needed (device_queue)
	PFN_vkCreateSemaphore create_sem;
	PFN_vkDestroySemaphore destroy_sem;
	PFN_vkWaitSemaphores wait_sems;
	PFN_vkGetSemaphoreCounterValue counter;
	PFN_vkQueueSubmit2 submit2;
	uint8_t gpu[VK_UUID_SIZE];         // the physical device's deviceUUID: devices of one GPU share it
	PFN_vkAllocateMemory alloc;
	PFN_vkFreeMemory free_mem;
	PFN_vkCreateVideoSessionKHR create_session;
} devs[MAX_DEVICES];
static pthread_mutex_t devs_mu = PTHREAD_MUTEX_INITIALIZER;
static PFN_vkGetInstanceProcAddr real_gipa; // the loader's; one per process

static int dev_slot(VkDevice dev) {
	for (int i = 0; i < MAX_DEVICES; i++)
		if (devs[i].dev == dev) return i;
	return -1;
}

static VkResult VKAPI_CALL wrap_create_image(VkDevice dev, const VkImageCreateInfo *ci,
                                             const VkAllocationCallbacks *alloc, VkImage *img) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	PFN_vkCreateImage create = i >= 0 ? devs[i].create : NULL;
	VkPhysicalDevice phys = i >= 0 ? devs[i].phys : VK_NULL_HANDLE;
	PFN_vkGetPhysicalDeviceVideoFormatPropertiesKHR fmts = i >= 0 ? devs[i].fmts : NULL;
	pthread_mutex_unlock(&devs_mu);
	if (!create) return VK_ERROR_INITIALIZATION_FAILED;
	const VkVideoProfileListInfoKHR *list = NULL;
	for (const VkBaseInStructure *b = ci->pNext; b; b = b->pNext)
		if (b->sType == VK_STRUCTURE_TYPE_VIDEO_PROFILE_LIST_INFO_KHR) list = (const VkVideoProfileListInfoKHR *)b;
	const VkImageUsageFlags decode = VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR | VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR;
	if (!list || !fmts || !(ci->usage & decode) || !ci->flags) return create(dev, ci, alloc, img);
	VkPhysicalDeviceVideoFormatInfoKHR fi = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_FORMAT_INFO_KHR,
	                                         .pNext = list, .imageUsage = ci->usage};
	VkVideoFormatPropertiesKHR props[32];
	uint32_t n = 32;
	for (uint32_t k = 0; k < n; k++) props[k] = (VkVideoFormatPropertiesKHR){.sType = VK_STRUCTURE_TYPE_VIDEO_FORMAT_PROPERTIES_KHR};
	VkResult r = fmts(phys, &fi, &n, props);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE) return create(dev, ci, alloc, img);
	VkImageCreateFlags listed = 0;
	int found = 0;
	for (uint32_t k = 0; k < n; k++)
		if (props[k].format == ci->format && props[k].imageTiling == ci->tiling && props[k].imageType == ci->imageType) {
			listed |= props[k].imageCreateFlags;
			found = 1;
		}
	if (!found || !(ci->flags & ~listed)) return create(dev, ci, alloc, img);
	VkImageCreateInfo masked = *ci;
	masked.flags &= listed;
	pthread_mutex_lock(&devs_mu);
	if ((i = dev_slot(dev)) >= 0) devs[i].dropped |= ci->flags & ~listed;
	pthread_mutex_unlock(&devs_mu);
	return create(dev, &masked, alloc, img);
}

// ---- vkGetDeviceQueue: a queue of the decode family per decoder ----------------------------------
//
// FFmpeg 7.1 gives each decoder an execution pool of two contexts on queues 0 and 1 of the decode
// family (libavcodec/vulkan_decode.c: ff_vk_exec_pool_init(..., 2, ...); libavutil/vulkan.c:
// e->qi = i % nb_queues), so every decoder of a process submits to the same two queues however many
// the family has (NVIDIA's has seven). The toolkit gives each decoder one queue of the family for
// both its contexts (take_vqueue, when get_format picks Vulkan; wrap_get_device_queue hands it to
// the pool FFmpeg makes next on that thread): the queue fewest of the device's decoders use, and
// among those the index fewest decoders use on any device of the GPU. On NVIDIA's H200 (driver 580)
// queue i of every VkDevice runs on video engine i, a queue runs its decodings one at a time, and
// two sessions on one engine cost each other less from different devices' queues than from one
// queue's (docs/performance.md, "Live walls"). A pool made on another thread (FFmpeg's
// frame threads) gets the family's queues in turn. The index FFmpeg then passes to lock_queue is
// no longer the queue's own, so every queue of the decode family is guarded by one lock
// (lock_queue), which only FFmpeg's decode submissions take.
//
// A decoder's queue can change while it decodes. Streams of one length sharing engines unevenly
// (16 over 7) end at different times, and once an engine's streams end it idles while another still
// runs three: an untimed wall ends with its slowest stream. FFmpeg keeps the handle it was given
// (FFVkExecContext.queue) and passes it to nothing but vkQueueSubmit2 (libavutil/vulkan.c,
// ff_vk_exec_submit), so the handle a decoder gets is an entry of vqs, which wrap_queue_submit2
// resolves to the queue the decoder is on now. When a decoder ends (avx_hw_idle) or goes (hw_free),
// rebalance moves decoders until no queue index of the GPU carries two more than another
// (avx_rebalance_pick). A moved decoder goes once its own decodings are done (avx_move_stays).
//
// Queues an engine created with flags (VK_KHR_internally_synchronized_queues' flag) must be fetched
// with vkGetDeviceQueue2 and those flags: vkGetDeviceQueue is only for queues created without any
// (VUID-vkGetDeviceQueue-flags-01841), and FFmpeg 7.1 calls only vkGetDeviceQueue
// (libavutil/vulkan.c, ff_vk_exec_pool_init).
#define AVX_VQUEUES 512
#define AVX_SIGNALS 64

typedef struct {
	int used;                // a decoder holds it (take_vqueue to hw_free)
	VkDevice dev;            // the decoder's device
	uint32_t index;          // the queue of the decode family it is on now
	int active;              // counted in users[index]; 0 once the decoder ended (avx_hw_idle)
	VkQueue now;             // that queue
	VkQueue last;            // the queue its last batch went to (VK_NULL_HANDLE: none yet)
	PFN_vkQueueSubmit2 submit; // the device's own
	uint64_t done;           // decodings submitted: the decoder's thread adds, fair reads (devs_mu)
	VkSemaphore own;         // a timeline each of its batches signals (own_submit)
	uint64_t ownv;           // its last value (the decoder's thread)
	uint32_t deferred;       // batches submitted to last since it was moved (the decoder's thread)
	struct {
		VkSemaphore sem;
		uint64_t value;
		VkQueue queue;
	} sig[AVX_SIGNALS];      // its batches' last signals, a ring (own_submit; the decoder's thread)
	uint32_t nsig;
} vqueue;
// Under devs_mu; active, now and last are also read without it, atomically, by the decoder's
// thread (wrap_queue_submit2's fast path), the only one that writes last.
static vqueue vqs[AVX_VQUEUES];
static int64_t queue_moves;     // atomic: decoders rebalance moved (avx_decode_queue_moves)
static PFN_vkQueueSubmit2 real_submit2;     // the loader's trampolines: any device's queue
static PFN_vkQueueWaitIdle real_wait_idle;

static __thread int decode_vq = -1; // the vqs entry get_format gave this thread's decoder; -1: none

int64_t avx_decode_queue_moves(void) { return __atomic_load_n(&queue_moves, __ATOMIC_RELAXED); }

int avx_pick_decode_queue(const uint32_t *dev_users, const uint32_t *gpu_users, uint32_t n) {
	int best = -1;
	for (uint32_t q = 0; q < n; q++)
		if (best < 0 || dev_users[q] < dev_users[best] ||
		    (dev_users[q] == dev_users[best] && gpu_users[q] < gpu_users[best]))
			best = (int)q;
	return best;
}

int avx_rebalance_pick(const uint32_t *users, int ndev, uint32_t n, int *dev, uint32_t *from, uint32_t *to,
                       int *partner) {
	uint32_t gpu[AVX_DECODE_QUEUES] = {0};
	if (n > AVX_DECODE_QUEUES) n = AVX_DECODE_QUEUES;
	if (n < 2 || ndev < 1) return 0;
	for (int d = 0; d < ndev; d++)
		for (uint32_t q = 0; q < n; q++) gpu[q] += users[d * n + q];
	uint32_t hi = 0, lo = 0;
	for (uint32_t q = 1; q < n; q++) {
		if (gpu[q] > gpu[hi]) hi = q;
		if (gpu[q] < gpu[lo]) lo = q;
	}
	// First the GPU's engines: an index carrying two more than another gives it one, from the
	// device whose own queues differ most between the two.
	if (gpu[hi] >= gpu[lo] + 2) {
		int best = -1;
		for (int d = 0; d < ndev; d++) {
			int64_t gain = (int64_t)users[d * n + hi] - users[d * n + lo];
			if (users[d * n + hi] > 0 &&
			    (best < 0 || gain > (int64_t)users[best * n + hi] - users[best * n + lo]))
				best = d;
		}
		*dev = best, *from = hi, *to = lo, *partner = -1;
		return 1;
	}
	// Then each device's queues: two streams on one queue wait for each other longer than on two
	// devices' queues of one engine. A device's queue two above another of its own gives it one
	// where that index carries fewer over the GPU, or else swaps with a device the other way round
	// (the GPU's indices carry what they did).
	for (int d = 0; d < ndev; d++) {
		const uint32_t *u = users + d * n;
		for (uint32_t a = 0; a < n; a++)
			for (uint32_t b = 0; b < n; b++) {
				if (u[a] < u[b] + 2) continue;
				*dev = d, *from = a, *to = b, *partner = -1;
				if (gpu[b] + 1 <= gpu[a]) return 1;
				for (int e = 0; e < ndev; e++)
					if (e != d && users[e * n + b] >= users[e * n + a] + 1) {
						*partner = e;
						return 1;
					}
			}
	}
	return 0;
}

// decode_queues is how many queues of devs[i]'s decode family decoders are given (0: none to give).
static uint32_t decode_queues(int i) {
	if (i < 0 || devs[i].decode_family < 0 || devs[i].decode_queues < 2) return 0;
	return devs[i].decode_queues < AVX_DECODE_QUEUES ? devs[i].decode_queues : AVX_DECODE_QUEUES;
}

// same_gpu says devs[k] is a registered device of devs[i]'s GPU. Each device of a wall split over
// devices has its own instance, and so its own VkPhysicalDevice handle: the GPU is told by its UUID.
static int same_gpu(int k, int i) { return devs[k].dev && !memcmp(devs[k].gpu, devs[i].gpu, VK_UUID_SIZE); }

// engine_loads fills load[j], j < decode_queues(i), with the decoders on queue j of every device of
// devs[i]'s GPU: queue j of each device runs on video engine j. devs_mu held.
static void engine_loads(int i, uint32_t load[AVX_DECODE_QUEUES]) {
	uint32_t n = decode_queues(i);
	memset(load, 0, AVX_DECODE_QUEUES * sizeof load[0]);
	if (!n) return; // i < 0 too (decode_queues)
	for (int k = 0; k < MAX_DEVICES; k++)
		if (same_gpu(k, i))
			for (uint32_t j = 0; j < n; j++) load[j] += devs[k].users[j];
}

// pick_queue is the queue of devs[i] a decoder starting now gets (avx_pick_decode_queue). devs_mu held.
static uint32_t pick_queue(int i) {
	uint32_t gpu[AVX_DECODE_QUEUES];
	engine_loads(i, gpu);
	return (uint32_t)avx_pick_decode_queue(devs[i].users, gpu, decode_queues(i));
}

static VkQueue fetch_queue(PFN_vkGetDeviceQueue get, PFN_vkGetDeviceQueue2 get2, VkDeviceQueueCreateFlags flags,
                           VkDevice dev, uint32_t family, uint32_t index) {
	VkQueue q = VK_NULL_HANDLE;
	if (flags && get2) {
		VkDeviceQueueInfo2 qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2, .flags = flags,
		                         .queueFamilyIndex = family, .queueIndex = index};
		get2(dev, &qi, &q);
	} else if (get && !flags) {
		get(dev, family, index, &q);
	}
	return q;
}

// device_queue is queue index of devs[i]'s decode family. devs_mu held.
static VkQueue device_queue(int i, uint32_t index) {
	if (!devs[i].queues[index])
		devs[i].queues[index] = fetch_queue(devs[i].get_queue, devs[i].get_queue2, devs[i].queue_flags, devs[i].dev,
		                                    (uint32_t)devs[i].decode_family, index);
	return devs[i].queues[index];
}

// take_vqueue gives a new decoder on dev its queue of the decode family (pick_queue), as a vqs entry;
// -1 when the family has one queue, dev is not registered or vqs is full.
static int take_vqueue(VkDevice dev) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev), v = -1;
	if (decode_queues(i))
		for (int k = 0; k < AVX_VQUEUES; k++)
			if (!vqs[k].used) {
				uint32_t q = pick_queue(i);
				devs[i].users[q]++;
				vqs[k] = (vqueue){.used = 1, .dev = dev, .index = q, .active = 1, .now = device_queue(i, q),
				                  .submit = devs[i].submit2 ? devs[i].submit2 : real_submit2};
				v = k;
				break;
			}
	pthread_mutex_unlock(&devs_mu);
	return v;
}

// put_on puts decoder vq of devs[k] on queue q of its decode family (its next batch goes there:
// wrap_queue_submit2). devs_mu held.
static void put_on(vqueue *vq, int k, uint32_t q) {
	vq->index = q;
	__atomic_store_n(&vq->now, device_queue(k, q), __ATOMIC_RELEASE);
}

// move_one moves a decoder of devs[k] decoding on queue from to queue to; 0 when there is none.
// devs_mu held.
static int move_one(int k, uint32_t from, uint32_t to) {
	int v = 0;
	while (v < AVX_VQUEUES && !(vqs[v].used && vqs[v].active && vqs[v].dev == devs[k].dev && vqs[v].index == from)) v++;
	if (v == AVX_VQUEUES) return 0; // users counts a decoder not in vqs: not expected
	put_on(&vqs[v], k, to);
	devs[k].users[from]--, devs[k].users[to]++;
	__atomic_add_fetch(&queue_moves, 1, __ATOMIC_RELAXED);
	return 1;
}

// rebalance moves decoders on the GPU of devs[i] between queues of their device while
// avx_rebalance_pick finds a move. devs_mu held.
static void rebalance(int i) {
	for (int round = 0; round < AVX_VQUEUES; round++) {
		uint32_t users[MAX_DEVICES * AVX_DECODE_QUEUES], n = decode_queues(i);
		int slot[MAX_DEVICES], nd = 0;
		for (int k = 0; k < MAX_DEVICES; k++)
			if (same_gpu(k, i) && decode_queues(k) == n) slot[nd++] = k;
		for (int d = 0; d < nd; d++) memcpy(users + d * n, devs[slot[d]].users, n * sizeof users[0]);
		int d, e;
		uint32_t from, to;
		if (!n || !avx_rebalance_pick(users, nd, n, &d, &from, &to, &e)) return;
		if (!move_one(slot[d], from, to) || (e >= 0 && !move_one(slot[e], to, from))) return;
	}
}

// end_vqueue takes decoder v off its queue's count (it ended, or goes: release), then rebalances.
static void end_vqueue(int v, int release) {
	if (v < 0 || v >= AVX_VQUEUES) return;
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(vqs[v].dev), was = vqs[v].active;
	__atomic_store_n(&vqs[v].active, 0, __ATOMIC_RELEASE); // before rebalance, which moves active ones
	if (was && i >= 0 && devs[i].users[vqs[v].index] > 0) {
		devs[i].users[vqs[v].index]--;
		rebalance(i);
	}
	if (release) {
		// The codec context is gone, its execution contexts waited for (ff_vk_exec_pool_free): so is
		// every batch that signals own. Bounded all the same.
		if (vqs[v].own && i >= 0 && devs[i].destroy_sem) {
			if (devs[i].wait_sems) {
				VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
				                          .pSemaphores = &vqs[v].own, .pValues = &vqs[v].ownv};
				devs[i].wait_sems(vqs[v].dev, &wi, 1000000000ull);
			}
			devs[i].destroy_sem(vqs[v].dev, vqs[v].own, NULL);
		}
		vqs[v] = (vqueue){0};
	}
	pthread_mutex_unlock(&devs_mu);
}

// new_timeline is a timeline semaphore of dev at 0, made with create; VK_NULL_HANDLE when it could
// not be (create absent or failing).
static VkSemaphore new_timeline(PFN_vkCreateSemaphore create, VkDevice dev) {
	VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
	                                .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
	VkSemaphoreCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
	VkSemaphore sem = VK_NULL_HANDLE;
	if (!create || create(dev, &ci, NULL, &sem) != VK_SUCCESS) return VK_NULL_HANDLE;
	return sem;
}

// sim_device puts fake, a made-up device (never dereferenced) with n decode queues, on the made-up
// GPU whose UUID's bytes are all gpu, into a free entry of devs: the entry, or -1. devs_mu held.
static int sim_device(VkDevice fake, uint32_t n, uint8_t gpu) {
	int i = dev_slot(VK_NULL_HANDLE);
	if (i >= 0) {
		devs[i] = (typeof(devs[0])){.dev = fake, .refs = 1, .decode_family = 0, .decode_queues = n};
		memset(devs[i].gpu, gpu, VK_UUID_SIZE);
	}
	return i;
}

// sim_drop removes fake's entry (sim_device). devs_mu held.
static void sim_drop(VkDevice fake) {
	int i = fake ? dev_slot(fake) : -1;
	if (i >= 0) devs[i] = (typeof(devs[0])){0};
}

int avx_vqueue_sim(int ndev, uint32_t n, const int *dev_of, int ndec, const int *ends, int nends, uint32_t *index) {
	VkDevice fake[MAX_DEVICES] = {0};
	int v[AVX_VQUEUES], ok = 1;
	if (ndev < 1 || ndev > MAX_DEVICES || ndec < 0 || ndec > AVX_VQUEUES) return 0;
	pthread_mutex_lock(&devs_mu);
	for (int d = 0; d < ndev; d++) {
		fake[d] = (VkDevice)(uintptr_t)(0x5157000 + 16 * d);
		if (sim_device(fake[d], n, 0x51) < 0) ok = 0; // one GPU for all
	}
	pthread_mutex_unlock(&devs_mu);
	for (int i = 0; ok && i < ndec; i++)
		if ((v[i] = take_vqueue(fake[dev_of[i]])) < 0) ok = 0, ndec = i;
	for (int j = 0; ok && j < nends; j++) end_vqueue(v[ends[j]], 0);
	pthread_mutex_lock(&devs_mu);
	for (int i = 0; i < ndec; i++) {
		index[i] = vqs[v[i]].active ? vqs[v[i]].index : UINT32_MAX;
		vqs[v[i]] = (vqueue){0};
	}
	for (int d = 0; d < ndev; d++) sim_drop(fake[d]);
	pthread_mutex_unlock(&devs_mu);
	return ok;
}

// ---- Fairness: the streams of a GPU progress alike -------------------------------------------------
//
// 16 streams over 7 engines share them unevenly (3, 3, 2, 2, 2, 2, 2): on an H200 an HEVC stream
// decodes about 575 pictures/s beside two others on its engine and 680 beside one, an H.264 stream
// 282 and 362 (docs/performance.md, "Live walls"), so streams of one length end far apart and an
// untimed wall's last seconds decode on a few engines. Every AVX_FAIR_EVERY decodings a decoder
// looks (fair): the decoder furthest behind on a more loaded engine swaps queues with the one of
// its device furthest ahead on a less loaded engine, once that one leads by more than
// AVX_FAIR_LEAD decodings (avx_fair_pick; an engine's load counts every device's decoders on it).
// Both then move as rebalance's moves do (avx_move_stays). Streams that progress alike (a timed
// wall's) never swap. YCBCRKIT_FAIR=0 turns it off, YCBCRKIT_FAIR_LEAD=N sets the lead (A/B runs).
#define AVX_FAIR_EVERY 8
#define AVX_FAIR_LEAD 24

int avx_fair_pick(const uint32_t *queue_of, const uint64_t *done, int n, const uint32_t *users, uint32_t nq, uint64_t lead,
                  int *lo, int *hi) {
	uint32_t least = UINT32_MAX;
	int l = -1, h = -1;
	for (int k = 0; k < n; k++)
		if (queue_of[k] < nq && users[queue_of[k]] < least) least = users[queue_of[k]];
	for (int k = 0; k < n; k++)
		if (queue_of[k] < nq && users[queue_of[k]] > least && (l < 0 || done[k] < done[l])) l = k;
	if (l < 0) return 0;
	for (int k = 0; k < n; k++)
		if (queue_of[k] < nq && users[queue_of[k]] < users[queue_of[l]] && (h < 0 || done[k] > done[h])) h = k;
	if (h < 0 || done[h] <= done[l] + lead) return 0;
	*lo = l, *hi = h;
	return 1;
}

// env_on says whether an A/B toggle asked on every decoding is on: the environment variable name
// at "1" or "0", else def; read once into *state (0: not read yet; 1 on; 2 off).
static int env_on(int *state, const char *name, int def) {
	int st = __atomic_load_n(state, __ATOMIC_RELAXED);
	if (!st) {
		const char *e = getenv(name);
		int on = e && !strcmp(e, "1") ? 1 : e && !strcmp(e, "0") ? 0 : def;
		st = on ? 1 : 2;
		__atomic_store_n(state, st, __ATOMIC_RELAXED);
	}
	return st == 1;
}

static int fair_state; // YCBCRKIT_FAIR (env_on): on unless 0
static int fair_on(void) { return env_on(&fair_state, "YCBCRKIT_FAIR", 1); }

uint64_t avx_env_u64(const char *name, uint64_t def) {
	const char *e = getenv(name);
	return e && *e ? strtoull(e, NULL, 10) : def;
}

// fair_lead is AVX_FAIR_LEAD, or YCBCRKIT_FAIR_LEAD=N (A/B runs); read once.
static uint64_t fair_lead(void) {
	static int64_t lead = -1;
	int64_t l = __atomic_load_n(&lead, __ATOMIC_RELAXED);
	if (l < 0) {
		l = (int64_t)avx_env_u64("YCBCRKIT_FAIR_LEAD", AVX_FAIR_LEAD);
		if (l < 0) l = AVX_FAIR_LEAD;
		__atomic_store_n(&lead, l, __ATOMIC_RELAXED);
	}
	return (uint64_t)l;
}

// fair swaps the queues of vq's device's decoders avx_fair_pick picks. The tables are static, under
// devs_mu (AVX_VQUEUES entries would be 8 KB of a C stack).
static int fair_idx[AVX_VQUEUES];
static uint32_t fair_queue[AVX_VQUEUES];
static uint64_t fair_done[AVX_VQUEUES];

static void fair(const vqueue *vq) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(vq->dev), n = 0, l, h;
	uint32_t nq = decode_queues(i), engine[AVX_DECODE_QUEUES];
	// A queue's load is its engine's: a wall decoding on several devices still shares engines.
	engine_loads(i, engine);
	for (int k = 0; nq && k < AVX_VQUEUES; k++)
		if (vqs[k].used && vqs[k].active && vqs[k].dev == vq->dev) {
			fair_idx[n] = k, fair_queue[n] = vqs[k].index;
			fair_done[n++] = __atomic_load_n(&vqs[k].done, __ATOMIC_RELAXED);
		}
	if (n && avx_fair_pick(fair_queue, fair_done, n, engine, nq, fair_lead(), &l, &h)) {
		vqueue *a = &vqs[fair_idx[l]], *b = &vqs[fair_idx[h]];
		uint32_t q = a->index;
		put_on(a, i, b->index);
		put_on(b, i, q);
		__atomic_add_fetch(&queue_moves, 2, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&devs_mu);
}

// ---- Moves: a decoder goes when its own decodings are done ------------------------------------------
//
// A moved decoder's decodings must follow its last one on the old queue (its session and pictures),
// and only those: each of its batches signals a timeline of its own (own_submit), and its first
// batch on a new queue waits for the last value. A signal's first synchronization scope is all
// that came earlier in submission order on its queue (Vulkan spec, "Semaphore Signaling"), so the
// wait holds what was queued before that decoding too, and a batch waiting at a queue's head holds
// up every batch behind it on that queue: the decoder keeps submitting to its old queue until its
// timeline shows its decodings done (vkGetSemaphoreCounterValue), when the wait is on a value
// already reached, or AVX_MOVE_DEFER batches went by (avx_move_stays). On an H200 16 HEVC streams
// decode 1.01x the pictures/s of moves whose first batch waited for all the old queue held, and
// the decoder use a second stays at 94-95 % (row defer42).
#define AVX_MOVE_DEFER 8

int avx_move_stays(int moved, int done, uint32_t deferred) { return moved && !done && deferred < AVX_MOVE_DEFER; }

// own_done says vq's decodings have all finished (its timeline reached its last value), read with
// its device's counter.
static int own_done(vqueue *vq, PFN_vkGetSemaphoreCounterValue counter) {
	uint64_t c = 0;
	return vq->own && counter && counter(vq->dev, vq->own, &c) == VK_SUCCESS && c >= vq->ownv;
}

// ---- Decodings wait only for what their queue does not order -----------------------------------
//
// FFmpeg's decoding waits on every picture it uses at the value its last user signalled
// (libavutil/vulkan.c, ff_vk_exec_add_dep_frame): most often the stream's own previous decodings,
// on the same queue, not finished yet. Such a wait costs the engine about 1.3 us between decodings
// (5 waits and 6 signals: 19.5 us, row gap44) and, on NVIDIA (driver 580), holds the batch until
// the value is reached: one HEVC stream an engine kept it busy 80 % of the time, 94-95 % without
// those waits (rows final44, exp44b). Two things make them redundant. Commands of a later batch on a
// queue are ordered after those of earlier batches by a pipeline barrier whose first scope covers
// their stage (Vulkan spec, "Execution and Memory Dependencies": submission order), and the
// decoding's first barrier (wrap_barrier2) gets a global memory barrier from video decode writes to
// video decode reads and writes, which FFmpeg's image barriers lack (srcAccessMask NONE). So a
// batch whose decode barrier went through wrap_barrier2 drops the waits on values its decoder's
// own batches signal on the same queue (keep_waits); the other waits stay (another queue's work:
// the wall's copies and conversions; moves: own_submit). YCBCRKIT_DECODE_WAITS=1 keeps them all.
static PFN_vkCmdPipelineBarrier2 real_barrier2; // the loader's trampoline
static __thread VkCommandBuffer decode_barrier; // where this thread's decoding recorded its barrier (wrap_barrier2)
static int waits_state;                         // YCBCRKIT_DECODE_WAITS (env_on): 1 keeps all waits

// decode_dependency is what wrap_barrier2 records for dep: dep itself, or, when it is a decoding's
// (an image barrier for video decode), a copy in *out with the global barrier appended (mem has
// room for 8 memory barriers; more: dep unchanged).
static const VkDependencyInfo *decode_dependency(const VkDependencyInfo *dep, VkDependencyInfo *out,
                                                 VkMemoryBarrier2 *mem) {
	int decode = 0;
	for (uint32_t i = 0; i < dep->imageMemoryBarrierCount; i++)
		if (dep->pImageMemoryBarriers[i].dstStageMask & VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR) decode = 1;
	if (!decode || dep->memoryBarrierCount >= 8) return dep;
	memcpy(mem, dep->pMemoryBarriers, dep->memoryBarrierCount * sizeof mem[0]);
	mem[dep->memoryBarrierCount] = (VkMemoryBarrier2){
	    .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
	    .srcStageMask = VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR,
	    .srcAccessMask = VK_ACCESS_2_VIDEO_DECODE_WRITE_BIT_KHR,
	    .dstStageMask = VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR,
	    .dstAccessMask = VK_ACCESS_2_VIDEO_DECODE_READ_BIT_KHR | VK_ACCESS_2_VIDEO_DECODE_WRITE_BIT_KHR};
	*out = *dep;
	out->pMemoryBarriers = mem;
	out->memoryBarrierCount = dep->memoryBarrierCount + 1;
	return out;
}

static void VKAPI_CALL wrap_barrier2(VkCommandBuffer cb, const VkDependencyInfo *dep) {
	VkDependencyInfo d;
	VkMemoryBarrier2 mem[9];
	const VkDependencyInfo *use = decode_dependency(dep, &d, mem);
	if (use != dep) {
		decode_barrier = cb;
		int v = decode_vq;
		avx_trace_first(cb, v >= 0 ? __atomic_load_n(&vqs[v].dev, __ATOMIC_RELAXED) : VK_NULL_HANDLE);
	}
	real_barrier2(cb, use);
}

// keep_waits copies into out the waits of in[0..n) that a batch of vq's decoder on q keeps, and
// says how many: all but those on a value its own batches signalled on q.
static uint32_t keep_waits(const vqueue *vq, VkQueue q, const VkSemaphoreSubmitInfo *in, uint32_t n,
                           VkSemaphoreSubmitInfo *out) {
	uint32_t k = 0;
	for (uint32_t j = 0; j < n; j++) {
		int own = 0;
		for (uint32_t r = 0; r < AVX_SIGNALS && r < vq->nsig && !own; r++)
			own = vq->sig[r].sem == in[j].semaphore && vq->sig[r].value == in[j].value && vq->sig[r].queue == q;
		if (!own) out[k++] = in[j];
	}
	return k;
}

// signalled notes the signals of a batch vq's decoder submitted to q (keep_waits).
static void signalled(vqueue *vq, VkQueue q, const VkSemaphoreSubmitInfo *s, uint32_t n) {
	for (uint32_t j = 0; j < n; j++) {
		if (s[j].semaphore == vq->own) continue; // waited on only by moves, which keep their wait
		uint32_t r = vq->nsig++ % AVX_SIGNALS;
		vq->sig[r].sem = s[j].semaphore, vq->sig[r].value = s[j].value, vq->sig[r].queue = q;
	}
	if (vq->nsig >= 2 * AVX_SIGNALS) vq->nsig -= AVX_SIGNALS; // stays >= AVX_SIGNALS: the ring full
}

// own_submit submits submits to q with a signal of vq->own appended to the last batch and, when the
// decoder moved (from is another queue), a wait for its last value added to the first. The timeline
// is made on the decoder's first batch; without it, a plain submit after from is idle.
static VkResult own_submit(vqueue *vq, VkQueue q, VkQueue from, uint32_t n, const VkSubmitInfo2 *submits,
                           VkFence fence) {
	PFN_vkQueueSubmit2 submit = vq->submit;
	if (!vq->own) {
		pthread_mutex_lock(&devs_mu);
		int i = dev_slot(vq->dev);
		PFN_vkCreateSemaphore create = i >= 0 ? devs[i].create_sem : NULL;
		pthread_mutex_unlock(&devs_mu);
		VkSemaphore sem = new_timeline(create, vq->dev);
		if (!sem) {
			if (from && from != q && real_wait_idle) real_wait_idle(from);
			return submit(q, n, submits, fence);
		}
		pthread_mutex_lock(&devs_mu); // end_vqueue reads it under the lock
		vq->own = sem, vq->ownv = 0;
		pthread_mutex_unlock(&devs_mu);
	}
	if (n < 1 || n > 8) return n ? VK_ERROR_OUT_OF_HOST_MEMORY : submit(q, n, submits, fence);
	VkSubmitInfo2 all[8];
	memcpy(all, submits, n * sizeof all[0]);
	VkSemaphoreSubmitInfo waits[65], sigs[65];
	VkSubmitInfo2 *first = &all[0], *last = &all[n - 1];
	// The batch is the decoding whose barrier wrap_barrier2 saw: its one command buffer.
	int drop = decode_barrier && n == 1 && first->commandBufferInfoCount == 1 &&
	           first->pCommandBufferInfos[0].commandBuffer == decode_barrier && first->waitSemaphoreInfoCount < 64 &&
	           !env_on(&waits_state, "YCBCRKIT_DECODE_WAITS", 0);
	decode_barrier = VK_NULL_HANDLE;
	if (drop) {
		first->waitSemaphoreInfoCount = keep_waits(vq, q, first->pWaitSemaphoreInfos, first->waitSemaphoreInfoCount, waits);
		first->pWaitSemaphoreInfos = waits;
	}
	if (from && from != q && vq->ownv > 0) {
		if (first->waitSemaphoreInfoCount >= 64) return VK_ERROR_OUT_OF_HOST_MEMORY;
		if (!drop) memcpy(waits, first->pWaitSemaphoreInfos, first->waitSemaphoreInfoCount * sizeof waits[0]);
		waits[first->waitSemaphoreInfoCount] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		    .semaphore = vq->own, .value = vq->ownv, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
		first->pWaitSemaphoreInfos = waits;
		first->waitSemaphoreInfoCount++;
	} else if (from && from != q && real_wait_idle) {
		real_wait_idle(from); // the first batch after the timeline's making, moved: nothing to wait on
	}
	if (last->signalSemaphoreInfoCount >= 64) return VK_ERROR_OUT_OF_HOST_MEMORY;
	memcpy(sigs, last->pSignalSemaphoreInfos, last->signalSemaphoreInfoCount * sizeof sigs[0]);
	sigs[last->signalSemaphoreInfoCount] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
	    .semaphore = vq->own, .value = vq->ownv + 1, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
	last->pSignalSemaphoreInfos = sigs;
	last->signalSemaphoreInfoCount++;
	uint64_t t0 = avx_trace_now();
	VkResult r = submit(q, n, all, fence);
	if (r != VK_SUCCESS) return r;
	vq->ownv++;
	for (uint32_t b = 0; b < n; b++) signalled(vq, q, all[b].pSignalSemaphoreInfos, all[b].signalSemaphoreInfoCount);
	avx_trace_submitted(q, (int)(vq - vqs), t0, first->waitSemaphoreInfoCount, last->signalSemaphoreInfoCount);
	return r;
}

// submitted counts a decoding vq's decoder submitted, on its thread, and now and then looks (fair).
static void submitted(vqueue *vq) {
	if (__atomic_add_fetch(&vq->done, 1, __ATOMIC_RELAXED) % AVX_FAIR_EVERY == 0 && fair_on()) fair(vq);
}

static VkResult VKAPI_CALL wrap_queue_submit2(VkQueue queue, uint32_t n, const VkSubmitInfo2 *submits, VkFence fence) {
	vqueue *vq = (vqueue *)queue;
	if (vq < vqs || vq >= vqs + AVX_VQUEUES) return real_submit2(queue, n, submits, fence);
	// Where it went last and still counted there: no lock (the decoder's own thread).
	VkQueue now = __atomic_load_n(&vq->now, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&vq->active, __ATOMIC_ACQUIRE) && now && now == __atomic_load_n(&vq->last, __ATOMIC_RELAXED)) {
		VkResult r = own_submit(vq, now, now, n, submits, fence);
		if (r == VK_SUCCESS) submitted(vq);
		return r;
	}
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(vq->dev);
	if (i >= 0 && !vq->active && decode_queues(i)) {
		// Decoding again after its end (a seek back): the decoder counts on a queue again.
		put_on(vq, i, pick_queue(i));
		devs[i].users[vq->index]++;
		__atomic_store_n(&vq->active, 1, __ATOMIC_RELEASE);
	}
	VkQueue to = i >= 0 ? vq->now : VK_NULL_HANDLE, from = vq->last;
	PFN_vkGetSemaphoreCounterValue counter = i >= 0 ? devs[i].counter : NULL;
	pthread_mutex_unlock(&devs_mu);
	if (!to) return VK_ERROR_DEVICE_LOST;
	if (n > 8) return VK_ERROR_OUT_OF_HOST_MEMORY; // FFmpeg submits one batch at a time
	int moved = from && from != to;
	if (avx_move_stays(moved, moved && own_done(vq, counter), vq->deferred)) {
		to = from;
		vq->deferred++;
	} else {
		vq->deferred = 0;
	}
	VkResult r = own_submit(vq, to, from, n, submits, fence);
	if (r == VK_SUCCESS) {
		__atomic_store_n(&vq->last, to, __ATOMIC_RELEASE);
		submitted(vq);
	}
	return r;
}

// ---- avx_move_sim: wrap_queue_submit2 on a made-up device (tests) ------------------------------

static struct {
	VkQueue queue;         // where the batch went
	int waited;            // it waits on the decoder's own timeline
	uint64_t value;        // for that value
	VkSemaphore own;       // the timeline sim_create_sem made
} sim_log;
static uint64_t sim_value; // what sim_counter reports

static VkResult VKAPI_CALL sim_submit2(VkQueue q, uint32_t n, const VkSubmitInfo2 *submits, VkFence fence) {
	(void)fence;
	sim_log.queue = q, sim_log.waited = 0, sim_log.value = 0;
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t w = 0; w < submits[b].waitSemaphoreInfoCount; w++)
			if (submits[b].pWaitSemaphoreInfos[w].semaphore == sim_log.own)
				sim_log.waited = 1, sim_log.value = submits[b].pWaitSemaphoreInfos[w].value;
	return VK_SUCCESS;
}

static VkResult VKAPI_CALL sim_create_sem(VkDevice dev, const VkSemaphoreCreateInfo *ci, const VkAllocationCallbacks *alloc,
                                          VkSemaphore *sem) {
	(void)dev, (void)ci, (void)alloc;
	*sem = sim_log.own = (VkSemaphore)(uintptr_t)0x5e3a000; // never a real handle: not dereferenced
	return VK_SUCCESS;
}

static VkResult VKAPI_CALL sim_counter(VkDevice dev, VkSemaphore sem, uint64_t *value) {
	(void)dev, (void)sem;
	*value = sim_value;
	return VK_SUCCESS;
}

// sim_decode_device registers fake with n made-up decode queues (handles from queue_base), submit as
// its vkQueueSubmit2 and the made-up timeline functions; its entry, -1 when the table is full.
static int sim_decode_device(VkDevice fake, uint32_t n, uint8_t gpu, PFN_vkQueueSubmit2 submit, uintptr_t queue_base) {
	pthread_mutex_lock(&devs_mu);
	int i = sim_device(fake, n, gpu);
	if (i >= 0) {
		devs[i].submit2 = submit, devs[i].create_sem = sim_create_sem, devs[i].counter = sim_counter;
		for (uint32_t q = 0; q < n; q++) devs[i].queues[q] = (VkQueue)(queue_base + 16 * q);
	}
	pthread_mutex_unlock(&devs_mu);
	return i;
}

int avx_move_sim(int nops, const int *op, const uint64_t *arg, int *queue, int *waited, uint64_t *value) {
	const uint32_t n = 7;
	VkDevice fake = (VkDevice)(uintptr_t)0x5e3b000;
	int i = sim_decode_device(fake, n, 0x5e, sim_submit2, 0x5e3c000);
	if (i < 0) return 0;
	int v = take_vqueue(fake), ok = v >= 0;
	VkSubmitInfo2 batch = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
	for (int k = 0; ok && k < nops; k++) {
		queue[k] = -1, waited[k] = 0, value[k] = 0;
		if (op[k] == 1) { // fair's or rebalance's move, to queue arg[k]
			pthread_mutex_lock(&devs_mu);
			ok = arg[k] < n && move_one(i, vqs[v].index, (uint32_t)arg[k]);
			pthread_mutex_unlock(&devs_mu);
			continue;
		}
		sim_value = arg[k];
		if (wrap_queue_submit2((VkQueue)&vqs[v], 1, &batch, VK_NULL_HANDLE) != VK_SUCCESS) ok = 0;
		for (uint32_t q = 0; q < n; q++)
			if (sim_log.queue == devs[i].queues[q]) queue[k] = (int)q;
		waited[k] = sim_log.waited, value[k] = sim_log.value;
	}
	if (v >= 0) end_vqueue(v, 1);
	pthread_mutex_lock(&devs_mu);
	sim_drop(fake);
	pthread_mutex_unlock(&devs_mu);
	return ok;
}

// ---- avx_waits_sim: keep_waits and wrap_barrier2 on a made-up device (tests) -------------------

static struct {
	uint32_t nwaits;
	VkSemaphoreSubmitInfo waits[16];
	int nmem;                // memory barriers the last barrier passed on
	VkMemoryBarrier2 mem[9];
} wsim;

static VkResult VKAPI_CALL wsim_submit2(VkQueue q, uint32_t n, const VkSubmitInfo2 *submits, VkFence fence) {
	(void)q, (void)fence;
	wsim.nwaits = n ? submits[0].waitSemaphoreInfoCount : 0;
	if (wsim.nwaits > 16) wsim.nwaits = 16;
	memcpy(wsim.waits, submits[0].pWaitSemaphoreInfos, wsim.nwaits * sizeof wsim.waits[0]);
	return VK_SUCCESS;
}

static void VKAPI_CALL wsim_barrier2(VkCommandBuffer cb, const VkDependencyInfo *dep) {
	(void)cb;
	wsim.nmem = (int)dep->memoryBarrierCount;
	if (wsim.nmem > 9) wsim.nmem = 9;
	memcpy(wsim.mem, dep->pMemoryBarriers, wsim.nmem * sizeof wsim.mem[0]);
}

int avx_waits_sim(int nops, const AvxWaitsOp *ops, int *kept, int *mem, int *own) {
	const uint32_t n = 7;
	VkDevice fake = (VkDevice)(uintptr_t)0x5e4b000;
	int i = sim_decode_device(fake, n, 0x5f, wsim_submit2, 0x5e4c000);
	if (i < 0) return 0;
	PFN_vkCmdPipelineBarrier2 saved = __atomic_exchange_n(&real_barrier2, wsim_barrier2, __ATOMIC_ACQ_REL);
	int v = take_vqueue(fake), ok = v >= 0;
	for (int k = 0; ok && k < nops; k++) {
		const AvxWaitsOp *o = &ops[k];
		VkCommandBuffer cb = (VkCommandBuffer)(uintptr_t)(0x5e4d000 + 16 * o->cb);
		kept[k] = 0, mem[k] = -1, own[k] = 0;
		if (o->op == 0 || o->op == 1) { // a decoding's barrier, or another's
			VkImageMemoryBarrier2 img = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
			    .srcStageMask = VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR,
			    .dstStageMask = o->op == 0 ? VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR : VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT};
			VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = 1,
			                        .pImageMemoryBarriers = &img};
			wrap_barrier2(cb, &dep);
			mem[k] = wsim.nmem;
			if (wsim.nmem == 1 && (wsim.mem[0].srcStageMask != VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR ||
			                       !(wsim.mem[0].srcAccessMask & VK_ACCESS_2_VIDEO_DECODE_WRITE_BIT_KHR) ||
			                       !(wsim.mem[0].dstStageMask & VK_PIPELINE_STAGE_2_VIDEO_DECODE_BIT_KHR) ||
			                       !(wsim.mem[0].dstAccessMask & VK_ACCESS_2_VIDEO_DECODE_READ_BIT_KHR)))
				mem[k] = -2; // a barrier that orders nothing of the decodings
			continue;
		}
		if (o->op == 3) { // fair's or rebalance's move, to queue o->arg
			pthread_mutex_lock(&devs_mu);
			ok = o->arg < n && move_one(i, vqs[v].index, o->arg);
			pthread_mutex_unlock(&devs_mu);
			sim_value = UINT64_MAX; // its decodings done: it goes at its next batch
			continue;
		}
		VkSemaphoreSubmitInfo w[4], sg[4];
		for (int j = 0; j < o->nwait && j < 4; j++)
			w[j] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
			    .semaphore = (VkSemaphore)(uintptr_t)(0x5e4e000 + 16 * o->wsem[j]), .value = o->wval[j]};
		for (int j = 0; j < o->nsig && j < 4; j++)
			sg[j] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
			    .semaphore = (VkSemaphore)(uintptr_t)(0x5e4e000 + 16 * o->ssem[j]), .value = o->sval[j]};
		VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cb};
		VkSubmitInfo2 b = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = (uint32_t)o->nwait,
		                   .pWaitSemaphoreInfos = w, .commandBufferInfoCount = 1, .pCommandBufferInfos = &cbi,
		                   .signalSemaphoreInfoCount = (uint32_t)o->nsig, .pSignalSemaphoreInfos = sg};
		if (wrap_queue_submit2((VkQueue)&vqs[v], 1, &b, VK_NULL_HANDLE) != VK_SUCCESS) ok = 0;
		for (uint32_t x = 0; x < wsim.nwaits; x++) {
			if (wsim.waits[x].semaphore == vqs[v].own) own[k] = 1;
			for (int j = 0; j < o->nwait && j < 4; j++)
				if (wsim.waits[x].semaphore == w[j].semaphore && wsim.waits[x].value == w[j].value) kept[k] |= 1 << j;
		}
	}
	if (v >= 0) end_vqueue(v, 1);
	__atomic_store_n(&real_barrier2, saved, __ATOMIC_RELEASE);
	sim_value = 0;
	pthread_mutex_lock(&devs_mu);
	sim_drop(fake);
	pthread_mutex_unlock(&devs_mu);
	return ok;
}

static void VKAPI_CALL wrap_get_device_queue(VkDevice dev, uint32_t family, uint32_t index, VkQueue *q) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	PFN_vkGetDeviceQueue get = i >= 0 ? devs[i].get_queue : NULL;
	PFN_vkGetDeviceQueue2 get2 = i >= 0 ? devs[i].get_queue2 : NULL;
	VkDeviceQueueCreateFlags flags = i >= 0 ? devs[i].queue_flags : 0;
	if (decode_queues(i) && family == (uint32_t)devs[i].decode_family) {
		if (decode_vq >= 0 && vqs[decode_vq].used && vqs[decode_vq].dev == dev) {
			*q = (VkQueue)&vqs[decode_vq]; // wrap_queue_submit2 resolves it
			pthread_mutex_unlock(&devs_mu);
			return;
		}
		index = devs[i].next_decode++ % devs[i].decode_queues;
	}
	pthread_mutex_unlock(&devs_mu);
	*q = fetch_queue(get, get2, flags, dev, family, index);
}

// ---- vkCreateVideoSessionKHR: a session the stream's size ------------------------------------------
//
// FFmpeg 7.1 creates each decoder's video session for the largest pictures the device decodes
// (libavcodec/vulkan_decode.c, ff_vk_decode_init: maxCodedExtent = caps.maxCodedExtent), and the
// driver sizes the session's memory by it: on an H200 a 1080p HEVC stream's session took about
// 220 MB, most of a wall's device memory per stream (docs/performance.md, "Live walls"). The
// toolkit's get_format, which runs on the thread that then initialises the hwaccel (ff_get_format),
// notes the stream's coded size; the session FFmpeg creates next on that thread is made for it. A
// new size comes with a new sequence, for which libavcodec calls get_format again and the hwaccel
// makes a new session.
static __thread uint32_t session_w, session_h; // the coded size get_format chose Vulkan for; 0: none

static VkResult VKAPI_CALL wrap_create_video_session(VkDevice dev, const VkVideoSessionCreateInfoKHR *ci,
                                                     const VkAllocationCallbacks *alloc, VkVideoSessionKHR *out) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	PFN_vkCreateVideoSessionKHR create = i >= 0 ? devs[i].create_session : NULL;
	pthread_mutex_unlock(&devs_mu);
	if (!create) return VK_ERROR_INITIALIZATION_FAILED;
	VkVideoSessionCreateInfoKHR c = *ci;
	if (session_w && session_h && session_w <= c.maxCodedExtent.width && session_h <= c.maxCodedExtent.height)
		c.maxCodedExtent = (VkExtent2D){session_w, session_h};
	session_w = session_h = 0;
	decode_vq = -1; // the decoder's pool is made (ff_vk_decode_init makes it before the session)
	return create(dev, &c, alloc, out);
}

// ---- vkAllocateMemory/vkFreeMemory: FFmpeg's device memory, counted -----------------------------
//
// What FFmpeg allocates on the toolkit's device (decode images, DPB, bitstream buffers, the video
// session's memory) goes through the same lookup, so the toolkit counts it: the process's bytes now
// and at most, and per decoder what is allocated while its get_buffer2 makes a hardware frame (the
// frames pool's images: avx_mem_owner names the decoder's pool on that thread meanwhile).

#define MAX_OWNERS 1024
__thread int avx_mem_owner;              // the pool allocating on this thread (0: none)
static int next_owner = 1;               // atomic
static int64_t ff_now, ff_peak;          // under mem_mu
static PFN_vkFreeMemory free_any;        // the loader's trampoline, for a device no longer registered
static int64_t owner_now[MAX_OWNERS], owner_peak[MAX_OWNERS];
static struct mem_entry {
	VkDeviceMemory mem;
	int64_t size;
	int owner;
} *mem_table;
static int mem_len, mem_cap;
static pthread_mutex_t mem_mu = PTHREAD_MUTEX_INITIALIZER;

int avx_mem_new_owner(void) {
	int id = __atomic_fetch_add(&next_owner, 1, __ATOMIC_RELAXED);
	return id < MAX_OWNERS ? id : 0;
}

void avx_mem_ffmpeg(int owner, int64_t *now, int64_t *peak) {
	pthread_mutex_lock(&mem_mu);
	if (owner > 0 && owner < MAX_OWNERS) {
		*now = owner_now[owner];
		*peak = owner_peak[owner];
	} else {
		*now = ff_now;
		*peak = ff_peak;
	}
	pthread_mutex_unlock(&mem_mu);
}

static void mem_add(VkDeviceMemory mem, int64_t size, int owner) {
	pthread_mutex_lock(&mem_mu);
	if (mem_len == mem_cap) {
		int cap = mem_cap ? 2 * mem_cap : 256;
		struct mem_entry *t = realloc(mem_table, cap * sizeof(*t));
		if (!t) {
			pthread_mutex_unlock(&mem_mu);
			return; // not counted
		}
		mem_table = t, mem_cap = cap;
	}
	if (owner < 0 || owner >= MAX_OWNERS) owner = 0;
	mem_table[mem_len++] = (struct mem_entry){mem, size, owner};
	ff_now += size;
	if (ff_now > ff_peak) ff_peak = ff_now;
	if (owner) {
		owner_now[owner] += size;
		if (owner_now[owner] > owner_peak[owner]) owner_peak[owner] = owner_now[owner];
	}
	pthread_mutex_unlock(&mem_mu);
}

static void mem_remove(VkDeviceMemory mem) {
	pthread_mutex_lock(&mem_mu);
	for (int k = mem_len - 1; k >= 0; k--) {
		if (mem_table[k].mem != mem) continue;
		ff_now -= mem_table[k].size;
		if (mem_table[k].owner) owner_now[mem_table[k].owner] -= mem_table[k].size;
		mem_table[k] = mem_table[--mem_len];
		break;
	}
	pthread_mutex_unlock(&mem_mu);
}

static VkResult VKAPI_CALL wrap_allocate_memory(VkDevice dev, const VkMemoryAllocateInfo *ai,
                                                const VkAllocationCallbacks *alloc, VkDeviceMemory *mem) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	PFN_vkAllocateMemory fn = i >= 0 ? devs[i].alloc : NULL;
	pthread_mutex_unlock(&devs_mu);
	if (!fn) return VK_ERROR_INITIALIZATION_FAILED;
	VkResult r = fn(dev, ai, alloc, mem);
	if (r == VK_SUCCESS) mem_add(*mem, (int64_t)ai->allocationSize, avx_mem_owner);
	return r;
}

// ---- vkDestroyImage: FFmpeg's images, counted -----------------------------------------------------
//
// A consumer that keeps what it recorded for an FFmpeg image (stream.Options.Replay: a command
// buffer per decoder image) must know when such an image may be gone: a later image can get the
// same handle. Every vkDestroyImage FFmpeg makes (its frames pools' images, the DPB) counts here
// before the image goes, and AvxVkFrame.epoch carries the count: a frame read with an epoch the
// consumer has seen before was made from an image no destroyed one shares a handle with.
static PFN_vkDestroyImage destroy_any; // the loader's trampoline: any device's image
static uint64_t images_gone;           // atomic

static void VKAPI_CALL wrap_destroy_image(VkDevice dev, VkImage img, const VkAllocationCallbacks *alloc) {
	if (img != VK_NULL_HANDLE) __atomic_add_fetch(&images_gone, 1, __ATOMIC_SEQ_CST);
	PFN_vkDestroyImage fn = __atomic_load_n(&destroy_any, __ATOMIC_ACQUIRE);
	if (fn) fn(dev, img, alloc);
}

static void VKAPI_CALL wrap_free_memory(VkDevice dev, VkDeviceMemory mem, const VkAllocationCallbacks *alloc) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	PFN_vkFreeMemory fn = i >= 0 ? devs[i].free_mem : NULL;
	pthread_mutex_unlock(&devs_mu);
	if (mem != VK_NULL_HANDLE) mem_remove(mem);
	if (!fn) fn = __atomic_load_n(&free_any, __ATOMIC_RELAXED);
	if (fn) fn(dev, mem, alloc);
}

static PFN_vkVoidFunction VKAPI_CALL wrap_gdpa(VkDevice dev, const char *name);

// device_wrapper is the toolkit's wrapper of the device command name, which both lookups hand
// FFmpeg (wrap_gdpa, wrap_gipa); NULL: none.
static PFN_vkVoidFunction device_wrapper(const char *name) {
	if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)wrap_gdpa;
	if (!strcmp(name, "vkCreateImage")) return (PFN_vkVoidFunction)wrap_create_image;
	if (!strcmp(name, "vkGetDeviceQueue")) return (PFN_vkVoidFunction)wrap_get_device_queue;
	if (!strcmp(name, "vkAllocateMemory")) return (PFN_vkVoidFunction)wrap_allocate_memory;
	if (!strcmp(name, "vkFreeMemory")) return (PFN_vkVoidFunction)wrap_free_memory;
	if (!strcmp(name, "vkDestroyImage") && __atomic_load_n(&destroy_any, __ATOMIC_ACQUIRE))
		return (PFN_vkVoidFunction)wrap_destroy_image;
	if (!strcmp(name, "vkQueueSubmit2") || !strcmp(name, "vkQueueSubmit2KHR")) return (PFN_vkVoidFunction)wrap_queue_submit2;
	if ((!strcmp(name, "vkCmdPipelineBarrier2") || !strcmp(name, "vkCmdPipelineBarrier2KHR")) &&
	    __atomic_load_n(&real_barrier2, __ATOMIC_ACQUIRE))
		return (PFN_vkVoidFunction)wrap_barrier2;
	return NULL;
}

static PFN_vkVoidFunction VKAPI_CALL wrap_gdpa(VkDevice dev, const char *name) {
	PFN_vkVoidFunction w = device_wrapper(name);
	if (w) return w;
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	PFN_vkGetDeviceProcAddr gdpa = i >= 0 ? devs[i].gdpa : NULL;
	int sessions = i >= 0 && devs[i].create_session;
	VkInstance inst = i >= 0 ? devs[i].inst : VK_NULL_HANDLE;
	VkPhysicalDevice phys = i >= 0 ? devs[i].phys : VK_NULL_HANDLE;
	int32_t family = i >= 0 ? devs[i].decode_family : -1;
	pthread_mutex_unlock(&devs_mu);
	if (sessions && !strcmp(name, "vkCreateVideoSessionKHR")) return (PFN_vkVoidFunction)wrap_create_video_session;
	if (gdpa && real_gipa && !strncmp(name, "vkCmd", 5)) {
		PFN_vkVoidFunction f = avx_trace_wrap(dev, name, gdpa, real_gipa, inst, phys, family);
		if (f) return f;
	}
	return gdpa ? gdpa(dev, name) : NULL;
}

// ---- vkGetPhysicalDeviceQueueFamilyProperties2: decodings without result status queries --------
//
// FFmpeg 7.1 records a result status query in every decoding when the decode family offers them
// (libavcodec/vulkan_decode.c: nb_q), and before it records into an execution context again reads
// the last one's with VK_QUERY_RESULT_WAIT_BIT (ff_vk_decode_frame), only to log it. On NVIDIA
// (driver 580) that read spins in the driver until the decoding two pictures back has finished: 48 %
// of an untimed 16 HEVC wall's CPU samples (row loop43). Told that no family offers them, FFmpeg
// records none and waits on the execution context's fence instead (ff_vk_exec_start): 16 HEVC 1.04x
// the pictures/s on 31-36 CPU seconds against 32-55 (rows query43, depth43, five runs each).
// YCBCRKIT_DECODE_QUERY=1 keeps them (A/B runs).
static PFN_vkGetPhysicalDeviceQueueFamilyProperties2 real_qf_props2; // the loader's trampoline
static int query_state;                                                // YCBCRKIT_DECODE_QUERY (env_on)

// set_query_support writes on into the result status query support of props[0..n) where their
// chains ask for it.
static void set_query_support(uint32_t n, VkQueueFamilyProperties2 *props, VkBool32 on) {
	for (uint32_t i = 0; i < n; i++)
		for (VkBaseOutStructure *b = props[i].pNext; b; b = b->pNext)
			if (b->sType == VK_STRUCTURE_TYPE_QUEUE_FAMILY_QUERY_RESULT_STATUS_PROPERTIES_KHR)
				((VkQueueFamilyQueryResultStatusPropertiesKHR *)b)->queryResultStatusSupport = on;
}

static void VKAPI_CALL wrap_qf_props2(VkPhysicalDevice phys, uint32_t *n, VkQueueFamilyProperties2 *props) {
	real_qf_props2(phys, n, props);
	if (!props || env_on(&query_state, "YCBCRKIT_DECODE_QUERY", 0)) return;
	set_query_support(*n, props, VK_FALSE);
}

// qf_props2 is wrap_gipa's answer for name, the queue families' properties: the wrapper over
// get(inst, name).
static PFN_vkVoidFunction qf_props2(PFN_vkGetInstanceProcAddr get, VkInstance inst, const char *name) {
	PFN_vkGetPhysicalDeviceQueueFamilyProperties2 f = (PFN_vkGetPhysicalDeviceQueueFamilyProperties2)get(inst, name);
	if (!f) return NULL;
	__atomic_store_n(&real_qf_props2, f, __ATOMIC_RELAXED);
	return (PFN_vkVoidFunction)wrap_qf_props2;
}

// avx_query_sim: what a caller of wrap_gipa's vkGetPhysicalDeviceQueueFamilyProperties2 reads of
// two families that a made-up driver says offer result status queries (tests): supported[i].
static void VKAPI_CALL sim_qf_props2(VkPhysicalDevice phys, uint32_t *n, VkQueueFamilyProperties2 *props) {
	(void)phys;
	if (!props) {
		*n = 2;
		return;
	}
	set_query_support(*n < 2 ? *n : 2, props, VK_TRUE);
}

static PFN_vkVoidFunction VKAPI_CALL sim_gipa(VkInstance inst, const char *name) {
	(void)inst;
	return strcmp(name, "vkGetPhysicalDeviceQueueFamilyProperties2") ? NULL : (PFN_vkVoidFunction)sim_qf_props2;
}

static PFN_vkVoidFunction VKAPI_CALL wrap_gipa(VkInstance inst, const char *name);

int avx_query_sim(int supported[2]) {
	PFN_vkGetPhysicalDeviceQueueFamilyProperties2 saved = __atomic_load_n(&real_qf_props2, __ATOMIC_RELAXED);
	pthread_mutex_lock(&devs_mu); // real_gipa: the sim's for this call only
	PFN_vkGetInstanceProcAddr gipa = real_gipa;
	real_gipa = sim_gipa;
	PFN_vkGetPhysicalDeviceQueueFamilyProperties2 f = (PFN_vkGetPhysicalDeviceQueueFamilyProperties2)wrap_gipa(VK_NULL_HANDLE, "vkGetPhysicalDeviceQueueFamilyProperties2");
	real_gipa = gipa;
	pthread_mutex_unlock(&devs_mu);
	if (!f) return 0;
	VkQueueFamilyQueryResultStatusPropertiesKHR q[2];
	VkQueueFamilyProperties2 props[2];
	for (int i = 0; i < 2; i++) {
		q[i] = (VkQueueFamilyQueryResultStatusPropertiesKHR){.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_QUERY_RESULT_STATUS_PROPERTIES_KHR};
		props[i] = (VkQueueFamilyProperties2){.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2, .pNext = &q[i]};
	}
	uint32_t n = 2;
	f(NULL, &n, props);
	if (saved) __atomic_store_n(&real_qf_props2, saved, __ATOMIC_RELAXED);
	for (int i = 0; i < 2; i++) supported[i] = q[i].queryResultStatusSupport == VK_TRUE;
	return n == 2;
}

static PFN_vkVoidFunction VKAPI_CALL wrap_gipa(VkInstance inst, const char *name) {
	if (!strcmp(name, "vkGetInstanceProcAddr")) return (PFN_vkVoidFunction)wrap_gipa;
	PFN_vkVoidFunction w = device_wrapper(name);
	if (w) return w;
	if (!strcmp(name, "vkCreateVideoSessionKHR")) return (PFN_vkVoidFunction)wrap_create_video_session;
	if (!strcmp(name, "vkGetPhysicalDeviceQueueFamilyProperties2") ||
	    !strcmp(name, "vkGetPhysicalDeviceQueueFamilyProperties2KHR"))
		return qf_props2(real_gipa, inst, name);
	return real_gipa(inst, name);
}

// live_entry says devs[i] is dev's entry as registered now, from inst with create its
// vkCreateImage. An entry whose device was destroyed while a device context on it leaked stays;
// a later device may get its handle (lavapipe's are heap addresses), and its pointers may point
// into an ICD unloaded since: such an entry is not the new device's. (The rare SIGSEGV in
// decode's tests this was first thought to explain was Mesa's: scripts/ffmpeg-patches/0007.)
static int live_entry(int i, VkDevice dev, VkInstance inst, PFN_vkCreateImage create) {
	return devs[i].dev == dev && devs[i].inst == inst && devs[i].create == create;
}

int avx_live_entry_sim(void) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(VK_NULL_HANDLE), ok = 0;
	if (i >= 0) {
		VkDevice d = (VkDevice)(uintptr_t)0x5157f00; // never a real handle: not dereferenced
		VkInstance a = (VkInstance)(uintptr_t)0x5157f10, b = (VkInstance)(uintptr_t)0x5157f20;
		PFN_vkCreateImage c = (PFN_vkCreateImage)(uintptr_t)0x5157f30, c2 = (PFN_vkCreateImage)(uintptr_t)0x5157f40;
		devs[i] = (typeof(devs[0])){.dev = d, .inst = a, .create = c, .refs = 1};
		ok = live_entry(i, d, a, c) && !live_entry(i, d, b, c) && !live_entry(i, d, a, c2);
		devs[i] = (typeof(devs[0])){0};
	}
	pthread_mutex_unlock(&devs_mu);
	return ok;
}

// register_device records what the wrappers need for dev; 0 when the table is full (FFmpeg then
// gets the loader's entry points unwrapped).
static int register_device(PFN_vkGetInstanceProcAddr gipa, VkInstance inst, VkPhysicalDevice phys, VkDevice dev,
                           int32_t decode_family, uint32_t decode_queues, VkDeviceQueueCreateFlags queue_flags) {
	PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)gipa(inst, "vkGetDeviceProcAddr");
	if (!gdpa) return 0;
	PFN_vkCreateImage create = (PFN_vkCreateImage)gdpa(dev, "vkCreateImage");
	PFN_vkGetDeviceQueue get_queue = (PFN_vkGetDeviceQueue)gdpa(dev, "vkGetDeviceQueue");
	PFN_vkGetDeviceQueue2 get_queue2 = (PFN_vkGetDeviceQueue2)gdpa(dev, "vkGetDeviceQueue2");
	PFN_vkAllocateMemory alloc = (PFN_vkAllocateMemory)gdpa(dev, "vkAllocateMemory");
	PFN_vkFreeMemory free_mem = (PFN_vkFreeMemory)gdpa(dev, "vkFreeMemory");
	PFN_vkCreateVideoSessionKHR create_session = (PFN_vkCreateVideoSessionKHR)gdpa(dev, "vkCreateVideoSessionKHR");
	PFN_vkGetPhysicalDeviceVideoFormatPropertiesKHR fmts =
		(PFN_vkGetPhysicalDeviceVideoFormatPropertiesKHR)gipa(inst, "vkGetPhysicalDeviceVideoFormatPropertiesKHR");
	PFN_vkGetPhysicalDeviceProperties2 props2 =
		(PFN_vkGetPhysicalDeviceProperties2)gipa(inst, "vkGetPhysicalDeviceProperties2");
	PFN_vkCreateSemaphore create_sem = (PFN_vkCreateSemaphore)gdpa(dev, "vkCreateSemaphore");
	PFN_vkDestroySemaphore destroy_sem = (PFN_vkDestroySemaphore)gdpa(dev, "vkDestroySemaphore");
	PFN_vkWaitSemaphores wait_sems = (PFN_vkWaitSemaphores)gdpa(dev, "vkWaitSemaphores");
	PFN_vkGetSemaphoreCounterValue counter = (PFN_vkGetSemaphoreCounterValue)gdpa(dev, "vkGetSemaphoreCounterValue");
	// Through the instance, the loader's trampolines, which take any device's queue.
	PFN_vkQueueSubmit2 submit2 = (PFN_vkQueueSubmit2)gipa(inst, "vkQueueSubmit2");
	if (!submit2) submit2 = (PFN_vkQueueSubmit2)gipa(inst, "vkQueueSubmit2KHR");
	PFN_vkQueueWaitIdle wait_idle = (PFN_vkQueueWaitIdle)gipa(inst, "vkQueueWaitIdle");
	PFN_vkQueueSubmit2 dev_submit2 = (PFN_vkQueueSubmit2)gdpa(dev, "vkQueueSubmit2");
	if (!dev_submit2) dev_submit2 = (PFN_vkQueueSubmit2)gdpa(dev, "vkQueueSubmit2KHR");
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	if (i < 0) i = dev_slot(VK_NULL_HANDLE);
	if (i < 0 || !create || !get_queue || !alloc || !free_mem || (queue_flags && !get_queue2) || !submit2 ||
	    (real_gipa && real_gipa != gipa)) {
		pthread_mutex_unlock(&devs_mu);
		return 0;
	}
	real_gipa = gipa;
	real_submit2 = submit2, real_wait_idle = wait_idle;
	if (!real_barrier2) {
		PFN_vkCmdPipelineBarrier2 b = (PFN_vkCmdPipelineBarrier2)gipa(inst, "vkCmdPipelineBarrier2");
		if (!b) b = (PFN_vkCmdPipelineBarrier2)gipa(inst, "vkCmdPipelineBarrier2KHR");
		__atomic_store_n(&real_barrier2, b, __ATOMIC_RELEASE);
	}
	if (!free_any) __atomic_store_n(&free_any, (PFN_vkFreeMemory)gipa(inst, "vkFreeMemory"), __ATOMIC_RELAXED);
	if (!destroy_any) __atomic_store_n(&destroy_any, (PFN_vkDestroyImage)gipa(inst, "vkDestroyImage"), __ATOMIC_RELEASE);
	if (live_entry(i, dev, inst, create)) {
		devs[i].refs++;
	} else {
		if (devs[i].dev == dev) // a destroyed device's (live_entry): so are its decoders' queues
			for (int k = 0; k < AVX_VQUEUES; k++)
				if (vqs[k].dev == dev) vqs[k] = (vqueue){0};
		devs[i] = (typeof(devs[0])){.dev = dev, .inst = inst, .phys = phys, .gdpa = gdpa, .create = create, .fmts = fmts,
		                            .refs = 1, .get_queue = get_queue, .get_queue2 = get_queue2,
		                            .queue_flags = queue_flags, .decode_family = decode_family,
		                            .decode_queues = decode_queues, .alloc = alloc, .free_mem = free_mem,
		                            .create_session = create_session, .create_sem = create_sem,
		                            .destroy_sem = destroy_sem, .wait_sems = wait_sems, .counter = counter,
		                            .submit2 = dev_submit2};
		// The GPU's UUID, once per VkDevice (each decoder registers it again): Vulkan 1.1, which
		// the toolkit requires; without it one GPU is assumed.
		VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
		VkPhysicalDeviceProperties2 pp = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
		if (props2) props2(phys, &pp);
		memcpy(devs[i].gpu, id.deviceUUID, VK_UUID_SIZE);
	}
	pthread_mutex_unlock(&devs_mu);
	return 1;
}

static void unregister_device(VkDevice dev) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	// Another decoder's device context on the same VkDevice may still be in use: the entry goes with
	// the last one.
	if (i >= 0 && --devs[i].refs <= 0) {
		devs[i] = (typeof(devs[0])){0};
	}
	pthread_mutex_unlock(&devs_mu);
}

// dropped_flags is what wrap_create_image masked from dev's decode images; *epoch becomes
// AvxVkFrame.epoch for a frame of dev: 0 where FFmpeg's calls on dev are not wrapped (its
// vkDestroyImage not counted).
static VkImageCreateFlags dropped_flags(VkDevice dev, uint64_t *epoch) {
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	VkImageCreateFlags f = i >= 0 ? devs[i].dropped : 0;
	*epoch = i >= 0 ? __atomic_load_n(&images_gone, __ATOMIC_SEQ_CST) + 1 : 0;
	pthread_mutex_unlock(&devs_mu);
	return f;
}

static void device_free(AVHWDeviceContext *ctx) {
	Owned *o = ctx->user_opaque;
	if (!o) return;
	free_list(o->inst_exts, o->nb_inst);
	free_list(o->dev_exts, o->nb_dev);
	if (o->engine) avxEngineQueueRelease(o->engine);
	if (o->wrapped) unregister_device(((AVVulkanDeviceContext *)ctx->hwctx)->act_dev);
	free(o);
	ctx->user_opaque = NULL;
}

// avx_lock_choice is which lock FFmpeg's lock_queue takes for (family, index). On an engine's
// device, qf[0] is the engine's family with one queue (index 0), which the engine submits to under
// its own lock: FFmpeg takes that lock for it. Other families (the decode family, handed to the
// toolkit exclusively) keep the toolkit's C lock, which only FFmpeg takes there. Queues the engine
// created internally synchronized (VK_KHR_internally_synchronized_queues: every queue lent to the
// toolkit, both families) need none: vkQueueSubmit2 on them is safe from any thread.
int avx_lock_choice(int isq, int engine, uint32_t engine_family, int wrapped, int32_t decode_family, uint32_t family,
                    uint32_t index, uint32_t *lock_index) {
	*lock_index = index;
	if (isq) return AVX_LOCK_NONE;
	if (engine && family == engine_family) return AVX_LOCK_ENGINE;
	if (wrapped && decode_family >= 0 && family == (uint32_t)decode_family) {
		*lock_index = 0; // one lock for the whole family: wrap_get_device_queue says why
		return AVX_LOCK_TOOLKIT;
	}
	return AVX_LOCK_TOOLKIT;
}

static int64_t locks_taken; // atomic: locks lock_queue took (avx_queue_locks_taken)

int64_t avx_queue_locks_taken(void) { return __atomic_load_n(&locks_taken, __ATOMIC_RELAXED); }

static void lock_queue(AVHWDeviceContext *ctx, uint32_t family, uint32_t index) {
	Owned *o = ctx->user_opaque;
	uint32_t k;
	switch (avx_lock_choice(o->isq, o->engine != 0, o->engine_family, o->wrapped, o->decode_family, family, index, &k)) {
	case AVX_LOCK_ENGINE:
		avxEngineQueueLock(o->engine);
		break;
	case AVX_LOCK_TOOLKIT:
		o->lock(family, k);
		break;
	default:
		return;
	}
	__atomic_fetch_add(&locks_taken, 1, __ATOMIC_RELAXED);
}

static void unlock_queue(AVHWDeviceContext *ctx, uint32_t family, uint32_t index) {
	Owned *o = ctx->user_opaque;
	uint32_t k;
	switch (avx_lock_choice(o->isq, o->engine != 0, o->engine_family, o->wrapped, o->decode_family, family, index, &k)) {
	case AVX_LOCK_ENGINE:
		avxEngineQueueUnlock(o->engine);
		break;
	case AVX_LOCK_TOOLKIT:
		o->unlock(family, k);
		break;
	default:
		break;
	}
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
	o->engine = d->engine_lock;
	o->engine_family = d->family;
	o->isq = d->internally_synchronized;
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
	o->decode_family = d->decode_queues > 0 ? (int32_t)d->decode_family : -1;
	if ((o->wrapped = register_device(vk->get_proc_addr, d->inst, d->phys, d->dev, o->decode_family, d->decode_queues,
	                                  d->queue_flags)))
		vk->get_proc_addr = wrap_gipa;
	else if (d->queue_flags) {
		// Unwrapped, FFmpeg would fetch the queues with vkGetDeviceQueue, which queues created with
		// flags forbid.
		av_buffer_unref(&ref);
		*err = AVERROR(ENOSYS);
		return NULL;
	}
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

// AVX_HELD_FRAMES bounds the frames contexts a decoder keeps (hold_frames): one per picture size the
// stream has had recently.
#define AVX_HELD_FRAMES 8

struct AvxHwDecode {
	int required, check;
	int offered, chosen, failed, refused, calls; // atomics
	pthread_mutex_t mu;                          // guards reason (frame threads each call get_format) and held
	char reason[320];
	AVBufferRef *held[AVX_HELD_FRAMES]; // frames contexts decoded frames came from (hold_frames)
	int nheld;
	int vq; // the decoder's queue of the decode family, a vqs entry (take_vqueue); -1: none yet
};

static int has_ext(const AVVulkanDeviceContext *vk, const char *name) {
	for (int i = 0; i < vk->nb_enabled_dev_extensions; i++)
		if (!strcmp(vk->enabled_dev_extensions[i], name)) return 1;
	return 0;
}

// check_decode answers, before AV_PIX_FMT_VULKAN is chosen, the questions FFmpeg 7.1's Vulkan hwaccel
// asks while it initialises (libavcodec/vulkan_decode.c: vulkan_decode_bootstrap's extension check,
// vulkan_decode_get_profile's vkGetPhysicalDeviceVideoCapabilitiesKHR, size and decode-mode checks
// and vkGetPhysicalDeviceVideoFormatPropertiesKHR, ff_vk_decode_init's decode queue family), with
// the same profile. A stream the device cannot decode is then given a software format here, with the
// reason, and FFmpeg's own fallback (hwaccel_init failing inside ff_get_format, which frees a
// half-made frames context in the frame thread that called it) stays for what cannot be seen from
// outside, such as vkCreateVideoSessionKHR failing. Returns 1, or 0 with why.
static int check_decode(AVCodecContext *avctx, char *why, size_t n) {
	AVHWDeviceContext *dc = (AVHWDeviceContext *)avctx->hw_device_ctx->data;
	const AVVulkanDeviceContext *vk = dc->hwctx;
	const char *codec = avcodec_get_name(avctx->codec_id), *ext;
	VkVideoCodecOperationFlagBitsKHR op;
	switch (avctx->codec_id) {
	case AV_CODEC_ID_H264:
		op = VK_VIDEO_CODEC_OPERATION_DECODE_H264_BIT_KHR, ext = VK_KHR_VIDEO_DECODE_H264_EXTENSION_NAME;
		break;
	case AV_CODEC_ID_HEVC:
		op = VK_VIDEO_CODEC_OPERATION_DECODE_H265_BIT_KHR, ext = VK_KHR_VIDEO_DECODE_H265_EXTENSION_NAME;
		break;
	case AV_CODEC_ID_AV1:
		op = VK_VIDEO_CODEC_OPERATION_DECODE_AV1_BIT_KHR, ext = VK_KHR_VIDEO_DECODE_AV1_EXTENSION_NAME;
		break;
	default:
		snprintf(why, n, "FFmpeg 7.1 has no Vulkan hwaccel for %s", codec);
		return 0;
	}
	if (!has_ext(vk, VK_KHR_VIDEO_DECODE_QUEUE_EXTENSION_NAME) || !has_ext(vk, ext)) {
		snprintf(why, n, "the device FFmpeg was given has no %s enabled",
		         has_ext(vk, VK_KHR_VIDEO_DECODE_QUEUE_EXTENSION_NAME) ? ext : VK_KHR_VIDEO_DECODE_QUEUE_EXTENSION_NAME);
		return 0;
	}
	int family = 0;
	for (int i = 0; i < vk->nb_qf; i++)
		if ((vk->qf[i].flags & VK_QUEUE_VIDEO_DECODE_BIT_KHR) && (vk->qf[i].video_caps & op) && vk->qf[i].num > 0)
			family = 1;
	if (!family) {
		snprintf(why, n, "the device FFmpeg was given has no decode queue family for %s", codec);
		return 0;
	}
	PFN_vkGetPhysicalDeviceVideoCapabilitiesKHR caps_fn =
		(PFN_vkGetPhysicalDeviceVideoCapabilitiesKHR)vk->get_proc_addr(vk->inst, "vkGetPhysicalDeviceVideoCapabilitiesKHR");
	PFN_vkGetPhysicalDeviceVideoFormatPropertiesKHR fmts_fn = (PFN_vkGetPhysicalDeviceVideoFormatPropertiesKHR)
		vk->get_proc_addr(vk->inst, "vkGetPhysicalDeviceVideoFormatPropertiesKHR");
	if (!caps_fn || !fmts_fn) {
		snprintf(why, n, "the Vulkan loader has no vkGetPhysicalDeviceVideoCapabilitiesKHR");
		return 0;
	}

	// The profile exactly as vulkan_setup_profile builds it (without AV_HWACCEL_FLAG_ALLOW_PROFILE_-
	// MISMATCH, which the toolkit does not set).
	const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(avctx->sw_pix_fmt);
	const char *prof = avcodec_profile_name(avctx->codec_id, avctx->profile);
	char pname[32];
	if (!prof) snprintf(pname, sizeof pname, "%d", avctx->profile), prof = pname;
	if (!desc) {
		snprintf(why, n, "%s stream without a software pixel format", codec);
		return 0;
	}
	// FFmpeg 7.1's ff_vk_subsampling_from_av_desc (libavcodec/vulkan_video.c), mapping included: it
	// takes log2_chroma_w 0 with log2_chroma_h 1 for 4:2:2, so a 4:2:2 stream's profile is invalid
	// there and FFmpeg would refuse it.
	VkVideoChromaSubsamplingFlagBitsKHR sub = VK_VIDEO_CHROMA_SUBSAMPLING_INVALID_KHR;
	if (desc->nb_components == 1) sub = VK_VIDEO_CHROMA_SUBSAMPLING_MONOCHROME_BIT_KHR;
	else if (!desc->log2_chroma_w && !desc->log2_chroma_h) sub = VK_VIDEO_CHROMA_SUBSAMPLING_444_BIT_KHR;
	else if (!desc->log2_chroma_w && desc->log2_chroma_h == 1) sub = VK_VIDEO_CHROMA_SUBSAMPLING_422_BIT_KHR;
	else if (desc->log2_chroma_w == 1 && desc->log2_chroma_h == 1) sub = VK_VIDEO_CHROMA_SUBSAMPLING_420_BIT_KHR;
	int depth = desc->comp[0].depth;
	VkVideoComponentBitDepthFlagBitsKHR bits = depth == 8 ? VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR
	                                           : depth == 10 ? VK_VIDEO_COMPONENT_BIT_DEPTH_10_BIT_KHR
	                                           : depth == 12 ? VK_VIDEO_COMPONENT_BIT_DEPTH_12_BIT_KHR
	                                                         : VK_VIDEO_COMPONENT_BIT_DEPTH_INVALID_KHR;
	if (sub == VK_VIDEO_CHROMA_SUBSAMPLING_INVALID_KHR || bits == VK_VIDEO_COMPONENT_BIT_DEPTH_INVALID_KHR) {
		snprintf(why, n, "FFmpeg 7.1's Vulkan decoding has no profile for %s %s", codec, desc->name);
		return 0;
	}
	VkVideoDecodeH264ProfileInfoKHR h264 = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_PROFILE_INFO_KHR,
		.stdProfileIdc = avctx->profile & ~(AV_PROFILE_H264_CONSTRAINED | AV_PROFILE_H264_INTRA),
		.pictureLayout = avctx->field_order == AV_FIELD_UNKNOWN || avctx->field_order == AV_FIELD_PROGRESSIVE
		                     ? VK_VIDEO_DECODE_H264_PICTURE_LAYOUT_PROGRESSIVE_KHR
		                     : VK_VIDEO_DECODE_H264_PICTURE_LAYOUT_INTERLACED_INTERLEAVED_LINES_BIT_KHR};
	VkVideoDecodeH265ProfileInfoKHR h265 = {.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_PROFILE_INFO_KHR,
	                                        .stdProfileIdc = avctx->profile};
	VkVideoDecodeAV1ProfileInfoKHR av1 = {.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_AV1_PROFILE_INFO_KHR,
	                                      .stdProfile = avctx->profile,
	                                      .filmGrainSupport = !(avctx->export_side_data & AV_CODEC_EXPORT_DATA_FILM_GRAIN)};
	VkVideoDecodeH264CapabilitiesKHR h264_caps = {.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_CAPABILITIES_KHR};
	VkVideoDecodeH265CapabilitiesKHR h265_caps = {.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_CAPABILITIES_KHR};
	VkVideoDecodeAV1CapabilitiesKHR av1_caps = {.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_AV1_CAPABILITIES_KHR};
	VkVideoDecodeUsageInfoKHR usage = {.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_USAGE_INFO_KHR,
	                                   .videoUsageHints = VK_VIDEO_DECODE_USAGE_DEFAULT_KHR};
	VkVideoDecodeCapabilitiesKHR dec_caps = {.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_CAPABILITIES_KHR};
	switch (avctx->codec_id) {
	case AV_CODEC_ID_H264: usage.pNext = &h264, dec_caps.pNext = &h264_caps; break;
	case AV_CODEC_ID_HEVC: usage.pNext = &h265, dec_caps.pNext = &h265_caps; break;
	default: usage.pNext = &av1, dec_caps.pNext = &av1_caps; break;
	}
	VkVideoProfileInfoKHR profile = {.sType = VK_STRUCTURE_TYPE_VIDEO_PROFILE_INFO_KHR, .pNext = &usage,
	                                 .videoCodecOperation = op, .chromaSubsampling = sub,
	                                 .lumaBitDepth = bits, .chromaBitDepth = bits};
	VkVideoCapabilitiesKHR caps = {.sType = VK_STRUCTURE_TYPE_VIDEO_CAPABILITIES_KHR, .pNext = &dec_caps};
	VkResult r = caps_fn(vk->phys_dev, &profile, &caps);
	if (r != VK_SUCCESS) {
		snprintf(why, n, "the device does not decode %s profile %s, %s (vkGetPhysicalDeviceVideoCapabilitiesKHR: %d)",
		         codec, prof, desc->name, (int)r);
		return 0;
	}
	if (avctx->coded_width < (int)caps.minCodedExtent.width || avctx->coded_height < (int)caps.minCodedExtent.height ||
	    avctx->coded_width > (int)caps.maxCodedExtent.width || avctx->coded_height > (int)caps.maxCodedExtent.height) {
		snprintf(why, n, "the device decodes %s profile %s from %ux%u to %ux%u; the stream is %dx%d", codec, prof,
		         caps.minCodedExtent.width, caps.minCodedExtent.height, caps.maxCodedExtent.width,
		         caps.maxCodedExtent.height, avctx->coded_width, avctx->coded_height);
		return 0;
	}
	// The level is checked by FFmpeg only without AV_HWACCEL_FLAG_IGNORE_LEVEL, which is
	// hwaccel_flags' default (libavcodec/options_table.h); it is left to FFmpeg.
	VkVideoDecodeCapabilityFlagsKHR modes = dec_caps.flags & (VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_COINCIDE_BIT_KHR |
	                                                          VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_DISTINCT_BIT_KHR);
	if (!modes || (modes == VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_COINCIDE_BIT_KHR &&
	               !(caps.flags & VK_VIDEO_CAPABILITY_SEPARATE_REFERENCE_IMAGES_BIT_KHR))) {
		snprintf(why, n, "the driver reports decode modes FFmpeg 7.1 refuses (VkVideoDecodeCapabilityFlagsKHR %#x)",
		         (unsigned)dec_caps.flags);
		return 0;
	}
	VkVideoProfileListInfoKHR list = {.sType = VK_STRUCTURE_TYPE_VIDEO_PROFILE_LIST_INFO_KHR, .profileCount = 1,
	                                  .pProfiles = &profile};
	VkPhysicalDeviceVideoFormatInfoKHR fi = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_FORMAT_INFO_KHR,
	                                         .pNext = &list, .imageUsage = VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR};
	if (modes & VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_COINCIDE_BIT_KHR) {
		// reuse_dst_dpb: the output images are the references; FFmpeg asks for these usages.
		fi.imageUsage |= VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
		if (has_ext(vk, VK_KHR_VIDEO_ENCODE_QUEUE_EXTENSION_NAME) || has_ext(vk, VK_KHR_VIDEO_MAINTENANCE_1_EXTENSION_NAME))
			fi.imageUsage |= VK_IMAGE_USAGE_VIDEO_ENCODE_SRC_BIT_KHR;
	}
	uint32_t nf = 0;
	r = fmts_fn(vk->phys_dev, &fi, &nf, NULL);
	if (r != VK_SUCCESS || nf == 0) {
		snprintf(why, n, "the device has no image format to decode %s profile %s, %s into (vkGetPhysicalDeviceVideoFormatPropertiesKHR: %d, %u formats)",
		         codec, prof, desc->name, (int)r, nf);
		return 0;
	}
	return 1;
}

// software returns what avcodec_default_get_format picks among fmts without AV_PIX_FMT_VULKAN.
static enum AVPixelFormat software(AVCodecContext *avctx, const enum AVPixelFormat *fmts) {
	enum AVPixelFormat sw[AV_PIX_FMT_NB + 1];
	int k = 0;
	for (const enum AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE && k < AV_PIX_FMT_NB; p++)
		if (*p != AV_PIX_FMT_VULKAN) sw[k++] = *p;
	sw[k] = AV_PIX_FMT_NONE;
	return k ? avcodec_default_get_format(avctx, sw) : AV_PIX_FMT_NONE;
}

// A decoding signals the timeline semaphore of each picture it uses (libavutil/vulkan.c,
// ff_vk_exec_add_dep_frame), and each signal costs NVIDIA's decode engine (driver 580) about 1.15 us
// between decodings (rows gap44, waits44, ahead45): a 1080p HEVC picture with four references loses
// 0.7 % of the engine's time to its references' signals. A decoder on a vqueue runs its decodings in
// submission order (one queue at a time, each after the last: wrap_barrier2, own_submit), so the
// last decoding that read a picture stands for all, and FFmpeg may record that one's point in the
// picture (AVVkFrame.read_sem, read_value) instead of signalling its semaphore
// (scripts/ffmpeg-patches/0008); every user of the picture waits on it too (read_frame,
// stream.Locked). YCBCRKIT_DECODE_READ_SIGNALS=1 keeps the signals.
static int read_signals_state; // YCBCRKIT_DECODE_READ_SIGNALS (env_on)

static void reads_unsignalled(AVCodecContext *avctx, int queued) {
	if (queued && !env_on(&read_signals_state, "YCBCRKIT_DECODE_READ_SIGNALS", 0))
		avctx->hwaccel_flags |= AV_HWACCEL_FLAG_VK_READS_UNSIGNALLED;
	else
		avctx->hwaccel_flags &= ~AV_HWACCEL_FLAG_VK_READS_UNSIGNALLED;
}

int avx_reads_sim(int queued, int flags) {
	AVCodecContext *avctx = avcodec_alloc_context3(NULL);
	if (!avctx) return -1;
	avctx->hwaccel_flags = flags;
	reads_unsignalled(avctx, queued);
	int r = avctx->hwaccel_flags;
	avcodec_free_context(&avctx);
	return r;
}

static enum AVPixelFormat hw_get_format(AVCodecContext *avctx, const enum AVPixelFormat *fmts) {
	AvxHwDecode *h = avx_pool_hw(avctx->opaque);
	int vulkan = 0;
	for (const enum AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE; p++)
		if (*p == AV_PIX_FMT_VULKAN) vulkan = 1;
	if (!h) return avcodec_default_get_format(avctx, fmts);
	__atomic_add_fetch(&h->calls, 1, __ATOMIC_RELAXED);
	if (vulkan) {
		__atomic_store_n(&h->offered, 1, __ATOMIC_RELAXED);
		char why[sizeof h->reason];
		if (!h->check || check_decode(avctx, why, sizeof why)) {
			session_w = (uint32_t)avctx->coded_width, session_h = (uint32_t)avctx->coded_height;
			pthread_mutex_lock(&h->mu);
			if (h->vq < 0 && avctx->hw_device_ctx) {
				AVHWDeviceContext *dc = (AVHWDeviceContext *)avctx->hw_device_ctx->data;
				h->vq = take_vqueue(((AVVulkanDeviceContext *)dc->hwctx)->act_dev);
			}
			decode_vq = h->vq;
			reads_unsignalled(avctx, h->vq >= 0);
			pthread_mutex_unlock(&h->mu);
			__atomic_store_n(&h->chosen, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&h->refused, 0, __ATOMIC_RELAXED); // a new sequence the device decodes
			return AV_PIX_FMT_VULKAN;
		}
		pthread_mutex_lock(&h->mu);
		memcpy(h->reason, why, sizeof why);
		pthread_mutex_unlock(&h->mu);
		__atomic_store_n(&h->refused, 1, __ATOMIC_RELEASE);
		return h->required ? AV_PIX_FMT_NONE : software(avctx, fmts);
	}
	// ff_get_format calls again without the hardware format when the hwaccel failed to initialise
	// (libavcodec/decode.c): a software format from here on, unless hardware was required.
	if (__atomic_load_n(&h->chosen, __ATOMIC_RELAXED)) __atomic_store_n(&h->failed, 1, __ATOMIC_RELAXED);
	if (h->required) return AV_PIX_FMT_NONE;
	return avcodec_default_get_format(avctx, fmts);
}

// avx_hw_frame_allocated is get_buffer2's report of a hardware frame. FFmpeg 7.1's H.264 and HEVC
// decoders release a picture's frame before its hwaccel data (ff_h264_unref_picture,
// ff_hevc_unref_frame), and the Vulkan hwaccel's ff_vk_decode_free_frame then waits on the frame's
// timeline semaphore. After a size change nothing else owns the old frames context, so releasing
// the frame frees the context, its pool and its images and semaphores, and the wait reads a
// destroyed semaphore: a SIGSEGV in the driver, seen on the H100 (docs/hwdec.md). The decoder
// therefore holds a reference to every frames context its frames came from, and lets one go when
// it is the only holder left, that is when no frame of it exists any more. The check runs here, on
// the decoding thread between pictures; with frame threads another thread could be between the two
// releases, so there a context is only let go when the list is full or at the end.
void avx_hw_frame_allocated(void *hw, const AVCodecContext *avctx, const AVFrame *f) {
	AvxHwDecode *h = hw;
	if (!h || !f->hw_frames_ctx) return;
	int sweep = avctx->active_thread_type != FF_THREAD_FRAME;
	pthread_mutex_lock(&h->mu);
	int have = 0;
	for (int i = 0; i < h->nheld;) {
		if (h->held[i]->data == f->hw_frames_ctx->data) {
			have = 1, i++;
		} else if (sweep && av_buffer_get_ref_count(h->held[i]) == 1) {
			av_buffer_unref(&h->held[i]);
			h->held[i] = h->held[--h->nheld];
		} else {
			i++;
		}
	}
	if (!have) {
		if (h->nheld == AVX_HELD_FRAMES) {
			// Full: the oldest goes (it still has holders, or the sweep would have let it go).
			av_buffer_unref(&h->held[0]);
			memmove(h->held, h->held + 1, (AVX_HELD_FRAMES - 1) * sizeof h->held[0]);
			h->nheld--;
		}
		AVBufferRef *ref = av_buffer_ref(f->hw_frames_ctx);
		if (ref) h->held[h->nheld++] = ref;
	}
	pthread_mutex_unlock(&h->mu);
}

int avx_hw_held_frames(AvxPool *p) {
	AvxHwDecode *h = avx_pool_hw(p);
	if (!h) return 0;
	pthread_mutex_lock(&h->mu);
	int n = h->nheld;
	pthread_mutex_unlock(&h->mu);
	return n;
}

void avx_hw_idle(AvxPool *p) {
	AvxHwDecode *h = avx_pool_hw(p);
	if (!h) return;
	pthread_mutex_lock(&h->mu);
	int v = h->vq;
	pthread_mutex_unlock(&h->mu);
	end_vqueue(v, 0);
}

static void hw_free(void *opaque) {
	AvxHwDecode *h = opaque;
	// After avcodec_free_context (the pool outlives the codec context): no picture is left to wait.
	for (int i = 0; i < h->nheld; i++) av_buffer_unref(&h->held[i]);
	end_vqueue(h->vq, 1);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

int avx_hw_install(AvxPool *p, AVCodecContext *avctx, AVBufferRef *device, int required, int check) {
	AvxHwDecode *h = calloc(1, sizeof(*h));
	if (!h) return AVERROR(ENOMEM);
	h->required = required;
	h->check = check;
	h->vq = -1;
	pthread_mutex_init(&h->mu, NULL);
	if (!(avctx->hw_device_ctx = av_buffer_ref(device))) {
		hw_free(h);
		return AVERROR(ENOMEM);
	}
	avx_pool_set_hw(p, h, hw_free);
	avctx->get_format = hw_get_format;
	return 0;
}

void avx_hw_state(AvxPool *p, AvxHwState *out) {
	AvxHwDecode *h = avx_pool_hw(p);
	*out = (AvxHwState){0};
	if (!h) return;
	out->installed = 1;
	out->offered = __atomic_load_n(&h->offered, __ATOMIC_RELAXED);
	out->chosen = __atomic_load_n(&h->chosen, __ATOMIC_RELAXED);
	out->failed = __atomic_load_n(&h->failed, __ATOMIC_RELAXED);
	out->calls = __atomic_load_n(&h->calls, __ATOMIC_RELAXED);
	if ((out->refused = __atomic_load_n(&h->refused, __ATOMIC_ACQUIRE))) {
		pthread_mutex_lock(&h->mu);
		memcpy(out->reason, h->reason, sizeof out->reason);
		pthread_mutex_unlock(&h->mu);
	}
}

// ---- AVVkFrame ----------------------------------------------------------------------------------

static AVHWFramesContext *frames_of(const AVFrame *f) {
	return f && f->format == AV_PIX_FMT_VULKAN && f->hw_frames_ctx ? (AVHWFramesContext *)f->hw_frames_ctx->data
	                                                                : NULL;
}

enum { READ_UNLOCKED, READ_LOCKED, READ_TRYLOCK }; // read_frame's lock

// read_frame fills out from f's AVVkFrame and frames context; READ_LOCKED: under lock_frame (kept
// held); READ_TRYLOCK: the same without waiting, 1 (nothing locked or read) when another thread
// holds it.
static int read_frame(const AVFrame *f, AvxVkFrame *out, int lock) {
	AVHWFramesContext *fc = frames_of(f);
	if (!fc || !f->data[0]) return AVERROR(EINVAL);
	AVVulkanFramesContext *vfc = fc->hwctx;
	AVVkFrame *vf = (AVVkFrame *)f->data[0];
	if (lock == READ_LOCKED) vfc->lock_frame(fc, vf);
	if (lock == READ_TRYLOCK) { // avx_vk_frame_trylock says why this is lock_frame's mutex
		if (!vf->internal) return AVERROR(EINVAL);
		if (pthread_mutex_trylock((pthread_mutex_t *)vf->internal)) return 1;
	}
	int n = 0;
	while (n < AV_NUM_DATA_POINTERS && vf->img[n]) n++;
	uint64_t epoch;
	// The flags the image really has: wrap_create_image may have masked some from FFmpeg's.
	VkImageCreateFlags dropped = dropped_flags(((AVVulkanDeviceContext *)fc->device_ctx->hwctx)->act_dev, &epoch);
	*out = (AvxVkFrame){
		.img = vf->img[0], .tiling = vf->tiling, .layout = vf->layout[0], .access = vf->access[0],
		.sem = vf->sem[0], .sem_value = vf->sem_value[0], .read_sem = vf->read_sem, .read_value = vf->read_value,
		.queue_family = vf->queue_family[0], .nb_images = n,
		.sw_format = fc->sw_format, .width = fc->width, .height = fc->height,
		.usage = vfc->usage, .format = vfc->format[0], .flags = vfc->img_flags & ~dropped, .epoch = epoch};
	return 0;
}

int avx_vk_frame_lock(const AVFrame *f, AvxVkFrame *out) { return read_frame(f, out, READ_LOCKED); }

// avx_vk_frame_trylock is avx_vk_frame_lock without waiting: 1 when another thread holds the lock
// (nothing locked or read). FFmpeg 7.1's lock_frame, which the toolkit leaves to it, locks
// AVVkFrameInternal.update_mutex, that private struct's first member (libavutil/hwcontext_vulkan.c,
// lock_frame); AVVulkanFramesContext has no try-lock. TestTryLockTakesLockFrames checks that the
// two take the one mutex.
int avx_vk_frame_trylock(const AVFrame *f, AvxVkFrame *out) { return read_frame(f, out, READ_TRYLOCK); }

// The frames context's fields and the image handle, without lock_frame: the layout and semaphore
// value read this way may be stale.
int avx_vk_frame_info(const AVFrame *f, AvxVkFrame *out) { return read_frame(f, out, READ_UNLOCKED); }

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

void avx_hw_detach(AVCodecContext *avctx, AVBufferRef **device, AVBufferRef **frames) {
	*device = avctx->hw_device_ctx;
	*frames = avctx->hw_frames_ctx;
	avctx->hw_device_ctx = NULL;
	avctx->hw_frames_ctx = NULL;
}

void avx_hw_release(AVBufferRef *device, AVBufferRef *frames) {
	av_buffer_unref(&device);
	av_buffer_unref(&frames);
}

// wait_reads waits on the host for the decodings that read f as a reference without signalling its
// semaphore (AVVkFrame.read_sem: reads_unsignalled), which FFmpeg's own transfer does not wait for.
static int wait_reads(const AVFrame *f) {
	AvxVkFrame v;
	if (read_frame(f, &v, READ_LOCKED) < 0) return 0; // not a Vulkan frame: FFmpeg's transfer says so
	avx_vk_frame_unlock(f);
	if (!v.read_sem) return 0;
	VkDevice dev = ((AVVulkanDeviceContext *)frames_of(f)->device_ctx->hwctx)->act_dev;
	pthread_mutex_lock(&devs_mu);
	int i = dev_slot(dev);
	PFN_vkWaitSemaphores wait = i >= 0 ? devs[i].wait_sems : NULL;
	pthread_mutex_unlock(&devs_mu);
	if (!wait) return AVERROR(ENOSYS);
	VkSemaphoreWaitInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
	                            .pSemaphores = &v.read_sem, .pValues = &v.read_value};
	return wait(dev, &info, UINT64_MAX) == VK_SUCCESS ? 0 : AVERROR_EXTERNAL;
}

int avx_hw_download(AVFrame *dst, const AVFrame *src) {
	av_frame_unref(dst);
	int ret = wait_reads(src);
	if (ret < 0) return ret;
	ret = av_hwframe_transfer_data(dst, src, 0);
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
