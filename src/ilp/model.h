/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_MODEL_H
#define FORS_ILP_MODEL_H

#include <stdint.h>

#include "ilp/key.h"

/*
 * The per-phase ILP of the FORS paper (Section 5.2) over a canonical phase:
 * a binary x<j> per (transfer, sub-phase, plane alive at both its leaves);
 * each transfer takes exactly one; each (source leaf, sub-phase, plane)
 * and each (destination leaf, sub-phase, plane) at most one. Colour
 * sub * q + plane names a (sub-phase, plane) pair.
 */
struct ilp_model {
	uint32_t nvars;
	uint32_t *edge;		/* [nvars]: the transfer of x<j> */
	uint32_t *colour;	/* [nvars]: its colour */
	char *lp;		/* CPLEX-LP text */
};

/* The model of ph into md: 0, or FORS_ENOMEM with md cleared. */
int ilp_model_build(struct ilp_model *md, const struct ilp_phase *ph);

/* Free what md holds and zero it; a cleared model may be cleared again. */
void ilp_model_clear(struct ilp_model *md);

/*
 * A solution x[] back into one colour per transfer (colour[n]). FORS_EVERIFY
 * with err unless every transfer has exactly one colour and the colouring
 * is proper.
 */
int ilp_model_decode(const struct ilp_model *md, const struct ilp_phase *ph,
		     const uint8_t *x, uint32_t *colour,
		     struct fors_error *err);

/*
 * 0 when colour[] gives every transfer of ph a (sub-phase, plane) alive at
 * both its leaves, each at most once per leaf on each side; FORS_EVERIFY
 * with the first violation otherwise. Stored solutions pass through it.
 */
int ilp_colouring_check(const struct ilp_phase *ph, const uint32_t *colour,
			struct fors_error *err);

#endif
