#include <stdint.h>

#define CGOPROF_MAX 64

struct cgoprof_ranges {
	int n;
	uintptr_t lo[CGOPROF_MAX], hi[CGOPROF_MAX];
};

struct cgoprof_ranges *cgoprof_spare(void);
void cgoprof_publish(void);
void cgoprof_traceback(void *);
int cgoprof_check_outer(uintptr_t *buf, uintptr_t max);
