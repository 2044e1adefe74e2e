// SPDX-License-Identifier: MIT
/* The channel dependency graph and its cycles (credit loops). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/deps.h"

int fors_deps_init(struct fors_deps *g, const struct fors_topology *t)
{
	uint32_t i, k, n = 0;

	*g = (struct fors_deps){ .t = t, .width = 1 };
	g->pbase = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	if (!g->pbase)
		return FORS_ENOMEM;
	for (i = 0; i < t->nnodes; i++) {
		g->pbase[i] = n;
		n += t->nodes[i].nports + 1;
		if (t->nodes[i].nports + 1 > g->width)
			g->width = t->nodes[i].nports + 1;
	}
	g->pbase[t->nnodes] = n;
	g->nchan = n;
	g->cnode = malloc(sizeof(uint32_t) * (n + 1));
	g->dep = calloc((size_t)n * g->width + 1, 1);
	if (!g->cnode || !g->dep)
		return FORS_ENOMEM;
	for (i = 0; i < t->nnodes; i++)
		for (k = 0; k <= t->nodes[i].nports; k++)
			g->cnode[g->pbase[i] + k] = i;
	return 0;
}

void fors_deps_free(struct fors_deps *g)
{
	free(g->pbase);
	free(g->cnode);
	free(g->dep);
	g->pbase = g->cnode = NULL;
	g->dep = NULL;
}

void fors_deps_remove(struct fors_deps *g, uint32_t chan, uint32_t k)
{
	uint8_t *b = &g->dep[(size_t)chan * g->width + k];

	if (*b) {
		*b = 0;
		g->n--;
	}
}

uint32_t fors_deps_head(const struct fors_deps *g, uint32_t chan)
{
	const struct fors_node *n = &g->t->nodes[g->cnode[chan]];

	return n->ports[chan - g->pbase[g->cnode[chan]]].peer;
}

/* The channel after chan through port k of its head, or UINT32_MAX. */
static uint32_t dep_next(const struct fors_deps *g, uint32_t chan, uint32_t k)
{
	if (!g->dep[(size_t)chan * g->width + k])
		return UINT32_MAX;
	return g->pbase[fors_deps_head(g, chan)] + k;
}

static void print_cycle(const struct fors_deps *g, const uint32_t *stack,
			uint32_t from, uint32_t to, char *b, size_t len)
{
	size_t n = 0;
	uint32_t i;

	for (i = from; i < to && n < len; i++) {
		uint32_t x = g->cnode[stack[i]];

		n += (size_t)snprintf(b + n, len - n, "\"%s\"[%u] -> ",
				      g->t->nodes[x].desc, stack[i] - g->pbase[x]);
	}
	if (n < len)
		snprintf(b + n, len - n, "\"%s\"",
			 g->t->nodes[g->cnode[stack[from]]].desc);
}

/*
 * Depth-first from channel s, the stack's arrays given: 1 with the cycle
 * at stack[*from .. *to), 0 when none is reachable.
 */
static int search(const struct fors_deps *g, uint32_t s, uint32_t *stack,
		  uint32_t *next, uint32_t *pos, uint8_t *colour,
		  uint32_t *from, uint32_t *to)
{
	uint32_t sp = 0;

	stack[sp] = s;
	next[sp] = 1;
	pos[s] = sp++;
	colour[s] = 1;
	while (sp) {
		uint32_t ch = stack[sp - 1], nx = UINT32_MAX;

		while (next[sp - 1] < g->width && nx == UINT32_MAX)
			nx = dep_next(g, ch, next[sp - 1]++);
		if (nx == UINT32_MAX) {
			colour[ch] = 2;
			sp--;
		} else if (colour[nx] == 1) {
			*from = pos[nx];
			*to = sp;
			return 1;
		} else if (!colour[nx]) {
			colour[nx] = 1;
			stack[sp] = nx;
			next[sp] = 1;
			pos[nx] = sp++;
		}
	}
	return 0;
}

int fors_deps_find(const struct fors_deps *g, const int32_t *table,
		   uint32_t *cyc, uint32_t *n)
{
	uint32_t *stack = malloc(sizeof(uint32_t) * (g->nchan + 1));
	uint32_t *next = malloc(sizeof(uint32_t) * (g->nchan + 1));
	uint32_t *pos = malloc(sizeof(uint32_t) * (g->nchan + 1));
	uint8_t *colour = calloc(g->nchan + 1, 1);
	uint32_t s, from = 0, to = 0;
	int found = 0;

	if (!stack || !next || !pos || !colour)
		found = FORS_ENOMEM;
	for (s = 0; !found && s < g->nchan; s++)
		if (!colour[s] && table[g->cnode[s]] >= 0)
			found = search(g, s, stack, next, pos, colour, &from,
				       &to);
	*n = found > 0 ? to - from : 0;
	if (found > 0)
		memcpy(cyc, stack + from, sizeof(uint32_t) * *n);
	free(stack);
	free(next);
	free(pos);
	free(colour);
	return found;
}

int fors_deps_cycle(const struct fors_deps *g, const int32_t *table,
		    char *buf, size_t len)
{
	uint32_t *cyc = malloc(sizeof(uint32_t) * (g->nchan + 1)), n = 0;
	int found = cyc ? fors_deps_find(g, table, cyc, &n) : FORS_ENOMEM;

	if (found > 0)
		print_cycle(g, cyc, 0, n, buf, len);
	free(cyc);
	return found;
}
