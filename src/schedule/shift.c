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
 * disjoint planes whenever the receiving leaf has at most q hosts, and a
 * pair's transfers use one plane per role its source leaf plays.
 */
#include <stdlib.h>

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
	uint64_t *seen;		/* [m1 * n]: planes each pair has used */
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

/* Phase p's transfers appended at k; 0 when a pair needs too many planes. */
static int phase(struct shifter *d, uint32_t p, struct fors_xfer *xf,
		 size_t *k)
{
	const struct fors_shift_params *sp = d->sp;
	uint32_t a, b, l, pl;
	uint64_t *u;

	for (l = 0; l < sp->m1; l++)
		if (d->size[l])
			parts(d, l, p);
	for (a = 0; a < d->n; a++) {
		b = (a + p) % d->n;
		l = d->leaf[a];
		pl = (p + d->idx[a] + d->move[b]) % sp->q;
		if (l == d->leaf[b]) {
			xf[(*k)++] = fors_xfer_make(d->sid[a], d->sid[b], -1,
						    FORS_NO_DLID);
			continue;
		}
		u = &d->seen[(size_t)l * d->n + b];
		*u |= (uint64_t)1 << pl;
		if ((uint32_t)__builtin_popcountll(*u) > sp->planes)
			return 0;
		xf[(*k)++] = fors_xfer_make(d->sid[a], d->sid[b], (int32_t)pl,
					    FORS_NO_DLID);
	}
	return 1;
}

/* The schedule of the n - 1 phases, or NULL where a pair has too many. */
static int build(struct shifter *d, struct fors_schedule **out)
{
	const struct fors_shift_params *sp = d->sp;
	struct fors_schedule *s = calloc(1, sizeof(*s));
	size_t k = 0;
	uint32_t p;

	if (!s)
		return FORS_ENOMEM;
	*s = (struct fors_schedule){ .m0 = sp->m0, .m1 = sp->m1, .q = sp->q,
				     .f = sp->f, .m = sp->f, .lmc = -1,
				     .nphases = d->n - 1 };
	s->start = calloc(d->n, sizeof(size_t));
	s->xfers = malloc(sizeof(struct fors_xfer) * (size_t)d->n * (d->n - 1));
	if (!s->start || !s->xfers ||
	    fors_schedule_add_key(s, "pattern", "cyclic")) {
		fors_schedule_free(s);
		return FORS_ENOMEM;
	}
	for (p = 1; p < d->n; p++) {
		if (!phase(d, p, s->xfers, &k)) {
			fors_schedule_free(s);
			return 0;
		}
		s->start[p] = k;
	}
	s->nxfers = k;
	*out = s;
	return 0;
}

int fors_schedule_shift(const struct fors_shift_params *sp,
			struct fors_schedule **out, struct fors_error *err)
{
	size_t all = (size_t)sp->m0 * sp->m1;
	struct shifter d = { .sp = sp };
	int e = 0;

	*out = NULL;
	if (sp->q > 64)
		return 0;
	d.sid = malloc(sizeof(uint32_t) * (all + 1));
	d.leaf = malloc(sizeof(uint32_t) * (all + 1));
	d.idx = malloc(sizeof(uint32_t) * (all + 1));
	d.move = malloc(sizeof(uint32_t) * (all + 1));
	d.first = malloc(sizeof(uint32_t) * (sp->m1 + 1));
	d.size = malloc(sizeof(uint32_t) * (sp->m1 + 1));
	d.seen = calloc(sp->m1 * all + 1, sizeof(uint64_t));
	if (!d.sid || !d.leaf || !d.idx || !d.move || !d.first || !d.size ||
	    !d.seen)
		e = FORS_ENOMEM;
	else if (lay_out(&d) && d.n >= 2)
		e = build(&d, out);
	free(d.sid);
	free(d.leaf);
	free(d.idx);
	free(d.move);
	free(d.first);
	free(d.size);
	free(d.seen);
	if (e)
		fors_error_set(err, "out of memory while laying out the shift");
	return e;
}
