/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_KEY_H
#define FORS_ILP_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/scenario.h"

struct fors_schedule;

/*
 * One phase as a problem of its own: its inter-leaf transfers (source and
 * destination leaves) and the planes alive at the leaves it touches, to be
 * placed in k sub-phases. Planes are interchangeable (each is one cable per
 * leaf), so they are renumbered in a canonical order: two phases that
 * differ only by a permutation of the spines get the same text and key.
 */
struct ilp_phase {
	uint32_t m1, q, k, n;
	uint32_t *src, *dst;	/* [n]: leaves, canonical edge order */
	uint32_t *edge;		/* [n]: canonical edge e is the caller's edge[e] */
	uint8_t *live;		/* [m1 * q]: canonical planes, touched leaves */
	uint32_t *plane;	/* [q]: canonical plane c is real plane plane[c] */
	char *text;		/* the canonical instance */
	size_t len;
	uint64_t hash;
};

/*
 * The canonical phase of n transfers from leaf ls[i] to leaf ld[i] on fb,
 * in k sub-phases. 0, or FORS_ENOMEM.
 */
int ilp_phase_make(struct ilp_phase *ph, const struct fors_fabric *fb,
		   const uint32_t *ls, const uint32_t *ld, uint32_t n,
		   uint32_t k);

/* Free what ph holds and zero it; a cleared phase may be cleared again. */
void ilp_phase_clear(struct ilp_phase *ph);

/*
 * The schedule of sc as every route of it builds it (Algorithm 1, f of the
 * scenario's abstract fabric *fb). The caller frees both, also on error.
 */
int ilp_scenario_schedule(const struct fors_scenario *sc,
			  struct fors_fabric **fb, struct fors_schedule **s,
			  struct fors_error *err);

/*
 * The inter-leaf transfers of phase p: transfer idx[i] goes from leaf ls[i]
 * to leaf ld[i]. Returns their number.
 */
uint32_t ilp_phase_gather(const struct fors_schedule *s, uint32_t m0,
			  uint32_t p, uint32_t *idx, uint32_t *ls,
			  uint32_t *ld);

/*
 * Every phase of sc with inter-leaf transfers, as the canonical instance
 * of its first attempt (one sub-phase), handed to fn: what routing sc asks
 * the cache for, without asking. Stops at fn's first non-zero return.
 */
int ilp_scenario_phases(const struct fors_scenario *sc,
			int (*fn)(const struct ilp_phase *ph, void *arg),
			void *arg, struct fors_error *err);

/*
 * A phase back from its canonical text (a cache entry: untrusted). -1
 * unless text is exactly the canonical text of a phase within bounds.
 */
int ilp_phase_parse(struct ilp_phase *ph, const char *text, size_t len);

/*
 * The same scenario up to a permutation of its planes gets the same text:
 * the scenario with its planes sorted by their live columns.
 */
int ilp_scenario_key(const struct fors_scenario *sc, char **text,
		     size_t *len, uint64_t *hash);

/* Sort the planes of sc into canonical order, in place. 0 or FORS_ENOMEM. */
int ilp_scenario_canon(struct fors_scenario *sc);

/* FNV-1a, 64 bits: keys and entry checksums (not a defence: see store.c). */
uint64_t ilp_hash(const void *p, size_t n, uint64_t h);

/* FNV-1a's offset basis: the h that starts a hash. */
#define ILP_HASH_INIT 14695981039346656037ull

#endif
