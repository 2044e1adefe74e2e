/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_GUROBI_H
#define FORS_ILP_GUROBI_H

#include <stdint.h>

#include "base/error.h"
#include "ilp/solver.h"

/* Gurobi's gurobi_cl: its command line, log and result file. */
extern const struct ilp_dialect ilp_dialect_gurobi;

/*
 * gurobi_cl's standard output out (the verdict) and result file text
 * (NULL: none) into x[n] and *v, as ilp_solve reads them.
 */
int ilp_parse_gurobi(const char *text, const char *out, uint32_t n,
		     uint8_t *x, enum ilp_verdict *v, struct fors_error *err);

#endif
