/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_GLPSOL_H
#define FORS_ILP_GLPSOL_H

#include <stdint.h>

#include "base/error.h"
#include "ilp/solver.h"

/* GLPK's glpsol: its command line, exit statuses and printable report. */
extern const struct ilp_dialect ilp_dialect_glpsol;

/* glpsol's report (-o) into x[n] and *v, as ilp_solve reads it. */
int ilp_parse_glpsol(const char *text, uint32_t n, uint8_t *x,
		     enum ilp_verdict *v, struct fors_error *err);

#endif
