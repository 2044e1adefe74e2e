// SPDX-License-Identifier: MIT
/*
 * The shift over the present hosts in order, with its planes. Host a (by
 * leaf, then slot) sends to host (a + p) mod n in phase p = 1 .. n - 1:
 * every host sends and receives once a phase, so n - 1 phases are the
 * bound. The send of a leaf's x-th host goes on plane (p + x) mod q: a
 * leaf's at most q sends of a phase are to consecutive hosts, so they
 * leave on different cables. Down, a leaf's hosts receive from a run of
 * consecutive senders, a part per source leaf: the first part a leaf's
 * last hosts, the last part a leaf's first hosts, whole leaves between.
 * The last part keeps its planes (p, p + 1, ...); the first moves by
 * q - h (h its leaf's hosts) to end at p + q - 1, which its leaf's other
 * sends of the phase, on planes p .. p + h - 1 - a for its a in the part,
 * leave free; the whole leaves follow the last part. The parts then take
 * disjoint planes whenever the receiving leaf has at most q hosts. The
 * x-th host of A sends to b on plane (b - first of A) mod n, mod q, moved:
 * with m distinct moves, m maps hold every transfer's plane, one map an
 * LID offset.
 */
#include <stdlib.h>

#include "schedule/planes.h"
#include "schedule/shift.h"

struct shifter {
	const struct fors_shift_params *sp;
	uint32_t n;		/* present hosts */
	uint32_t *sid;		/* [n]: each one's slot */
	uint32_t *leaf;		/* [n]: its leaf */
	uint32_t *idx;		/* [n]: its index on its leaf */
	uint32_t *first;	/* [m1]: the leaf's first position */
	uint32_t *size;		/* [m1]: its present hosts */
	uint32_t *move;		/* [n]: per receiver, the phase's shift */
	uint64_t moves;		/* every move made, as bits */
};

/* The present hosts in order; 0 when some leaf has more than q. */
static int lay_out(struct shifter *d)
{
	const struct fors_shift_params *sp = d->sp;
	uint32_t l, x, n = 0;

	for (l = 0; l < sp->m1; l++) {
		d->first[l] = n;
		for (x = 0; x < sp->m0; x++) {
			if (sp->present && !sp->present[l * sp->m0 + x])
				continue;
			d->sid[n] = l * sp->m0 + x;
			d->leaf[n] = l;
			d->idx[n] = n - d->first[l];
			n++;
		}
		d->size[l] = n - d->first[l];
		if (d->size[l] > sp->q)
			return 0;
	}
	d->n = n;
	return 1;
}

/*
 * The shifts of leaf b's receivers in phase p, into d->move: its run of
 * senders split by leaf, the parts laid around the planes as the head
 * comment says.
 */
static void parts(struct shifter *d, uint32_t b, uint32_t p)
{
	uint32_t n = d->n, s = d->first[b], h = d->size[b];
	uint32_t j, end = h, at, len, last;

	last = d->leaf[(s + h - 1 + n - p) % n];
	while (end > 0 && d->leaf[(s + end - 1 + n - p) % n] == last)
		d->move[s + --end] = 0;
	at = h - end;		/* the last part's length */
	while (end > 0) {
		uint32_t a = (s + end - 1 + n - p) % n, l = d->leaf[a];

		for (len = 0; end > 0 &&
		     d->leaf[(s + end - 1 + n - p) % n] == l; len++)
			end--;
		for (j = 0; j < len; j++)
			d->move[s + end + j] = end ? at :
					       d->sp->q - d->size[l];
		at += len;
	}
}

/* Phase p's transfers appended at k, its moves into d->moves. */
static void phase(struct shifter *d, uint32_t p, struct fors_xfer *xf,
		  size_t *k)
{
	const struct fors_shift_params *sp = d->sp;
	uint32_t a, b, l;
	int32_t pl;

	for (l = 0; l < sp->m1; l++)
		if (d->size[l])
			parts(d, l, p);
	for (a = 0; a < d->n; a++) {
		b = (a + p) % d->n;
		pl = -1;
		if (d->leaf[a] != d->leaf[b]) {
			pl = (int32_t)((p + d->idx[a] + d->move[b]) % sp->q);
			d->moves |= (uint64_t)1 << d->move[b];
		}
		xf[(*k)++] = fors_xfer_make(d->sid[a], d->sid[b], pl,
					    FORS_NO_DLID);
	}
}

