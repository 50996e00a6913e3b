// The C side of package cgoprof: the traceback Go's profiler calls when its signal lands in C code.
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include "cgoprof.h"

// Two tables of text ranges, swapped by cgoprof_publish, so that a signal handler never reads one
// being written (a handler that started before a swap ends long before the next one, a second on).
static struct cgoprof_ranges tables[2];
static volatile int current = -1;

struct cgoprof_ranges *cgoprof_spare(void) { return &tables[current == 0 ? 1 : 0]; }
void cgoprof_publish(void) { __atomic_store_n(&current, current == 0 ? 1 : 0, __ATOMIC_RELEASE); }

static int in_text(const struct cgoprof_ranges *t, uintptr_t pc) {
	for (int i = 0; i < t->n; i++)
		if (pc >= t->lo[i] && pc < t->hi[i])
			return 1;
	return 0;
}

// called says whether a call instruction ends just before ret (call rel32, or call through a
// register or memory: FF /2 in its 2- to 7-byte forms): a return address, not a stale value.
static int called(const struct cgoprof_ranges *t, uintptr_t ret) {
	if (!in_text(t, ret - 7))
		return 0;
	const unsigned char *p = (const unsigned char *)ret;
	if (p[-5] == 0xe8)
		return 1;
	for (int n = 2; n <= 7; n++)
		if (p[-n] == 0xff && ((p[-n + 1] >> 3) & 7) == 2)
			return 1;
	return 0;
}

// The argument Go passes (runtime.SetCgoTraceback's documentation).
struct tbarg {
	uintptr_t context, sigcontext, *buf, max;
};

// cgoprof_traceback gives the interrupted PC, then the return addresses found by scanning up to 4 KB
// of the interrupted stack (read with process_vm_readv, which fails rather than faults): no unwind
// tables needed, at the price of an occasional stale address.
void cgoprof_traceback(void *p) {
	struct tbarg *a = p;
	uintptr_t n = 0;
	int cur = __atomic_load_n(&current, __ATOMIC_ACQUIRE);
	if (a->sigcontext && cur >= 0 && a->max > 1) {
		const struct cgoprof_ranges *t = &tables[cur];
		const ucontext_t *uc = (const ucontext_t *)a->sigcontext;
		uintptr_t pc = uc->uc_mcontext.gregs[REG_RIP], sp = uc->uc_mcontext.gregs[REG_RSP];
		a->buf[n++] = pc;
		uintptr_t words[512];
		struct iovec local = {words, sizeof words}, remote = {(void *)sp, sizeof words};
		ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		if (got < 0) { // near the top of the stack: a smaller read
			remote.iov_len = local.iov_len = 512;
			got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		}
		for (ssize_t i = 0; got > 0 && i < got / 8 && n + 1 < a->max && n < 24; i++)
			if (in_text(t, words[i]) && called(t, words[i]))
				a->buf[n++] = words[i];
	}
	a->buf[n] = 0;
}

// cgoprof_check walks its own stack as a profiling signal would find it (a context from
// getcontext, two calls below a marker function): 1 when the interrupted PC comes first and the
// return address into cgoprof_check_outer is among the callers (the package's test).
static __attribute__((noinline)) int check_inner(uintptr_t *buf, uintptr_t max) {
	ucontext_t uc;
	getcontext(&uc);
	struct tbarg a = {0, (uintptr_t)&uc, buf, max};
	cgoprof_traceback(&a);
	return buf[0] == (uintptr_t)uc.uc_mcontext.gregs[REG_RIP];
}

__attribute__((noinline)) int cgoprof_check_outer(uintptr_t *buf, uintptr_t max) {
	int ok = check_inner(buf, max);
	__asm__ volatile("" ::: "memory"); // keeps the call a call, not a tail jump
	return ok;
}
