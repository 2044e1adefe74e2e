// SPDX-License-Identifier: MIT
/*
 * GLPK's glpsol (doc/ilp.md):
 *
 *   glpsol --lp MODEL --tmlim S -o SOL
 *
 * SOL is glp_print_mip()'s printable report, the one format of glpsol's
 * that carries the variables' names. A header ("Columns:    N (...)",
 * "Status:     INTEGER OPTIMAL"), the rows, then the columns table "No.
 * name * activity bounds", and "End of output" last.
 */
#include <string.h>

#include "ilp/glpsol.h"
#include "ilp/reader.h"

static int header(struct ilp_reader *rd, uint64_t *ncol, enum ilp_verdict *v)
{
	static const char *const key[] = { "Problem:", "Rows:", "Columns:",
					   "Non-zeros:", "Status:" };
	struct ilp_tokens t;
	unsigned k;

	for (k = 0; k < 5; k++) {
		if (!ilp_reader_next(rd) || !ilp_line_starts(rd, key[k]))
			return ilp_reader_fail(rd, "expected '%s'", key[k]);
		ilp_reader_split(rd, &t);
		if (k == 2 && (t.n < 2 || ilp_decimal(t.s[1], t.len[1], ncol)))
			return ilp_reader_fail(rd, "no number of columns");
	}
	if (t.n != 3 || !ilp_token_is(&t, 1, "INTEGER"))
		return ilp_reader_fail(rd, "not a MIP status of glpsol");
	if (ilp_token_is(&t, 2, "OPTIMAL") ||
	    ilp_token_is(&t, 2, "NON-OPTIMAL"))
		*v = ILP_FEASIBLE;
	else if (ilp_token_is(&t, 2, "EMPTY"))
		*v = ILP_INFEASIBLE;
	else if (ilp_token_is(&t, 2, "UNDEFINED"))
		*v = ILP_UNKNOWN;
	else
		return ilp_reader_fail(rd, "not a MIP status of glpsol");
	return 0;
}

/* The column table's N lines: "j xJ * value lower upper". */
static int columns(struct ilp_reader *rd, uint64_t ncol)
{
	struct ilp_tokens t;
	uint64_t j, no;
	int found = 0, r;

	while (!found && ilp_reader_next(rd))
		found = ilp_line_starts(rd, "   No. Column name ");
	if (!found || !ilp_reader_next(rd) || !ilp_line_starts(rd, "------ "))
		return ilp_reader_fail(rd, "no column table");
	for (j = 1; j <= ncol; j++) {
		if (!ilp_reader_next(rd))
			return ilp_reader_fail(rd, "the column table ends early");
		ilp_reader_split(rd, &t);
		if (t.n < 4 || ilp_decimal(t.s[0], t.len[0], &no) || no != j ||
		    !ilp_token_is(&t, 2, "*"))
			return ilp_reader_fail(rd, "not integer column %llu",
					       (unsigned long long)j);
		r = ilp_reader_take(rd, &t, 1, 3);
		if (r)
			return r;
	}
	if (!ilp_reader_next(rd) || rd->len)
		return ilp_reader_fail(rd,
				       "more columns than the header's %llu",
				       (unsigned long long)ncol);
	return 0;
}

int ilp_parse_glpsol(const char *text, uint32_t n, uint8_t *x,
		     enum ilp_verdict *v, struct fors_error *err)
{
	struct ilp_reader rd;
	uint64_t ncol = 0;
	int r = ilp_reader_begin(&rd, "glpsol", text, n, x, err);

	if (!r)
		r = header(&rd, &ncol, v);
	if (!r && *v == ILP_FEASIBLE)
		r = columns(&rd, ncol);
	while (!r && ilp_reader_next(&rd))
		;
	if (!r && !ilp_line_is(&rd, "End of output"))
		r = ilp_reader_fail(&rd, "truncated: no 'End of output'");
	return r ? r : ilp_reader_done(&rd, *v, v);
}

static void args(struct ilp_cmdline *c, const char *prog)
{
	const char *a[] = { prog, "--lp", c->model, "--tmlim", c->limit,
			    "-o", c->sol, NULL };

	memcpy(c->argv, a, sizeof(a));
}

static int parse(const char *text, const char *out, uint32_t n, uint8_t *x,
		 enum ilp_verdict *v, struct fors_error *err)
{
	(void)out;
	return ilp_parse_glpsol(text, n, x, v, err);
}

/* --tmlim takes whole seconds. */
const struct ilp_dialect ilp_dialect_glpsol = {
	.sv = { "glpsol", "glpsol" },
	.whole_seconds = 1,
	.need_sol = 1,
	.args = args,
	.parse = parse,
};