/* The maps of the moves made (fors_shift_maps). 0, or FORS_ENOMEM. */
static int maps_of(const struct shifter *d, struct fors_shift_maps *m)
{
	const struct fors_shift_params *sp = d->sp;
	size_t all = (size_t)sp->m0 * sp->m1, i;
	uint32_t mv[64], k = 0, l, b, j;

	for (j = 0; j < 64; j++)
		if (d->moves >> j & 1)
			mv[k++] = j;
	m->k = k;
	m->plane = malloc(sizeof(int16_t) * (sp->m1 * all * k + 1));
	if (!m->plane)
		return FORS_ENOMEM;
	for (i = 0; i < sp->m1 * all * k; i++)
		m->plane[i] = FORS_NO_PLANE;
	for (l = 0; l < sp->m1; l++)
		for (b = 0; b < d->n; b++)
			for (j = 0; d->leaf[b] != l && j < k; j++)
				m->plane[((size_t)l * all + d->sid[b]) * k + j] =
					(int16_t)(((b + d->n - d->first[l]) %
						   d->n + mv[j]) % sp->q);
	return 0;
}

/* The schedule of the n - 1 phases, or NULL where the moves are too many. */
static int build(struct shifter *d, struct fors_schedule **out,
		 struct fors_shift_maps *maps)
{
	const struct fors_shift_params *sp = d->sp;
	struct fors_schedule *s = calloc(1, sizeof(*s));
	size_t k = 0;
	uint32_t p;
	int e = 0;

	if (!s)
		return FORS_ENOMEM;
	*s = (struct fors_schedule){ .m0 = sp->m0, .m1 = sp->m1, .q = sp->q,
				     .f = sp->f, .m = sp->f, .lmc = -1,
				     .nphases = d->n - 1 };
	s->start = calloc(d->n, sizeof(size_t));
	s->xfers = malloc(sizeof(struct fors_xfer) * (size_t)d->n * (d->n - 1));
	if (!s->start || !s->xfers ||
	    fors_schedule_add_key(s, "pattern", "cyclic"))
		e = FORS_ENOMEM;
	for (p = 1; !e && p < d->n; p++) {
		phase(d, p, s->xfers, &k);
		s->start[p] = k;
	}
	s->nxfers = k;
	if (!e && (uint32_t)__builtin_popcountll(d->moves) <= sp->planes)
		e = maps_of(d, maps);
	if (!e && maps->plane)
		*out = s;
	else
		fors_schedule_free(s);
	return e;
}

void fors_shift_maps_free(struct fors_shift_maps *m)
{
	free(m->plane);
	m->plane = NULL;
	m->k = 0;
}

int fors_schedule_shift(const struct fors_shift_params *sp,
			struct fors_schedule **out,
			struct fors_shift_maps *maps, struct fors_error *err)
{
	size_t all = (size_t)sp->m0 * sp->m1;
	struct shifter d = { .sp = sp };
	int e = 0;

	*out = NULL;
	*maps = (struct fors_shift_maps){ 0, NULL };
	if (sp->q > 64)
		return 0;
	d.sid = malloc(sizeof(uint32_t) * (all + 1));
	d.leaf = malloc(sizeof(uint32_t) * (all + 1));
	d.idx = malloc(sizeof(uint32_t) * (all + 1));
	d.move = malloc(sizeof(uint32_t) * (all + 1));
	d.first = malloc(sizeof(uint32_t) * (sp->m1 + 1));
	d.size = malloc(sizeof(uint32_t) * (sp->m1 + 1));
	if (!d.sid || !d.leaf || !d.idx || !d.move || !d.first || !d.size)
		e = FORS_ENOMEM;
	else if (lay_out(&d) && d.n >= 2)
		e = build(&d, out, maps);
	free(d.sid);
	free(d.leaf);
	free(d.idx);
	free(d.move);
	free(d.first);
	free(d.size);
	if (e)
		fors_error_set(err, "out of memory while laying out the shift");
	return e;
}
