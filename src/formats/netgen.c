// SPDX-License-Identifier: MIT
/*
 * Dual-port hosts: slot d (d < dual) of an even leaf l holds a host whose
 * second port takes slot d of leaf l + 1: the mFtree layout of one node on
 * two leaves. Aggregation Nodes sit behind a switch's last port, as on
 * NVIDIA's Quantum switches (port 65 of a 64-port switch).
 */
#include <inttypes.h>

#include "formats/netgen.h"

/* The system image GUID of switch i (leaves, then spines) and its node. */
#define SYSGUID(i) (UINT64_C(0x0002c90300a00000) + (i))

static int cut(const struct fors_netgen *g, uint32_t l, uint32_t s,
	       uint32_t r)
{
	return (g->dead && g->dead[s]) ||
	       (g->failed && g->failed[((size_t)l * g->nspines + s) *
					g->cables + r]);
}

static int width(uint32_t n)
{
	int w = 1;

	while (n >= 10) {
		n /= 10;
		w++;
	}
	return w < 2 ? 2 : w;
}

struct names {
	int wl, ws, wh;
};

static int absent(const struct fors_netgen *g, uint32_t l, uint32_t a)
{
	return g->absent && g->absent[l * g->m0 + a];
}

static int dual(const struct fors_netgen *g, uint32_t l, uint32_t a)
{
	return a < g->dual && l % 2 == 0 && l + 1 < g->m1;
}

/* Which host sits in slot a of leaf l, and on which of its ports. */
static int slot_owner(const struct fors_netgen *g, uint32_t l, uint32_t a,
		      uint32_t *host, uint32_t *port)
{
	if (l % 2 == 1 && dual(g, l - 1, a)) {
		*host = (l - 1) * g->m0 + a;
		*port = 2;
		return !absent(g, l - 1, a) && !absent(g, l, a);
	}
	*host = l * g->m0 + a;
	*port = 1;
	return !absent(g, l, a);
}

static void leaves(FILE *out, const struct fors_netgen *g,
		   const struct names *n)
{
	uint32_t l, a, s, r, h, pt;

	for (l = 0; l < g->m1; l++) {
		uint32_t np = g->m0 + g->nspines * g->cables;

		if (g->aggregation)
			fprintf(out, "sysimgguid=0x%" PRIx64 "\n", SYSGUID(l));
		fprintf(out, "Switch %u \"L%0*u\"\n", np + !!g->aggregation,
			n->wl, l);
		for (a = 0; a < g->m0; a++)
			if (slot_owner(g, l, a, &h, &pt))
				fprintf(out, "[%u] \"H%0*u\"[%u]\n", a + 1,
					n->wh, h, pt);
		for (s = 0; s < g->nspines; s++)
			for (r = 0; r < g->cables; r++)
				if (!cut(g, l, s, r))
					fprintf(out, "[%u] \"S%0*u\"[%u]\n",
						g->m0 + 1 + s * g->cables + r,
						n->ws, s, 1 + l * g->cables + r);
		if (g->aggregation)
			fprintf(out, "[%u] \"A-L%0*u\"[1]\n", np + 1, n->wl, l);
		fputc('\n', out);
	}
}

static void spines(FILE *out, const struct fors_netgen *g,
		   const struct names *n)
{
	uint32_t l, s, r;

	for (s = 0; s < g->nspines; s++) {
		if (g->dead && g->dead[s])
			continue;
		if (g->aggregation)
			fprintf(out, "sysimgguid=0x%" PRIx64 "\n",
				SYSGUID(g->m1 + s));
		uint32_t sh = s == 0 ? g->spine_hosts : 0, v;

		fprintf(out, "Switch %u \"S%0*u\"\n",
			g->m1 * g->cables + sh + !!g->aggregation, n->ws, s);
		for (l = 0; l < g->m1; l++)
			for (r = 0; r < g->cables; r++)
				if (!cut(g, l, s, r))
					fprintf(out, "[%u] \"L%0*u\"[%u]\n",
						1 + l * g->cables + r, n->wl,
						l, g->m0 + 1 + s * g->cables + r);
		for (v = 0; v < sh; v++)
			fprintf(out, "[%u] \"V%02u\"[1]\n",
				g->m1 * g->cables + 1 + v, v);
		if (g->aggregation)
			fprintf(out, "[%u] \"A-S%0*u\"[1]\n",
				g->m1 * g->cables + sh + 1, n->ws, s);
		fputc('\n', out);
	}
}

static void hosts(FILE *out, const struct fors_netgen *g,
		  const struct names *n)
{
	uint32_t l, a, h, pt;

	for (l = 0; l < g->m1; l++) {
		for (a = 0; a < g->m0; a++) {
			int two = dual(g, l, a) && !absent(g, l + 1, a);

			if (!slot_owner(g, l, a, &h, &pt) || pt != 1)
				continue;
			fprintf(out, "Hca %u \"H%0*u\"\n[1] \"L%0*u\"[%u]\n",
				two ? 2 : 1, n->wh, h, n->wl, l, a + 1);
			if (two)
				fprintf(out, "[2] \"L%0*u\"[%u]\n", n->wl, l + 1,
					a + 1);
			fputc('\n', out);
		}
	}
}

/* Every switch's Aggregation Node, with the switch's system image GUID. */
static void aggregation(FILE *out, const struct fors_netgen *g,
			const struct names *n)
{
	uint32_t i, sw = g->m1 + g->nspines;

	for (i = 0; g->aggregation && i < sw; i++) {
		int leaf = i < g->m1;
		uint32_t x = leaf ? i : i - g->m1;

		if (!leaf && g->dead && g->dead[x])
			continue;
		fprintf(out, "sysimgguid=0x%" PRIx64 "\n", SYSGUID(i));
		fprintf(out, "Ca 1 \"A-%c%0*u\" # \"Mellanox Technologies Aggregation Node\"\n",
			leaf ? 'L' : 'S', leaf ? n->wl : n->ws, x);
		fprintf(out, "[1] \"%c%0*u\"[%u]\n\n", leaf ? 'L' : 'S',
			leaf ? n->wl : n->ws, x,
			leaf ? g->m0 + g->nspines * g->cables + 1 :
			g->m1 * g->cables + (x ? 0 : g->spine_hosts) + 1);
	}
}

/* The service hosts on spine 0. */
static void spine_hosts(FILE *out, const struct fors_netgen *g,
			const struct names *n)
{
	uint32_t v;

	for (v = 0; (!g->dead || !g->dead[0]) && v < g->spine_hosts; v++)
		fprintf(out, "Hca 1 \"V%02u\"\n[1] \"S%0*u\"[%u]\n\n", v, n->ws, 0,
			g->m1 * g->cables + 1 + v);
}

int fors_netgen_write(FILE *out, const struct fors_netgen *g)
{
	struct names n = { width(g->m1 - 1), width(g->nspines - 1),
			   width(g->m0 * g->m1 - 1) + 1 };

	fprintf(out, "# FT(2;%u,%u): %u spines, %u cable%s per leaf and spine\n\n",
		g->m0, g->m1, g->nspines, g->cables,
		g->cables == 1 ? "" : "s");
	leaves(out, g, &n);
	spines(out, g, &n);
	hosts(out, g, &n);
	spine_hosts(out, g, &n);
	aggregation(out, g, &n);
	return ferror(out) ? -1 : 0;
}
