/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_HIGHS_H
#define FORS_ILP_HIGHS_H

#include <stdint.h>

#include "base/error.h"
#include "ilp/solver.h"

/* HiGHS: its command line, exit statuses and solution file. */
extern const struct ilp_dialect ilp_dialect_highs;

/* HiGHS's solution file text into x[n] and *v, as ilp_solve reads it. */
int ilp_parse_highs(const char *text, uint32_t n, uint8_t *x,
		    enum ilp_verdict *v, struct fors_error *err);

#endif
