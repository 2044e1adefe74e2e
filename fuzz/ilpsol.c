// SPDX-License-Identifier: MIT
/*
 * Fuzzes the MILP solvers' solution readers (src/ilp/cbc.c, glpsol.c,
 * highs.c, gurobi.c): text an external program wrote. The first byte
 * picks the reader (its value mod 4: cbc, glpsol, highs, gurobi), the
 * second is the number of variables; the rest is the solution file or,
 * for gurobi, its log, then a NUL and the SOL file if there is one. A
 * verdict comes with every x[i] 0 or 1 (1 only in a solution), a refusal
 * with FORS_EFORMAT, a printable message and x all 0; nothing is written
 * beyond the variables.
 */
#include <string.h>

#include "fuzz.h"
#include "ilp/cbc.h"
#include "ilp/glpsol.h"
#include "ilp/gurobi.h"
#include "ilp/highs.h"

static int read_one(uint8_t which, const char *text, size_t len, uint32_t n,
		    uint8_t *x, enum ilp_verdict *v, struct fors_error *err)
{
	size_t log = strlen(text);

	switch (which % 4) {
	case 0:
		return ilp_parse_cbc(text, n, x, v, err);
	case 1:
		return ilp_parse_glpsol(text, n, x, v, err);
	case 2:
		return ilp_parse_highs(text, n, x, v, err);
	default:
		return ilp_parse_gurobi(log < len ? text + log + 1 : NULL, text,
					n, x, v, err);
	}
}

/* No byte of the input reaches a message: they end up in logs. */
static int printable(const char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fors_error err = { "" };
	enum ilp_verdict v = (enum ilp_verdict)3;
	uint32_t n, i;
	uint8_t *x;
	char *text;
	int r;

	if (size < 2)
		return 0;
	n = data[1];
	text = malloc(size - 1);
	x = malloc(n + 1);
	fuzz_require(text && x, FUZZ_NOMEM);
	memcpy(text, data + 2, size - 2);
	text[size - 2] = '\0';
	memset(x, 0xa5, n + 1);
	r = read_one(data[0], text, size - 2, n, x, &v, &err);
	fuzz_require(!r || r == FORS_EFORMAT, "neither a verdict nor a refusal");
	fuzz_require(r || v == ILP_FEASIBLE || v == ILP_INFEASIBLE ||
		     v == ILP_UNKNOWN, "no verdict");
	fuzz_require(!r || (err.msg[0] && printable(err.msg)),
		     "a refusal without a printable message");
	for (i = 0; i < n; i++)
		fuzz_require(!x[i] || (x[i] == 1 && !r && v == ILP_FEASIBLE),
			     "a variable neither 0 nor 1, or 1 without a solution");
	fuzz_require(x[n] == 0xa5, "a write beyond the variables");
	free(x);
	free(text);
	return 0;
}
