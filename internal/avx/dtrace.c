// dtrace.c: YCBCRKIT_DECODE_TRACE=FILE, the decode engines' timeline (a diagnostic, for device runs).
//
// nvidia-smi's decoder use says how busy the engines were over a second, not why they idled. The
// trace writes GPU timestamps before a decoding's first command (FFmpeg records its barriers, then
// one coding scope: libavcodec/vulkan_decode.c, ff_vk_decode_frame; hw.c's wrap_barrier2 calls
// avx_trace_first), before its vkCmdBeginVideoCodingKHR and after its vkCmdEndVideoCodingKHR, and
// notes on the CPU when it was recorded, when its batch was submitted, to which queue, with how many
// semaphore operations (hw.c's own_submit). Decodings YCBCRKIT_DECODE_TRACE_SKIP (10,000) to that
// plus YCBCRKIT_DECODE_TRACE_N (40,000) are traced, on the first device that records one; then a
// thread reads the timestamps and writes FILE, one line a decoding (scripts/device/dtrace.py reads
// it). Off, nothing is wrapped.
#include "hw.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
	uint64_t queue;          // the VkQueue the batch went to
	int32_t stream;          // the decoder (hw.c's vqs index)
	int32_t submitted;       // 1 once own_submit returned
	uint64_t cpu0, cpu1;     // CLOCK_MONOTONIC ns around the submission
	uint64_t rec;            // when the decoding's first command was recorded
	uint16_t waits, signals; // the batch's semaphore operations
} trace_slot;

static struct {
	pthread_mutex_t mu;
	int state; // 0 not looked at; 1 tracing dev; 2 off
	VkDevice dev;
	const char *path;
	uint64_t skip, n, next;
	float period; // ns a tick
	VkQueryPool pool;
	trace_slot *slots;
	PFN_vkCmdBeginVideoCodingKHR begin;
	PFN_vkCmdEndVideoCodingKHR end;
	PFN_vkCmdWriteTimestamp2 ts;
	PFN_vkGetQueryPoolResults results;
} tr = {.mu = PTHREAD_MUTEX_INITIALIZER};

static __thread int64_t tr_cur = -1; // the slot of the decoding this thread is recording
static __thread int tr_taken;        // a slot was taken (or passed over) for it

