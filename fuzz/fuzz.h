/* SPDX-License-Identifier: MIT */
#ifndef FORS_FUZZ_H
#define FORS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * libFuzzer's entry point. tests/fuzz_replay.c calls the same function,
 * compiled with gcc, on every seed and regression input.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The parsers read streams: the input as one, read-only. */
static inline FILE *fuzz_open(const uint8_t *data, size_t size)
{
	return fmemopen((void *)data, size, "r");
}

/* Inputs are small: running out of memory is a misreported format error. */
#define FUZZ_NOMEM "out of memory on a small input"

/* A broken promise is a finding too: abort, so the fuzzer saves the input. */
static inline void fuzz_require(int ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "fuzz: %s\n", what);
	abort();
}

#endif
