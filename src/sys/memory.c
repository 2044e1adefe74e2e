// SPDX-License-Identifier: MIT
/*
 * glibc raises its mmap threshold to the size of each mapped block freed,
 * up to 32 MiB; blocks below it then come from the heap, where freed space
 * stays resident. A sweep at NDR scale frees blocks of up to 25 MB, so the
 * subnet manager's peak came to depend on which was freed first (84 or
 * 103 MiB in the same run of the lab). Setting the threshold turns the
 * raising off (doc/plugin.md).
 */
#include <malloc.h>

#include "sys/memory.h"

#define FORS_MMAP_THRESHOLD (1 << 20)

int fors_memory_fix_threshold(void)
{
	return mallopt(M_MMAP_THRESHOLD, FORS_MMAP_THRESHOLD) == 1 ? 0 : -1;
}
