/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_PRECOMPUTE_H
#define FORS_ILP_PRECOMPUTE_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "ilp/lookup.h"

/* What `fors ilp precompute` enumerates, solves and stores. */
struct ilp_precompute {
	const char *reference;	/* healthy topology file */
	uint32_t max_failures;
	uint32_t jobs;
	uint32_t shard, nshards;
	uint32_t sample;	/* 0, or only this many classes with exactly
				   max_failures cables, evenly spread: an
				   estimate for the whole level */
	int progress;		/* 1: a bar on stderr; 0: plain lines */
	int plan;		/* count the distinct phases, solve nothing;
				   o.cache may then be NULL */
	struct ilp_opts o;
};

/* `fors ilp precompute`: report on out, progress on stderr; an exit status. */
int fors_ilp_precompute(const struct ilp_precompute *pc, FILE *out,
			struct fors_error *err);

#endif
