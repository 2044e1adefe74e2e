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
