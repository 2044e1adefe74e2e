// SPDX-License-Identifier: MIT
/*
 * Gurobi's gurobi_cl (doc/ilp.md):
 *
 *   gurobi_cl TimeLimit=S ResultFile=SOL LogFile=LOG MODEL
 *
 * The verdict is in its log on standard output ("Optimal solution found
 * (tolerance ...)", "Model is infeasible [or unbounded]", "Time limit
 * reached"). SOL, written only when there is a solution, has "#" comments
 * and a "name value" line for every variable.
 */
#include <stdio.h>
#include <string.h>

#include "ilp/gurobi.h"
#include "ilp/reader.h"

enum { G_NONE, G_OPT, G_INF, G_STOP };

static int verdict_of(const struct ilp_reader *lg)
{
	static const char *const stop[] = {
		"Time limit reached", "Solution limit reached",
		"Node limit reached", "Iteration limit reached",
		"Work limit reached", "Memory limit reached",
		"Solve interrupted",
	};
	unsigned i;

	if (ilp_line_starts(lg, "Optimal solution found"))
		return G_OPT;
	/* Every variable is binary: the model cannot be unbounded. */
	if (ilp_line_starts(lg, "Model is infeasible"))
		return G_INF;
	for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++)
		if (ilp_line_starts(lg, stop[i]))
			return G_STOP;
	return G_NONE;
}

/* The log's one verdict, G_NONE, or -1 for two different ones. */
static int log_verdict(const char *out)
{
	struct ilp_reader lg = { .p = out };
	int c = G_NONE, k;

	while (ilp_reader_next(&lg)) {
		k = verdict_of(&lg);
		if (k && c && k != c)
			return -1;
		if (k)
			c = k;
	}
	return c;
}

int ilp_parse_gurobi(const char *text, const char *out, uint32_t n,
		     uint8_t *x, enum ilp_verdict *v, struct fors_error *err)
{
	struct ilp_reader rd = { .who = "gurobi", .n = n, .x = x, .err = err };
	int c = out ? log_verdict(out) : G_NONE, r;
	struct ilp_tokens t;
	uint32_t i;

	memset(x, 0, n);
	if (c <= G_NONE)
		return ilp_reader_fail(&rd, c ? "its log gives two verdicts" :
				       "its log gives no verdict");
	if (c == G_INF || (c == G_STOP && !text))
		return ilp_reader_done(&rd, c == G_INF ? ILP_INFEASIBLE :
				       ILP_UNKNOWN, v);
	r = ilp_reader_begin(&rd, "gurobi", text, n, x, err);
	while (!r && ilp_reader_next(&rd)) {
		ilp_reader_split(&rd, &t);
		if (!t.n || t.s[0][0] == '#')
			continue;
		r = t.n == 2 ? ilp_reader_take(&rd, &t, 0, 1) :
			       ilp_reader_fail(&rd, "not 'name value'");
	}
	rd.no = 0;
	for (i = 0; !r && i < n; i++)
		if (!(x[i] & 2))
			r = ilp_reader_fail(&rd, "x%u missing, and SOL lists every variable",
					    i);
	return r ? r : ilp_reader_done(&rd, ILP_FEASIBLE, v);
}

/* Its log file too goes to the private directory, not the caller's. */
static void args(struct ilp_cmdline *c, const char *prog)
{
	const char *a[] = { prog, c->word[0], c->word[1], c->word[2],
			    c->model, NULL };

	snprintf(c->word[0], sizeof(c->word[0]), "TimeLimit=%s", c->limit);
	snprintf(c->word[1], sizeof(c->word[1]), "ResultFile=%s", c->sol);
	snprintf(c->word[2], sizeof(c->word[2]), "LogFile=%s", c->log);
	memcpy(c->argv, a, sizeof(a));
}

/* No result file without a solution: the log has the verdict. */
const struct ilp_dialect ilp_dialect_gurobi = {
	.sv = { "gurobi", "gurobi_cl" },
	.args = args,
	.parse = ilp_parse_gurobi,
};
