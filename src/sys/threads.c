// SPDX-License-Identifier: MIT
#include <pthread.h>

#include "sys/threads.h"

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
