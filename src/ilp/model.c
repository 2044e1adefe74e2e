// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilp/model.h"

void ilp_model_clear(struct ilp_model *md)
{
	free(md->edge);
	free(md->colour);
	free(md->lp);
	memset(md, 0, sizeof(*md));
}

static int usable(const struct ilp_phase *ph, uint32_t e, uint32_t c)
{
	uint32_t p = c % ph->q;

	return ph->live[(size_t)ph->src[e] * ph->q + p] &&
	       ph->live[(size_t)ph->dst[e] * ph->q + p];
}

static int variables(struct ilp_model *md, const struct ilp_phase *ph)
{
	size_t cap = (size_t)ph->n * ph->k * ph->q + 1;
	uint32_t e, c;

	md->edge = malloc(sizeof(uint32_t) * cap);
	md->colour = malloc(sizeof(uint32_t) * cap);
	if (!md->edge || !md->colour)
		return FORS_ENOMEM;
	for (e = 0; e < ph->n; e++)
		for (c = 0; c < ph->k * ph->q; c++)
			if (usable(ph, e, c)) {
				md->edge[md->nvars] = e;
				md->colour[md->nvars++] = c;
			}
	return 0;
}

/* Terms wrap every 10: LP readers limit the line length. */
static void term(FILE *out, uint32_t j, uint32_t *k)
{
	fprintf(out, "%s x%u%s", *k ? " +" : "", j, *k % 10 == 9 ? "\n" : "");
	(*k)++;
}

static void one_each(FILE *out, const struct ilp_model *md, uint32_t n)
{
	uint32_t e, j = 0;

	for (e = 0; e < n; e++) {
		uint32_t k = 0;

		fprintf(out, " t%u:", e);
		for (; j < md->nvars && md->edge[j] == e; j++)
			term(out, j, &k);
		if (!k)
			fputs(" 0 x0", out);
		fputs(" = 1\n", out);
	}
}

/* At most one transfer per (leaf, colour) on one side; side 0: sources. */
static void at_most_one(FILE *out, const struct ilp_model *md,
			const struct ilp_phase *ph, int side)
{
	uint32_t l, c, j;

	for (l = 0; l < ph->m1; l++)
		for (c = 0; c < ph->k * ph->q; c++) {
			uint32_t k = 0;

			for (j = 0; j < md->nvars; j++) {
				uint32_t e = md->edge[j];

				if (md->colour[j] == c &&
				    (side ? ph->dst[e] : ph->src[e]) == l)
					k++;
			}
			if (k < 2)
				continue;
			fprintf(out, " %c%u_%u:", side ? 'd' : 'u', l, c);
			for (k = 0, j = 0; j < md->nvars; j++) {
				uint32_t e = md->edge[j];

				if (md->colour[j] == c &&
				    (side ? ph->dst[e] : ph->src[e]) == l)
					term(out, j, &k);
			}
			fputs(" <= 1\n", out);
		}
}

int ilp_model_build(struct ilp_model *md, const struct ilp_phase *ph)
{
	size_t len;
	FILE *out;
	uint32_t j;

	memset(md, 0, sizeof(*md));
	if (variables(md, ph) || !(out = open_memstream(&md->lp, &len))) {
		ilp_model_clear(md);
		return FORS_ENOMEM;
	}
	/* Feasibility only, as in the paper: a zero objective. */
	fprintf(out, "\\ fors phase %016llx\nMinimize\n obj: 0 x0\nSubject To\n",
		(unsigned long long)ph->hash);
	one_each(out, md, ph->n);
	at_most_one(out, md, ph, 0);
	at_most_one(out, md, ph, 1);
	fputs("Binary\n", out);
	for (j = 0; j < md->nvars; j++)
		fprintf(out, " x%u%s", j, j % 10 == 9 ? "\n" : "");
	fputs("\nEnd\n", out);
	if (fclose(out)) {
		ilp_model_clear(md);
		return FORS_ENOMEM;
	}
	return 0;
}

int ilp_colouring_check(const struct ilp_phase *ph, const uint32_t *colour,
			struct fors_error *err)
{
	size_t cells = (size_t)ph->m1 * ph->k * ph->q;
	uint8_t *up = calloc(cells + 1, 1), *down = calloc(cells + 1, 1);
	uint32_t e;
	int r = 0;

	if (!up || !down) {
		free(up);
		free(down);
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	for (e = 0; !r && e < ph->n; e++) {
		uint32_t c = colour[e];
		size_t u = (size_t)ph->src[e] * ph->k * ph->q + c;
		size_t d = (size_t)ph->dst[e] * ph->k * ph->q + c;

		if (c >= ph->k * ph->q || !usable(ph, e, c)) {
			fors_error_set(err, "transfer %u (leaf %u to %u) is on a plane not alive at both leaves",
				       e, ph->src[e], ph->dst[e]);
			r = FORS_EVERIFY;
		} else if (up[u]++ || down[d]++) {
			fors_error_set(err, "transfer %u (leaf %u to %u) shares plane %u of sub-phase %u with another",
				       e, ph->src[e], ph->dst[e], c % ph->q,
				       c / ph->q);
			r = FORS_EVERIFY;
		}
	}
	free(up);
	free(down);
	return r;
}

int ilp_model_decode(const struct ilp_model *md, const struct ilp_phase *ph,
		     const uint8_t *x, uint32_t *colour,
		     struct fors_error *err)
{
	uint32_t e, j;

	for (e = 0; e < ph->n; e++)
		colour[e] = UINT32_MAX;
	for (j = 0; j < md->nvars; j++) {
		if (!x[j])
			continue;
		e = md->edge[j];
		if (colour[e] != UINT32_MAX) {
			fors_error_set(err, "the solution gives transfer %u two planes", e);
			return FORS_EVERIFY;
		}
		colour[e] = md->colour[j];
	}
	for (e = 0; e < ph->n; e++)
		if (colour[e] == UINT32_MAX) {
			fors_error_set(err, "the solution leaves transfer %u without a plane", e);
			return FORS_EVERIFY;
		}
	return ilp_colouring_check(ph, colour, err);
}
