// SPDX-License-Identifier: MIT
#include <pthread.h>
#include <stdlib.h>

#include "base/error.h"
#include "sys/threads.h"

struct fors_thread {
	pthread_t th;
};

uint32_t fors_threads_run(uint32_t n, void *(*fn)(void *), void *arg)
{
	pthread_t th[FORS_THREADS_MAX];
	uint32_t i, started = 0;

	if (n > FORS_THREADS_MAX)
		n = FORS_THREADS_MAX;
	for (i = 0; i < n; i++)
		if (!pthread_create(&th[started], NULL, fn, arg))
			started++;
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	return started;
}

int fors_thread_start(void *(*fn)(void *), void *arg,
		      struct fors_thread **out)
{
	struct fors_thread *t = malloc(sizeof(*t));

	*out = NULL;
	if (!t)
		return FORS_ENOMEM;
	if (pthread_create(&t->th, NULL, fn, arg)) {
		free(t);
		return FORS_ENOMEM;
	}
	*out = t;
	return 0;
}

void fors_thread_join(struct fors_thread *t)
{
	if (!t)
		return;
	pthread_join(t->th, NULL);
	free(t);
}

/* The count under the lock: a waiter's wake-up is never lost. */
struct fors_progress {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t n;
};

int fors_progress_new(struct fors_progress **out)
{
	struct fors_progress *p = malloc(sizeof(*p));

	*out = NULL;
	if (!p)
		return FORS_ENOMEM;
	if (pthread_mutex_init(&p->mu, NULL)) {
		free(p);
		return FORS_ENOMEM;
	}
	if (pthread_cond_init(&p->cv, NULL)) {
		pthread_mutex_destroy(&p->mu);
		free(p);
		return FORS_ENOMEM;
	}
	p->n = 0;
	*out = p;
	return 0;
}

void fors_progress_raise(struct fors_progress *p, uint32_t n)
{
	pthread_mutex_lock(&p->mu);
	p->n = n;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

void fors_progress_wait(struct fors_progress *p, uint32_t n)
{
	pthread_mutex_lock(&p->mu);
	while (p->n < n)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void fors_progress_free(struct fors_progress *p)
{
	if (!p)
		return;
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
