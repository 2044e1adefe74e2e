// SPDX-License-Identifier: MIT
#include <time.h>

#include "sys/clock.h"

double fors_clock_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int64_t fors_clock_wall(void)
{
	return (int64_t)time(NULL);
}
