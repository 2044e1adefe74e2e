// SPDX-License-Identifier: MIT
/*
 * COIN-OR CBC (doc/ilp.md):
 *
 *   cbc MODEL timeMode elapsed sec S solve solu SOL
 *
 * SOL holds "Optimal - objective value 0.00000000", then "index name value
 * reduced-cost" for each nonzero variable. Its status line, from
 * CbcSolver.cpp: Optimal [(within gap tolerance)], Infeasible, Integer
 * infeasible, Stopped on time|iterations|difficulties|ctrl-c [(no integer
 * solution - continuous used)], Status unknown, Unbounded.
 */
#include <string.h>

#include "ilp/cbc.h"
#include "ilp/reader.h"

static int status(struct ilp_reader *rd, enum ilp_verdict *v, int *stopped)
{
	*stopped = 0;
	if (!ilp_line_has(rd, " - objective value "))
		return ilp_reader_fail(rd, "not a cbc status line");
	if (ilp_line_starts(rd, "Optimal"))
		*v = ILP_FEASIBLE;
	else if (ilp_line_starts(rd, "Infeasible") ||
		 ilp_line_starts(rd, "Integer infeasible"))
		*v = ILP_INFEASIBLE;
	else if (ilp_line_starts(rd, "Status unknown") ||
		 (ilp_line_starts(rd, "Stopped on ") &&
		  ilp_line_has(rd, "(no integer solution")))
		*v = ILP_UNKNOWN;
	else if (ilp_line_starts(rd, "Stopped on "))
		*stopped = 1;
	else
		return ilp_reader_fail(rd, "a cbc status fors does not know");
	if (*stopped)
		*v = ILP_FEASIBLE;
	return 0;
}

int ilp_parse_cbc(const char *text, uint32_t n, uint8_t *x,
		  enum ilp_verdict *v, struct fors_error *err)
{
	struct ilp_reader rd;
	struct ilp_tokens t;
	uint64_t idx;
	int r, stopped, o;
	uint8_t b;

	r = ilp_reader_begin(&rd, "cbc", text, n, x, err);
	if (r || !ilp_reader_next(&rd) || (r = status(&rd, v, &stopped)))
		return r ? r : ilp_reader_fail(&rd, "empty");
	while (*v == ILP_FEASIBLE && ilp_reader_next(&rd)) {
		ilp_reader_split(&rd, &t);
		/* "**" first is cbc's mark of a violated bound */
		o = ilp_token_is(&t, 0, "**");
		if (t.n != 4 + o || ilp_decimal(t.s[o], t.len[o], &idx))
			return ilp_reader_fail(&rd, "not 'index name value reduced-cost'");
		/*
		 * Stopped before branch and bound, cbc prints the relaxation
		 * without saying so: fractional values are no solution.
		 */
		if (stopped && ilp_binary(t.s[o + 2], t.len[o + 2], &b))
			return ilp_reader_done(&rd, ILP_UNKNOWN, v);
		r = ilp_reader_take(&rd, &t, o + 1, o + 2);
		if (r)
			return r;
	}
	return ilp_reader_done(&rd, *v, v);
}

static void args(struct ilp_cmdline *c, const char *prog)
{
	const char *a[] = { prog, c->model, "timeMode", "elapsed", "sec",
			    c->limit, "solve", "solu", c->sol, NULL };

	memcpy(c->argv, a, sizeof(a));
}

static int parse(const char *text, const char *out, uint32_t n, uint8_t *x,
		 enum ilp_verdict *v, struct fors_error *err)
{
	(void)out;
	return ilp_parse_cbc(text, n, x, v, err);
}

const struct ilp_dialect ilp_dialect_cbc = {
	.sv = { "cbc", "cbc" },
	.need_sol = 1,
	.args = args,
	.parse = parse,
};
