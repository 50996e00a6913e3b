// queue.c: the queue lock (vkx.h) and every call that needs it: submissions, presents, and
// vkDeviceWaitIdle. The queue may be shared with FFmpeg's decoder threads: vkQueueSubmit and
// vkQueuePresentKHR need the queue externally synchronized (Vulkan spec, "Threading Behavior").
#include "vkx.h"
#include <pthread.h>
#include <string.h>

// One mutex per queue; PTHREAD_MUTEX_INITIALIZER for every element through a designated range
// would be a GNU extension, so they are initialised once.
static pthread_mutex_t qlocks[VKX_MAX_QUEUE_FAMILIES][VKX_MAX_QUEUES];
static pthread_once_t qlocks_once = PTHREAD_ONCE_INIT;

static void qlocks_init(void) {
	for (int i = 0; i < VKX_MAX_QUEUE_FAMILIES; i++)
		for (int j = 0; j < VKX_MAX_QUEUES; j++) pthread_mutex_init(&qlocks[i][j], NULL);
}

void vkx_queue_lock(uint32_t family, uint32_t index) {
	pthread_once(&qlocks_once, qlocks_init);
	if (family < VKX_MAX_QUEUE_FAMILIES && index < VKX_MAX_QUEUES) pthread_mutex_lock(&qlocks[family][index]);
}

void vkx_queue_unlock(uint32_t family, uint32_t index) {
	if (family < VKX_MAX_QUEUE_FAMILIES && index < VKX_MAX_QUEUES) pthread_mutex_unlock(&qlocks[family][index]);
}

// lock_all takes every queue lock, in one fixed order: no thread holds two queue locks
// otherwise, so this cannot deadlock. For calls that need all of a device's queues.
static void lock_all(void) {
	pthread_once(&qlocks_once, qlocks_init);
	for (int i = 0; i < VKX_MAX_QUEUE_FAMILIES; i++)
		for (int j = 0; j < VKX_MAX_QUEUES; j++) pthread_mutex_lock(&qlocks[i][j]);
}

static void unlock_all(void) {
	for (int i = VKX_MAX_QUEUE_FAMILIES - 1; i >= 0; i--)
		for (int j = VKX_MAX_QUEUES - 1; j >= 0; j--) pthread_mutex_unlock(&qlocks[i][j]);
}

void *vkx_queue_lock_fn(void) { return (void *)vkx_queue_lock; }
void *vkx_queue_unlock_fn(void) { return (void *)vkx_queue_unlock; }

// Queues the toolkit submits to, by handle, so that vkx_queue_submit finds the lock FFmpeg takes by
// (family, index): a device's graphics queues (gpu.Options.Queues), for a few devices at a time.
#define MAX_KNOWN 64
static struct {
	VkQueue q;
	uint32_t family, index;
} known[MAX_KNOWN];
static int nknown;
static pthread_mutex_t known_mu = PTHREAD_MUTEX_INITIALIZER;

void vkx_queue_register(VkQueue q, uint32_t family, uint32_t index) {
	pthread_mutex_lock(&known_mu);
	int i = 0;
	while (i < nknown && known[i].q != q) i++;
	if (i == MAX_KNOWN) {
		// Full: a queue left registered by a device closed without vkx_queue_unregister. Dropping
		// the oldest keeps the newest device's submissions locked (a queue the toolkit submits to
		// without its lock races FFmpeg's threads: UNASSIGNED-Threading-MultipleThreads).
		memmove(&known[0], &known[1], (MAX_KNOWN - 1) * sizeof known[0]);
		i = MAX_KNOWN - 1;
		nknown = i;
	}
	known[i].q = q;
	known[i].family = family;
	known[i].index = index;
	if (i == nknown) nknown++;
	pthread_mutex_unlock(&known_mu);
}

// vkx_queue_unregister forgets q (its device is being destroyed; a later device may get the same
// handle value).
void vkx_queue_unregister(VkQueue q) {
	pthread_mutex_lock(&known_mu);
	for (int i = 0; i < nknown; i++) {
		if (known[i].q == q) {
			memmove(&known[i], &known[i + 1], (nknown - i - 1) * sizeof known[0]);
			nknown--;
			break;
		}
	}
	pthread_mutex_unlock(&known_mu);
}

static int find(VkQueue q, uint32_t *family, uint32_t *index) {
	int found = 0;
	pthread_mutex_lock(&known_mu);
	for (int i = 0; i < nknown; i++) {
		if (known[i].q == q) {
			*family = known[i].family;
			*index = known[i].index;
			found = 1;
			break;
		}
	}
	pthread_mutex_unlock(&known_mu);
	return found;
}

static void lock_handle(VkQueue q) {
	uint32_t f, i;
	if (find(q, &f, &i)) vkx_queue_lock(f, i);
}

static void unlock_handle(VkQueue q) {
	uint32_t f, i;
	if (find(q, &f, &i)) vkx_queue_unlock(f, i);
}

