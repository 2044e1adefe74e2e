/* SPDX-License-Identifier: MIT */
#ifndef FORS_CLOCK_H
#define FORS_CLOCK_H

#include <stdint.h>

/* Milliseconds on the monotonic clock, for measuring how long work took. */
double fors_clock_ms(void);

/* Wall-clock seconds since the epoch, for what outlives the process. */
int64_t fors_clock_wall(void);

#endif
