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

/*
 * A count one thread raises and another waits on, such as the phases of a
 * schedule built so far: what the raiser wrote before raising it is there
 * for the waiter.
 */
struct fors_progress;

/* A count at 0 in *out: 0, or FORS_ENOMEM. */
int fors_progress_new(struct fors_progress **out);

/* The count raised to n, its waiters woken. */
void fors_progress_raise(struct fors_progress *p, uint32_t n);

/* Wait until the count is at least n. */
void fors_progress_wait(struct fors_progress *p, uint32_t n);

/* Free p; NULL is ignored. Nobody may wait on it. */
void fors_progress_free(struct fors_progress *p);

#endif