static VkResult submit(VkQueue q, uint32_t n, const VkSubmitInfo *si, VkFence fence) {
	lock_handle(q);
	VkResult r = vkx_fn.QueueSubmit(q, n, si, fence);
	unlock_handle(q);
	return r;
}

VkResult vkx_queue_submit(VkQueue q, VkCommandBuffer cb, VkSemaphore wait, VkPipelineStageFlags stage,
                          VkSemaphore signal, VkFence fence) {
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
	if (wait) {
		si.waitSemaphoreCount = 1;
		si.pWaitSemaphores = &wait;
		si.pWaitDstStageMask = &stage;
	}
	if (signal) {
		si.signalSemaphoreCount = 1;
		si.pSignalSemaphores = &signal;
	}
	return submit(q, 1, &si, fence);
}

// vkx_queue_submit_batches submits the batches in one vkQueueSubmit. VkTimelineSemaphoreSubmitInfo is
// chained to every batch when any semaphore has a value (a timeline semaphore; the values of binary
// ones are ignored: Vulkan spec, VkTimelineSemaphoreSubmitInfo), and to none when all are zero, so
// that binary-only submissions are valid on a device without timeline semaphores. Every timeline
// wait here comes with a signal of a higher value in the same submission (the AVVkFrame protocol).
VkResult vkx_queue_submit_batches(VkQueue q, const VkxBatch *b, uint32_t n, VkFence fence) {
	if (n == 0 || n > VKX_MAX_BATCHES) return VK_ERROR_INITIALIZATION_FAILED;
	VkTimelineSemaphoreSubmitInfo tl[n];
	VkSubmitInfo si[n];
	int timeline = 0;
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < b[i].nwait && k < VKX_MAX_SEMAPHORES; k++) timeline |= b[i].wait_value[k] != 0;
		for (uint32_t k = 0; k < b[i].nsignal && k < VKX_MAX_SEMAPHORES; k++) timeline |= b[i].signal_value[k] != 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		tl[i] = (VkTimelineSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		                                        .waitSemaphoreValueCount = b[i].nwait, .pWaitSemaphoreValues = b[i].wait_value,
		                                        .signalSemaphoreValueCount = b[i].nsignal, .pSignalSemaphoreValues = b[i].signal_value};
		si[i] = (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = timeline ? &tl[i] : NULL,
		                       .commandBufferCount = b[i].cb ? 1 : 0, .pCommandBuffers = &b[i].cb, .waitSemaphoreCount = b[i].nwait,
		                       .pWaitSemaphores = b[i].wait, .pWaitDstStageMask = b[i].stage,
		                       .signalSemaphoreCount = b[i].nsignal, .pSignalSemaphores = b[i].signal};
	}
	return submit(q, n, si, fence);
}

VkResult vkx_queue_present(VkQueue q, VkSwapchainKHR sc, uint32_t index, VkSemaphore wait) {
	VkPresentInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, .waitSemaphoreCount = wait ? 1 : 0,
	                       .pWaitSemaphores = &wait, .swapchainCount = 1, .pSwapchains = &sc, .pImageIndices = &index};
	lock_handle(q);
	VkResult r = vkx_fn.QueuePresentKHR(q, &pi);
	unlock_handle(q);
	return r;
}

// vkx_device_wait_idle is vkDeviceWaitIdle with every queue lock held: the spec makes host access to
// all of the device's queues externally synchronized for that call (vkDeviceWaitIdle, "Host
// Synchronization"), and FFmpeg's threads may be submitting to any of them (its decode queues
// included).
VkResult vkx_device_wait_idle(VkDevice dev) {
	lock_all();
	VkResult r = vkx_fn.DeviceWaitIdle(dev);
	unlock_all();
	return r;
}

VkResult vkx_device_wait_idle_unlocked(VkDevice dev) { return vkx_fn.DeviceWaitIdle(dev); }

VkResult vkx_wait_semaphores(VkDevice dev, VkxPoints p, uint64_t timeout) {
	VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = p.n, .pSemaphores = p.s,
	                          .pValues = p.v};
	return vkx_fn.WaitSemaphores(dev, &wi, timeout);
}

VkResult vkx_semaphores_reached(VkDevice dev, VkxPoints p, int wait) {
	if (wait) return vkx_wait_semaphores(dev, p, 0);
	for (uint32_t i = 0; i < p.n; i++) {
		uint64_t c = 0;
		VkResult r = vkx_fn.GetSemaphoreCounterValue(dev, p.s[i], &c);
		if (r != VK_SUCCESS) return r;
		if (c < p.v[i]) return VK_TIMEOUT;
	}
	return VK_SUCCESS;
}

VkResult vkx_signal_semaphore(VkDevice dev, VkSemaphore s, uint64_t value) {
	VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = s, .value = value};
	return vkx_fn.SignalSemaphore(dev, &si);
}

VkResult vkx_create_timeline(VkDevice dev, uint64_t initial, VkSemaphore *out) {
	VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
	                                .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE, .initialValue = initial};
	VkSemaphoreCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
	return vkx_fn.CreateSemaphore(dev, &ci, NULL, out);
}
