/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_SOLVER_H
#define FORS_ILP_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/*
 * External MILP solvers. A model is CPLEX-LP text whose variables are the
 * binaries x0 .. x<n-1>; a solver runs it as a separate program and its
 * solution file is parsed back into x[].
 */
enum ilp_verdict {
	ILP_FEASIBLE,		/* x[] holds a solution */
	ILP_INFEASIBLE,		/* proven infeasible by the solver */
	ILP_UNKNOWN,		/* time limit or other stop without answer */
};

struct ilp_solver {
	const char *name;	/* "cbc", "glpsol", "highs", "gurobi" */
	const char *program;	/* default program name or path */
};

/* The solver called name, or NULL. */
const struct ilp_solver *ilp_solver_find(const char *name);

/* Names of all solvers, comma separated, for messages. */
const char *ilp_solver_names(void);

struct ilp_limits {
	uint32_t time_ms;	/* passed to the solver, enforced by a kill */
	size_t max_output;	/* solution file and standard output */
};

/*
 * Solve the model lp (NUL-terminated CPLEX-LP text) with sv, program
 * overriding sv->program when not NULL. Works in a private temporary
 * directory removed afterwards. 0 with *v set when the solver gave a
 * verdict (ILP_UNKNOWN on its time limit); on ILP_FEASIBLE x[i] is 0 or 1
 * for every i < n. FORS_EIO/FORS_EFORMAT with err when the solver could
 * not run or its output is not understood (a variable out of range, a
 * value that is not 0 or 1, a truncated file).
 */
int ilp_solve(const struct ilp_solver *sv, const char *program,
	      const char *lp, uint32_t n, uint8_t *x, enum ilp_verdict *v,
	      const struct ilp_limits *lim, struct fors_error *err);

/*
 * The parsers, exposed for tests and fuzzing: text is the solver's
 * solution file (and for gurobi, out its standard output). Same results
 * as ilp_solve.
 */
int ilp_parse_cbc(const char *text, uint32_t n, uint8_t *x,
		  enum ilp_verdict *v, struct fors_error *err);
int ilp_parse_glpsol(const char *text, uint32_t n, uint8_t *x,
		     enum ilp_verdict *v, struct fors_error *err);
int ilp_parse_highs(const char *text, uint32_t n, uint8_t *x,
		    enum ilp_verdict *v, struct fors_error *err);
int ilp_parse_gurobi(const char *text, const char *out, uint32_t n,
		     uint8_t *x, enum ilp_verdict *v, struct fors_error *err);

#endif
