// SPDX-License-Identifier: MIT
/*
 * HiGHS (doc/ilp.md):
 *
 *   highs --model_file MODEL --time_limit S --solution_file SOL
 *
 * SOL in its default style (writeSolutionFile() in HiGHS's
 * HighsModelUtils.cpp): "Model status", the status, "", "# Primal solution
 * values", None|Feasible|Infeasible and, with values, "Objective V",
 * "# Columns N", N lines "name value", "# Rows M", the rows, the duals.
 */
#include <string.h>

#include "ilp/highs.h"
#include "ilp/reader.h"

enum { H_BAD, H_OPT, H_INF, H_STOP };

static int status(const struct ilp_reader *rd)
{
	static const char *const stop[] = {
		"Time limit reached", "Iteration limit reached",
		"Solution limit reached", "Memory limit reached",
		"Interrupted by user", "Interrupted by HiGHS",
		"Bound on objective reached", "Target for objective reached",
		"Unknown",
	};
	unsigned i;

	if (ilp_line_is(rd, "Optimal"))
		return H_OPT;
	/* Every variable is binary: the model cannot be unbounded. */
	if (ilp_line_is(rd, "Infeasible") ||
	    ilp_line_is(rd, "Primal infeasible or unbounded"))
		return H_INF;
	for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++)
		if (ilp_line_is(rd, stop[i]))
			return H_STOP;
	return H_BAD;
}

static int columns(struct ilp_reader *rd)
{
	struct ilp_tokens t;
	uint64_t k, ncol = 0;
	int r;

	if (!ilp_reader_next(rd) || !ilp_line_starts(rd, "Objective "))
		return ilp_reader_fail(rd, "expected 'Objective'");
	t.n = 0;
	if (ilp_reader_next(rd))
		ilp_reader_split(rd, &t);
	if (t.n != 3 || !ilp_token_is(&t, 0, "#") ||
	    !ilp_token_is(&t, 1, "Columns") ||
	    ilp_decimal(t.s[2], t.len[2], &ncol))
		return ilp_reader_fail(rd, "expected '# Columns N'");
	for (k = 0; k < ncol; k++) {
		if (!ilp_reader_next(rd))
			return ilp_reader_fail(rd, "the columns end early");
		ilp_reader_split(rd, &t);
		if (t.n != 2)
			return ilp_reader_fail(rd, "not 'name value'");
		r = ilp_reader_take(rd, &t, 0, 1);
		if (r)
			return r;
	}
	if (!ilp_reader_next(rd) || !ilp_line_starts(rd, "# Rows "))
		return ilp_reader_fail(rd,
				       "expected '# Rows' after the %llu columns",
				       (unsigned long long)ncol);
	return 0;
}

int ilp_parse_highs(const char *text, uint32_t n, uint8_t *x,
		    enum ilp_verdict *v, struct fors_error *err)
{
	struct ilp_reader rd;
	int r = ilp_reader_begin(&rd, "highs", text, n, x, err), c, feasible;

	if (r)
		return r;
	if (!ilp_reader_next(&rd) || !ilp_line_is(&rd, "Model status"))
		return ilp_reader_fail(&rd, "expected 'Model status'");
	if (!ilp_reader_next(&rd) || (c = status(&rd)) == H_BAD)
		return ilp_reader_fail(&rd, "a model status fors does not know");
	if (!ilp_reader_next(&rd) || rd.len || !ilp_reader_next(&rd) ||
	    !ilp_line_is(&rd, "# Primal solution values"))
		return ilp_reader_fail(&rd, "expected '# Primal solution values'");
	if (!ilp_reader_next(&rd) || !(ilp_line_is(&rd, "None") ||
				       ilp_line_is(&rd, "Feasible") ||
				       ilp_line_is(&rd, "Infeasible")))
		return ilp_reader_fail(&rd, "expected None, Feasible or Infeasible");
	feasible = ilp_line_is(&rd, "Feasible");
	if (c == H_OPT && !feasible)
		return ilp_reader_fail(&rd, "optimal, but no feasible solution");
	if (c == H_INF && feasible)
		return ilp_reader_fail(&rd, "infeasible, but a feasible solution");
	if (!feasible)
		return ilp_reader_done(&rd, c == H_INF ? ILP_INFEASIBLE :
				       ILP_UNKNOWN, v);
	r = columns(&rd);
	return r ? r : ilp_reader_done(&rd, ILP_FEASIBLE, v);
}

static void args(struct ilp_cmdline *c, const char *prog)
{
	const char *a[] = { prog, "--model_file", c->model, "--time_limit",
			    c->limit, "--solution_file", c->sol, NULL };

	memcpy(c->argv, a, sizeof(a));
}

static int parse(const char *text, const char *out, uint32_t n, uint8_t *x,
		 enum ilp_verdict *v, struct fors_error *err)
{
	(void)out;
	return ilp_parse_highs(text, n, x, v, err);
}

/* highs exits 1 (a warning) when it stops on its time limit. */
const struct ilp_dialect ilp_dialect_highs = {
	.sv = { "highs", "highs" },
	.exit_max = 1,
	.need_sol = 1,
	.args = args,
	.parse = parse,
};
