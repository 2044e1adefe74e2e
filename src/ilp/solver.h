/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_SOLVER_H
#define FORS_ILP_SOLVER_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/*
 * External MILP solvers. A model is CPLEX-LP text whose variables are the
 * binaries x0 .. x<n-1>; a solver runs it as a separate program and its
 * solution file is parsed back into x[].
 */

/* What a solver concluded about a model. */
enum ilp_verdict {
	ILP_FEASIBLE,		/* x[] holds a solution */
	ILP_INFEASIBLE,		/* proven infeasible by the solver */
	ILP_UNKNOWN,		/* time limit or other stop without answer */
};

/* A solver as the command line names it. */
struct ilp_solver {
	const char *name;	/* "cbc", "glpsol", "highs", "gurobi" */
	const char *program;	/* default program name or path */
};

/* The solver called name, or NULL. */
const struct ilp_solver *ilp_solver_find(const char *name);

/* Names of all solvers, comma separated, for messages. */
const char *ilp_solver_names(void);

/* The bounds of one solver run. */
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
 * The dialects' side: each solver's file (cbc.c, glpsol.c, highs.c,
 * gurobi.c) describes itself to ilp_solve with a struct ilp_dialect.
 */

/* Most words of a solver's command line, its final NULL included. */
#define ILP_ARGV_MAX 12

/* A solver's command line, built by its dialect from one run's files. */
struct ilp_cmdline {
	const char *model;	/* the model, in the run's private directory */
	const char *sol;	/* where the solver writes its solution */
	const char *log;	/* where it writes a log, if it is told to */
	const char *limit;	/* the time limit in seconds, as it takes it */
	char word[3][PATH_MAX + 32];	/* room for words like KEY=FILE */
	const char *argv[ILP_ARGV_MAX];
};

/* How to run one solver and read what it wrote. */
struct ilp_dialect {
	struct ilp_solver sv;
	int whole_seconds;	/* its time limit option takes an integer */
	int exit_max;		/* the highest exit status of a normal run */
	int need_sol;		/* no solution file is an error */
	/* c->argv for program prog, from c's files and limit */
	void (*args)(struct ilp_cmdline *c, const char *prog);
	/* the solution file text (NULL: none) and standard output out */
	int (*parse)(const char *text, const char *out, uint32_t n,
		     uint8_t *x, enum ilp_verdict *v, struct fors_error *err);
};

#endif