static uint64_t now_ns(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// tr_dump reads the timestamps once every traced batch had time to finish and writes the file.
static void *tr_dump(void *arg) {
	(void)arg;
	usleep(500000);
	uint64_t n = tr.n;
	uint64_t *r = calloc(n * 3, 2 * sizeof(uint64_t)); // value, availability
	FILE *f = r ? fopen(tr.path, "w") : NULL;
	if (!f) {
		free(r);
		return NULL;
	}
	tr.results(tr.dev, tr.pool, 0, (uint32_t)(3 * n), n * 3 * 2 * sizeof(uint64_t), r, 2 * sizeof(uint64_t),
	           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	fprintf(f, "# period_ns=%.6f skip=%llu\nslot,queue,stream,cpu_submit_ns,cpu_return_ns,gpu_begin,gpu_end,"
	        "gpu_first,cpu_record_ns,waits,signals\n",
	        tr.period, (unsigned long long)tr.skip);
	for (uint64_t s = 0; s < n; s++) {
		trace_slot *t = &tr.slots[s];
		if (!__atomic_load_n(&t->submitted, __ATOMIC_ACQUIRE)) continue;
		uint64_t *a = &r[6 * s], *b = &r[6 * s + 2], *e = &r[6 * s + 4];
		fprintf(f, "%llu,%llx,%d,%llu,%llu,%lld,%lld,%lld,%llu,%u,%u\n", (unsigned long long)s,
		        (unsigned long long)t->queue, t->stream, (unsigned long long)t->cpu0, (unsigned long long)t->cpu1,
		        b[1] ? (long long)b[0] : -1LL, e[1] ? (long long)e[0] : -1LL, a[1] ? (long long)a[0] : -1LL,
		        (unsigned long long)t->rec, t->waits, t->signals);
	}
	fclose(f);
	free(r);
	return NULL;
}

// tr_take gives the decoding this thread starts recording a slot (once) and writes its first
// timestamp into cb: FFmpeg records the decoding's barriers, then its coding scope.
static void tr_take(VkCommandBuffer cb) {
	if (tr_taken) return;
	tr_taken = 1;
	uint64_t k = __atomic_fetch_add(&tr.next, 1, __ATOMIC_RELAXED);
	tr_cur = -1;
	if (k >= tr.skip && k < tr.skip + tr.n) {
		tr_cur = (int64_t)(k - tr.skip);
		trace_slot *t = &tr.slots[tr_cur];
		t->rec = now_ns();
		tr.ts(cb, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, tr.pool, (uint32_t)(3 * tr_cur));
	} else if (k == tr.skip + tr.n) {
		pthread_t th;
		if (!pthread_create(&th, NULL, tr_dump, NULL)) pthread_detach(th);
	}
}

void avx_trace_first(VkCommandBuffer cb, VkDevice dev) {
	if (__atomic_load_n(&tr.state, __ATOMIC_ACQUIRE) == 1 && dev == tr.dev) tr_take(cb);
}

static void VKAPI_CALL tr_begin(VkCommandBuffer cb, const VkVideoBeginCodingInfoKHR *bi) {
	tr_take(cb);
	if (tr_cur >= 0) tr.ts(cb, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, tr.pool, (uint32_t)(3 * tr_cur + 1));
	tr.begin(cb, bi);
}

static void VKAPI_CALL tr_end(VkCommandBuffer cb, const VkVideoEndCodingInfoKHR *ei) {
	tr.end(cb, ei);
	if (tr_cur >= 0) tr.ts(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, tr.pool, (uint32_t)(3 * tr_cur + 2));
}

// tr_start sets the trace up on dev; 0 when it cannot (then it stays off).
static int tr_start(VkDevice dev, PFN_vkGetDeviceProcAddr gdpa, PFN_vkGetInstanceProcAddr gipa, VkInstance inst,
                    VkPhysicalDevice phys, uint32_t family) {
	PFN_vkGetPhysicalDeviceQueueFamilyProperties qfp =
		(PFN_vkGetPhysicalDeviceQueueFamilyProperties)gipa(inst, "vkGetPhysicalDeviceQueueFamilyProperties");
	PFN_vkGetPhysicalDeviceProperties props = (PFN_vkGetPhysicalDeviceProperties)gipa(inst, "vkGetPhysicalDeviceProperties");
	PFN_vkCreateQueryPool create = (PFN_vkCreateQueryPool)gdpa(dev, "vkCreateQueryPool");
	PFN_vkResetQueryPool reset = (PFN_vkResetQueryPool)gdpa(dev, "vkResetQueryPool");
	tr.ts = (PFN_vkCmdWriteTimestamp2)gdpa(dev, "vkCmdWriteTimestamp2");
	if (!tr.ts) tr.ts = (PFN_vkCmdWriteTimestamp2)gdpa(dev, "vkCmdWriteTimestamp2KHR");
	tr.results = (PFN_vkGetQueryPoolResults)gdpa(dev, "vkGetQueryPoolResults");
	tr.begin = (PFN_vkCmdBeginVideoCodingKHR)gdpa(dev, "vkCmdBeginVideoCodingKHR");
	tr.end = (PFN_vkCmdEndVideoCodingKHR)gdpa(dev, "vkCmdEndVideoCodingKHR");
	if (!qfp || !props || !create || !reset || !tr.ts || !tr.results || !tr.begin || !tr.end)
		return 0;
	uint32_t nf = 0;
	qfp(phys, &nf, NULL);
	VkQueueFamilyProperties fp[32];
	if (nf > 32) nf = 32;
	qfp(phys, &nf, fp);
	if (family >= nf || !fp[family].timestampValidBits) {
		fprintf(stderr, "notice: decode trace off: the decode family writes no timestamps\n");
		return 0;
	}
	VkPhysicalDeviceProperties p;
	props(phys, &p);
	tr.period = p.limits.timestampPeriod;
	tr.skip = avx_env_u64("YCBCRKIT_DECODE_TRACE_SKIP", 10000);
	tr.n = avx_env_u64("YCBCRKIT_DECODE_TRACE_N", 40000);
	if (tr.n < 1 || tr.n > 1000000) return 0;
	tr.slots = calloc(tr.n, sizeof(trace_slot));
	VkQueryPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
	                            .queryCount = (uint32_t)(3 * tr.n)};
	if (!tr.slots || create(dev, &ci, NULL, &tr.pool) != VK_SUCCESS) return 0;
	reset(dev, tr.pool, 0, (uint32_t)(3 * tr.n));
	tr.dev = dev;
	return 1;
}

PFN_vkVoidFunction avx_trace_wrap(VkDevice dev, const char *name, PFN_vkGetDeviceProcAddr gdpa,
                                  PFN_vkGetInstanceProcAddr gipa, VkInstance inst, VkPhysicalDevice phys,
                                  int32_t decode_family) {
	PFN_vkVoidFunction f = !strcmp(name, "vkCmdBeginVideoCodingKHR") ? (PFN_vkVoidFunction)tr_begin
	                       : !strcmp(name, "vkCmdEndVideoCodingKHR") ? (PFN_vkVoidFunction)tr_end
	                                                                 : NULL;
	if (!f || decode_family < 0) return NULL;
	pthread_mutex_lock(&tr.mu);
	if (!tr.state) {
		tr.path = getenv("YCBCRKIT_DECODE_TRACE");
		int on = tr.path && *tr.path && tr_start(dev, gdpa, gipa, inst, phys, (uint32_t)decode_family);
		__atomic_store_n(&tr.state, on ? 1 : 2, __ATOMIC_RELEASE);
	}
	int on = tr.state == 1 && tr.dev == dev;
	pthread_mutex_unlock(&tr.mu);
	return on ? f : NULL;
}

void avx_trace_submitted(VkQueue q, int stream, uint64_t cpu0, uint32_t waits, uint32_t signals) {
	tr_taken = 0;
	if (tr_cur < 0) return;
	trace_slot *t = &tr.slots[tr_cur];
	t->queue = (uint64_t)(uintptr_t)q, t->stream = stream, t->cpu0 = cpu0, t->cpu1 = now_ns();
	t->waits = (uint16_t)waits, t->signals = (uint16_t)signals;
	__atomic_store_n(&t->submitted, 1, __ATOMIC_RELEASE);
	tr_cur = -1;
}

uint64_t avx_trace_now(void) { return tr_cur >= 0 ? now_ns() : 0; }
