// SPDX-License-Identifier: MIT
/*
 * A map's bound for the exchange lowered by moving few pairs
 * (doc/narrow-lmc.md, "Lowered"). The base map's fallbacks serve the
 * linear shift, and after three cuts on each of three leaves they leave
 * four cables up of the LHCb fabric's full leaf with 19 pairs where its
 * 306 destinations fit 18 on each of its 17 live cables: 380 phases where
 * T*_L is 360. Capping every fallback (basemap.c, cap_up) reaches 360 and
 * costs the shift 2%; moving only pairs off the cables above the cap,
 * each to where the shift loses least, reaches it with the shift as it
 * was. The shift is kept phase by phase (each cable's load in each phase
 * and how many cables carry each load), so a move costs only the phases
 * its transfers are in.
 */
#include <stdlib.h>
#include <string.h>

#include "routing/basemap.h"
#include "routing/lower.h"

/* Most phases times cables whose loads are kept: 16 MB. */
#define LOWER_CELLS (16u << 20)

struct lowerer {
	const struct fors_fabric *fb;
	uint16_t *map;
	uint32_t n;		/* hosts, in slot order */
	uint32_t *pos;		/* [nhosts]: each host's position */
	uint32_t *leaf;		/* [nhosts]: each host's leaf */
	uint32_t *at;		/* [n]: hosts by leaf, leaf l's from first[l] */
	uint32_t *first;	/* [m1 + 1] */
	uint32_t *w;		/* [m1 * nhosts]: the exchange's transfers of
				   leaf l's pair to host h, its joined hosts
				   where h is joined */
	size_t cables;		/* 2 * m1 * q: up, then down */
	uint32_t *cnt;		/* [cables]: the exchange's transfers */
	uint8_t *load;		/* [n * cables]: the shift's, per phase */
	uint16_t *lv;		/* [n * levels]: cables at each load, per phase */
	uint8_t *top;		/* [n]: each phase's most */
	uint32_t levels;
	uint64_t time;		/* the shift's: the sum of tops, 1 at least */
};

static size_t up(const struct lowerer *L, uint32_t l, uint32_t pl)
{
	return (size_t)l * L->fb->q + pl;
}

static size_t down(const struct lowerer *L, uint32_t l, uint32_t pl)
{
	return ((size_t)L->fb->m1 + l) * L->fb->q + pl;
}

/* Cable c's load in phase p one up (d 1) or down (d -1). */
static void bump(struct lowerer *L, uint32_t p, size_t c, int d)
{
	uint8_t *ld = &L->load[(size_t)p * L->cables + c];
	uint16_t *lv = L->lv + (size_t)p * L->levels;
	uint8_t t = L->top[p];

	lv[*ld]--;
	*ld = (uint8_t)(*ld + d);
	lv[*ld]++;
	if (*ld > t)
		L->top[p] = *ld;
	else if (d < 0 && *ld + 1 == t && !lv[t])
		L->top[p] = (uint8_t)(t - 1);
	L->time += (L->top[p] ? L->top[p] : 1);
	L->time -= (t ? t : 1);
}

/* The shift's transfers from leaf a to host h on plane pl, d as bump(). */
static void route(struct lowerer *L, uint32_t a, uint32_t h, uint32_t pl,
		  int d)
{
	uint32_t i, p;

	for (i = L->first[a]; i < L->first[a + 1]; i++) {
		p = (L->pos[h] + L->n - L->pos[L->at[i]]) % L->n;
		bump(L, p, up(L, a, pl), d);
		bump(L, p, down(L, L->leaf[h], pl), d);
	}
}

/* Leaf a's pair to host h onto plane to: the shift, the counts, the map. */
static void move(struct lowerer *L, uint32_t a, uint32_t h, uint32_t to)
{
	uint16_t *m = &L->map[(size_t)a * L->fb->nhosts + h];
	uint32_t w = L->w[(size_t)a * L->fb->nhosts + h];

	route(L, a, h, *m, -1);
	route(L, a, h, to, 1);
	L->cnt[up(L, a, *m)] -= w;
	L->cnt[down(L, L->leaf[h], *m)] -= w;
	L->cnt[up(L, a, to)] += w;
	L->cnt[down(L, L->leaf[h], to)] += w;
	*m = (uint16_t)to;
}

/* Hosts in slot order, their leaves and the pairs' weights (joins). */
static void order(struct lowerer *L, const uint8_t *joins)
{
	const struct fors_fabric *fb = L->fb;
	uint32_t s, h, l, g;

	for (s = 0; s < fb->m0 * fb->m1; s++)
		if (fb->host_at[s] >= 0) {
			h = (uint32_t)fb->host_at[s];
			L->at[L->n] = h;
			L->pos[h] = L->n++;
			L->leaf[h] = s / fb->m0;
			L->first[s / fb->m0 + 1]++;
		}
	for (l = 0; l < fb->m1; l++)
		L->first[l + 1] += L->first[l];
	for (l = 0; l < fb->m1; l++)
		for (h = 0; h < fb->nhosts; h++)
			for (g = L->first[l]; (!joins || joins[h]) &&
			     g < L->first[l + 1]; g++)
				L->w[(size_t)l * fb->nhosts + h] +=
					!joins || joins[L->at[g]];
}

