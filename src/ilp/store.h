/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_STORE_H
#define FORS_ILP_STORE_H

#include <stdint.h>
#include <stdio.h>

#include "ilp/key.h"
#include "ilp/solver.h"

/*
 * The cache directory: phases/<key> holds one solved phase, scenarios/<key>
 * one scenario class precomputed in full (doc/ilp.md has both formats).
 * Entries are untrusted input: read with bounds, checked against the
 * instance they claim to solve, refused when anyone but their owner may
 * write them or their owner is neither root nor us.
 */
struct ilp_store {
	char *dir;
	uint32_t also;		/* the batch user trusted too, FORS_TRUST_NONE */
};

/* Lookups: found (and checked), or not there; errors are FORS_E*. */
enum { ILP_HIT = 0, ILP_MISS = 1 };

/*
 * Open dir; with create, make it and its subdirectories (mode 0755).
 * Owners trusted: root, us and also. FORS_EINVAL with err when the
 * directory is not safe to trust.
 */
int ilp_store_open(struct ilp_store *st, const char *dir, int create,
		   uint32_t also, struct fors_error *err);

/* Free what st holds; no file is kept open between calls. */
void ilp_store_close(struct ilp_store *st);

/* A solved phase: verdict, and colour[n] (canonical) when feasible. */
struct ilp_entry {
	enum ilp_verdict verdict;
	char solver[16];
	double seconds;		/* the solver's time for it */
};

/*
 * ILP_HIT with e (and colour[ph->n] when feasible, checked proper),
 * ILP_MISS, or FORS_EFORMAT (corrupt) / FORS_EINVAL (unsafe) / FORS_EIO
 * (unreadable, not a regular file) with err naming the file.
 */
int ilp_store_get(const struct ilp_store *st, const struct ilp_phase *ph,
		  struct ilp_entry *e, uint32_t *colour,
		  struct fors_error *err);

/*
 * Store e (and colour[ph->n], checked first, when feasible) atomically:
 * 0, FORS_EINVAL (an unknown verdict), FORS_EVERIFY (not a proper
 * colouring), FORS_EIO or FORS_ENOMEM, with err.
 */
int ilp_store_put(const struct ilp_store *st, const struct ilp_phase *ph,
		  const struct ilp_entry *e, const uint32_t *colour,
		  struct fors_error *err);

/*
 * Scenario class hash complete in the cache (ILP_HIT, its text checked
 * against text when not NULL), ILP_MISS, or an error as ilp_store_get.
 */
int ilp_store_has_scenario(const struct ilp_store *st, uint64_t hash,
			   const char *text, struct fors_error *err);

/* Record class hash (text) complete, with its summary line: 0 or FORS_E*. */
int ilp_store_put_scenario(const struct ilp_store *st, uint64_t hash,
			   const char *text, const char *summary,
			   struct fors_error *err);

/*
 * Every entry checked (format, checksum, solution against its instance):
 * one line per entry on out, "KIND KEY VERDICT" sorted by key; the number
 * of bad entries in *bad, each reported on errs.
 */
int ilp_store_list(const struct ilp_store *st, FILE *out, FILE *errs,
		   uint32_t *bad, struct fors_error *err);

/*
 * `fors ilp list`: every entry checked, owners trusted as by
 * ilp_store_open; the number of bad ones in *bad.
 */
int fors_ilp_list(const char *cache, uint32_t also, FILE *out,
		  uint32_t *bad, struct fors_error *err);

/* Entries in sub ("phases" or "scenarios"), unchecked: for reports. */
uint32_t ilp_store_count(const struct ilp_store *st, const char *sub);

/*
 * A phase entry read from anywhere (a fuzzer, `fors ilp list`): parsed,
 * its instance rebuilt, its solution checked against it. ILP_HIT with *v,
 * or FORS_EFORMAT with err naming name.
 */
int ilp_entry_check(char *buf, size_t len, const char *name,
		    enum ilp_verdict *v, struct fors_error *err);

#endif
