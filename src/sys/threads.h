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

/* A thread of its own, started by fors_thread_start. */
struct fors_thread;

/*
 * Run fn(arg) on a thread of its own: 0 with *out, or FORS_ENOMEM when no
 * thread starts (fn has not run).
 */
int fors_thread_start(void *(*fn)(void *), void *arg,
		      struct fors_thread **out);

/* Wait for t to finish, and free it; NULL is ignored. */
void fors_thread_join(struct fors_thread *t);

#endif
