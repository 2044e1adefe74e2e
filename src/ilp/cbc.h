/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_CBC_H
#define FORS_ILP_CBC_H

#include <stdint.h>

#include "base/error.h"
#include "ilp/solver.h"

/* COIN-OR CBC: its command line, exit statuses and solution file. */
extern const struct ilp_dialect ilp_dialect_cbc;

/* cbc's solution file text into x[n] and *v, as ilp_solve reads it. */
int ilp_parse_cbc(const char *text, uint32_t n, uint8_t *x,
		  enum ilp_verdict *v, struct fors_error *err);

#endif
