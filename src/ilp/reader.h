/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_READER_H
#define FORS_ILP_READER_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "ilp/solver.h"

/*
 * The parser kit of the solver dialects (cbc.c, glpsol.c, highs.c,
 * gurobi.c): what a solver wrote is untrusted text, read line by line and
 * token by token, numbers and values strictly, every variable checked
 * against the model. A refusal names the solver and the line, clears x[]
 * and is FORS_EFORMAT.
 */

/* Most tokens a line is split into; ilp_tokens says if there were more. */
#define ILP_NTOK 8

/* A solver's file being read, at its current line. */
struct ilp_reader {
	const char *who;	/* the solver, for messages */
	const char *p;		/* the next line */
	const char *line;
	size_t len;		/* without its newline */
	unsigned long no;	/* its number, 0 before the first */
	uint32_t n;
	uint8_t *x;		/* until done: bit 1 listed, bit 0 value */
	struct fors_error *err;
};

/* The current line's tokens, split at blanks. */
struct ilp_tokens {
	int n;			/* ILP_NTOK + 1: more than ILP_NTOK */
	const char *s[ILP_NTOK];
	size_t len[ILP_NTOK];
};

/* Refuse: "WHO solution, line N: MSG" in err, x[] cleared; FORS_EFORMAT. */
int ilp_reader_fail(struct ilp_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Start on text for x[n], cleared: 0, or refused if none, empty or cut. */
int ilp_reader_begin(struct ilp_reader *rd, const char *who,
		     const char *text, uint32_t n, uint8_t *x,
		     struct fors_error *err);

/* Move to the next line: 1, or 0 at the end of the text. */
int ilp_reader_next(struct ilp_reader *rd);

/* The current line's first ILP_NTOK tokens into t. */
void ilp_reader_split(const struct ilp_reader *rd, struct ilp_tokens *t);

/* 1 when token i is exactly w. */
int ilp_token_is(const struct ilp_tokens *t, int i, const char *w);

/* 1 when the current line is exactly w. */
int ilp_line_is(const struct ilp_reader *rd, const char *w);

/* 1 when the current line starts with w. */
int ilp_line_starts(const struct ilp_reader *rd, const char *w);

/* 1 when the current line holds w anywhere. */
int ilp_line_has(const struct ilp_reader *rd, const char *w);

/* s[len] as up to 10 decimal digits, no sign or leading zero: 0 or -1. */
int ilp_decimal(const char *s, size_t len, uint64_t *v);

/* s[len] as 0 or 1 within 1e-6 into *b: 0, or -1 for anything else, NaN too. */
int ilp_binary(const char *s, size_t len, uint8_t *b);

/* Token val as the value of variable name (twice if equal): 0, or refused. */
int ilp_reader_take(struct ilp_reader *rd, const struct ilp_tokens *t,
		    int name, int val);

/* The verdict v into *out, x[] left 0 or 1 (all 0 unless feasible): 0. */
int ilp_reader_done(struct ilp_reader *rd, enum ilp_verdict v,
		    enum ilp_verdict *out);

#endif
