/* SPDX-License-Identifier: MIT */
#ifndef FORS_THREADS_H
#define FORS_THREADS_H

#include <stdint.h>

/* Most threads fors_threads_run starts. */
#define FORS_THREADS_MAX 64

/*
 * Run fn(arg) on n threads (at most FORS_THREADS_MAX) and wait for all of
 * them. Returns how many started: 0 means fn never ran.
 */
uint32_t fors_threads_run(uint32_t n, void *(*fn)(void *), void *arg);

#endif