/* The loads of map's shift and the exchange's counts; 0 or FORS_ENOMEM. */
static int setup(struct lowerer *L, const uint8_t *joins)
{
	const struct fors_fabric *fb = L->fb;
	size_t nh = fb->nhosts, i;
	uint32_t a, h;
	uint16_t pl;

	L->cables = 2 * (size_t)fb->m1 * fb->q;
	L->levels = fb->m0 + 2;
	L->pos = calloc(3 * nh + fb->m1 + 2, sizeof(uint32_t));
	L->w = calloc((size_t)fb->m1 * nh + 1, sizeof(uint32_t));
	L->cnt = calloc(L->cables + 1, sizeof(uint32_t));
	L->load = calloc(nh * L->cables + 1, 1);
	L->lv = calloc(nh * L->levels + 1, sizeof(uint16_t));
	L->top = calloc(nh + 1, 1);
	if (!L->pos || !L->w || !L->cnt || !L->load || !L->lv || !L->top)
		return FORS_ENOMEM;
	L->leaf = L->pos + nh;
	L->at = L->leaf + nh;
	L->first = L->at + nh;
	order(L, joins);
	L->time = L->n ? L->n - 1 : 0;
	for (i = 0; i < nh; i++)
		L->lv[i * L->levels] = (uint16_t)L->cables;
	for (a = 0; a < fb->m1; a++)
		for (h = 0; h < nh; h++) {
			pl = L->map[(size_t)a * nh + h];
			if (pl == FORS_BASEMAP_NONE || L->leaf[h] == a)
				continue;
			route(L, a, h, pl, 1);
			L->cnt[up(L, a, pl)] += L->w[(size_t)a * nh + h];
			L->cnt[down(L, L->leaf[h], pl)] += L->w[(size_t)a * nh + h];
		}
	return 0;
}

/* What the shift's time would become with leaf a's pair to h on to. */
static uint64_t time_with(struct lowerer *L, uint32_t a, uint32_t h,
			  uint32_t to)
{
	uint32_t from = L->map[(size_t)a * L->fb->nhosts + h];
	uint64_t t;

	move(L, a, h, to);
	t = L->time;
	move(L, a, h, from);
	return t;
}

/* A move found: leaf a's pair to host h onto plane to, and the time after. */
struct lowering {
	uint32_t a, h, to;
	uint64_t time;
};

/* The best plane for leaf a's pair to h, off cable c, into *b if better. */
static void weigh(struct lowerer *L, uint32_t a, uint32_t h, uint32_t cap,
		  uint64_t most, struct lowering *b)
{
	const struct fors_fabric *fb = L->fb;
	uint32_t w = L->w[(size_t)a * fb->nhosts + h], t;
	uint64_t time;

	for (t = 0; w && t < fb->q; t++) {
		if (t == L->map[(size_t)a * fb->nhosts + h] ||
		    !fors_plane_live(fb, a, t) ||
		    !fors_plane_live(fb, L->leaf[h], t) ||
		    L->cnt[up(L, a, t)] + w > cap ||
		    L->cnt[down(L, L->leaf[h], t)] + w > cap)
			continue;
		time = time_with(L, a, h, t);
		if (time <= most && time < b->time)
			*b = (struct lowering){ a, h, t, time };
	}
}

/* The best move off a cable above cap into *b; b->time UINT64_MAX: none. */
static void best(struct lowerer *L, uint32_t cap, uint64_t most,
		 struct lowering *b)
{
	const struct fors_fabric *fb = L->fb;
	size_t c, half = L->cables / 2;
	uint32_t a, h, l, pl;

	b->time = UINT64_MAX;
	for (c = 0; c < L->cables; c++) {
		if (L->cnt[c] <= cap)
			continue;
		l = (uint32_t)((c % half) / fb->q);
		pl = (uint32_t)(c % fb->q);
		for (a = 0; a < fb->m1; a++)
			for (h = 0; h < fb->nhosts; h++)
				if (L->leaf[h] != a &&
				    L->map[(size_t)a * fb->nhosts + h] == pl &&
				    (c < half ? a == l : L->leaf[h] == l))
					weigh(L, a, h, cap, most, b);
	}
}

static uint32_t most_count(const struct lowerer *L)
{
	uint32_t most = 0;
	size_t c;

	for (c = 0; c < L->cables; c++)
		most = L->cnt[c] > most ? L->cnt[c] : most;
	return most;
}

int fors_map_lower(const struct fors_fabric *fb, const uint8_t *joins,
		   uint32_t cap, uint64_t most_time, uint16_t *map)
{
	struct lowerer L = { .fb = fb, .map = map };
	struct lowering b;
	uint32_t k;
	int e = 0;

	if ((uint64_t)fb->nhosts * 2 * fb->m1 * fb->q > LOWER_CELLS ||
	    2 * (uint64_t)fb->m1 * fb->q > UINT16_MAX || fb->m0 > 250)
		return 0;
	e = setup(&L, joins);
	for (k = 0; !e && k < FORS_LOWER_MOVES && most_count(&L) > cap; k++) {
		best(&L, cap, most_time, &b);
		if (b.time == UINT64_MAX)
			break;
		move(&L, b.a, b.h, b.to);
	}
	free(L.pos);
	free(L.w);
	free(L.cnt);
	free(L.load);
	free(L.lv);
	free(L.top);
	return e;
}
