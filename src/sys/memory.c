// SPDX-License-Identifier: MIT
/*
 * glibc raises its mmap threshold to the size of each mapped block freed,
 * up to 32 MiB; blocks below it then come from the heap, where freed space
 * stays resident. A sweep at NDR scale frees blocks of up to 25 MB, so the
 * subnet manager's peak came to depend on which was freed first (84 or
 * 103 MiB in the same run of the lab). Setting the threshold turns the
 * raising off. And each thread that allocates gets an arena of its own,
 * whose pages are fresh where the main heap has freed ones resident: the
 * sweep's threads (the tables filled, the union checked) raised the peak
 * by about 1 MiB until the process kept one arena (doc/plugin.md).
 */
#include <malloc.h>

#include "sys/memory.h"

#define FORS_MMAP_THRESHOLD (1 << 20)

int fors_memory_tune(void)
{
	int t = mallopt(M_MMAP_THRESHOLD, FORS_MMAP_THRESHOLD);
	int a = mallopt(M_ARENA_MAX, 1);

	return t == 1 && a == 1 ? 0 : -1;
}
