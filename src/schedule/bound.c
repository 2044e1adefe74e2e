// SPDX-License-Identifier: MIT
/*
 * The lower bound T* on the phases of any congestion-free all-to-all over
 * the hosts present and the cables alive (doc/schedule.md, "The bound").
 * A phase carries at most one transfer per host and direction, and at
 * most one per cable and direction. Lengths l >= 0 on the cables give
 *   T >= sum over leaf pairs of n_L n_K dist_LK(l) / sum of l * cables,
 * where dist_LK is the shortest leaf-spine-leaf path: in T phases a cable
 * carries at most T transfers, and each transfer of L -> K pays at least
 * dist_LK. Counting only L's uplinks gives the leaf term, only the common
 * spines of L and K the pair term; multiplicative weights (as in
 * lec/lp.c) search the lengths for the rest, the LP relaxation of
 * splitting every pair over the spines. Every bound is a certificate
 * checked in integers, so a weak search gives a weaker bound, never a
 * wrong one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/bound.h"

#define FLOW_ROUNDS 100		/* most rounds of the weight search */
#define FLOW_CHECK 4		/* rounds between certificates */
#define FLOW_CUT 16		/* rounds between bottleneck certificates */
#define FLOW_EPS 0.1		/* growth of a fully used cable's length */
#define FLOW_SCALE 1048576.0	/* integer lengths up to 2^20 */
#define FLOW_FIT 8		/* most scalings of the split */

/* The search's state: leaves with hosts, lengths and loads per cable. */
struct flow {
	const struct fors_bound_fabric *bf;
	uint32_t *act;		/* leaves with hosts */
	uint32_t na;
	double *len;		/* [2 * nleaves * nspines]: up, then down */
	double *load;		/* this round's transfers per cable bundle */
	double *sum;		/* every round's */
	double *cut;		/* a bottleneck's lengths */
	uint64_t *w;		/* integer lengths of the certificate */
	int apart;		/* two leaves with hosts share no spine */
};

static uint32_t cables(const struct fors_bound_fabric *bf, uint32_t l,
		       uint32_t s)
{
	return bf->cables[(size_t)l * bf->nspines + s];
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return b ? (a + b - 1) / b : 0;
}

/* Phases for x transfers per cable, forgiving rounding below 1e-9. */
static uint64_t phases(double x)
{
	uint64_t t = (uint64_t)x;

	return x - (double)t > 1e-9 ? t + 1 : t;
}

static void raise_to(struct fors_bound *b, uint64_t t,
		     enum fors_bound_term term, uint32_t x, uint32_t y)
{
	if (t <= b->t)
		return;
	*b = (struct fors_bound){ (uint32_t)t, term, x, y };
}

/* Cables between leaves l and k through spine s, counted at the smaller. */
static uint32_t common(const struct fors_bound_fabric *bf, uint32_t l,
		       uint32_t k, uint32_t s)
{
	uint32_t a = cables(bf, l, s), c = cables(bf, k, s);

	return a < c ? a : c;
}

/*
 * l's cables to spines some other leaf with hosts reaches; every cable of
 * l where a transfer may pass a third leaf, with or without hosts.
 */
static uint64_t uplinks(const struct flow *f, uint32_t l)
{
	const struct fors_bound_fabric *bf = f->bf;
	uint64_t u = 0;
	uint32_t s, i;

	for (s = 0; s < bf->nspines; s++)
		for (i = 0; i < f->na; i++)
			if (f->apart ||
			    (f->act[i] != l && cables(bf, f->act[i], s))) {
				u += cables(bf, l, s);
				break;
			}
	return u;
}

/* Cables between leaves l and k through any spine, each at the smaller. */
static uint64_t shared(const struct fors_bound_fabric *bf, uint32_t l,
		       uint32_t k)
{
	uint64_t c = 0;
	uint32_t s;

	for (s = 0; s < bf->nspines; s++)
		c += common(bf, l, k, s);
	return c;
}

/* Whether two leaves with hosts share no spine (routing/detour.c). */
static int any_apart(const struct flow *f)
{
	uint32_t i, j;

	for (i = 0; i < f->na; i++)
		for (j = i + 1; j < f->na; j++)
			if (!shared(f->bf, f->act[i], f->act[j]))
				return 1;
	return 0;
}

/*
 * N - 1, every leaf and every pair with common spines: a pair without
 * one has no such term (the file format's guarantee 5 defines it over
 * common planes), and its transfers pass a third leaf.
 */
static void simple(const struct flow *f, uint64_t n, struct fors_bound *b)
{
	const struct fors_bound_fabric *bf = f->bf;
	uint32_t i, j;

	raise_to(b, n ? n - 1 : 0, FORS_BOUND_HOSTS, 0, 0);
	for (i = 0; i < f->na; i++) {
		uint32_t l = f->act[i];
		uint64_t nl = bf->hosts[l], c;

		raise_to(b, ceil_div(nl * (n - nl), uplinks(f, l)),
			 FORS_BOUND_LEAF, l, 0);
		for (j = i + 1; j < f->na; j++) {
			uint32_t k = f->act[j];

			c = shared(bf, l, k);
			if (c)
				raise_to(b, ceil_div(nl * bf->hosts[k], c),
					 FORS_BOUND_PAIR, l, k);
		}
	}
}

static double *up_len(const struct flow *f, double *a, uint32_t l)
{
	return a + (size_t)l * f->bf->nspines;
}

static double *down_len(const struct flow *f, double *a, uint32_t k)
{
	return a + ((size_t)f->bf->nleaves + k) * f->bf->nspines;
}

/* Most transfers per cable in this round's loads. */
static double congestion(const struct flow *f, const double *load)
{
	const struct fors_bound_fabric *bf = f->bf;
	size_t i, n = (size_t)bf->nleaves * bf->nspines;
	double c = 0;

	for (i = 0; i < 2 * n; i++)
		if (bf->cables[i % n] && load[i] / bf->cables[i % n] > c)
			c = load[i] / bf->cables[i % n];
	return c;
}

/*
 * Every pair's transfers split over its common spines, in proportion to
 * the common cables times the factors (f->len) of the pair's two ends.
 */
static void spread(struct flow *f)
{
	const struct fors_bound_fabric *bf = f->bf;
	uint32_t i, j, s;

	memset(f->load, 0, sizeof(double) * 2 * bf->nleaves * bf->nspines);
	for (i = 0; i < f->na; i++)
		for (j = 0; j < f->na; j++) {
			uint32_t l = f->act[i], k = f->act[j];
			const double *u = up_len(f, f->len, l);
			const double *v = down_len(f, f->len, k);
			double d = (double)bf->hosts[l] * bf->hosts[k], c = 0;

			for (s = 0; i != j && s < bf->nspines; s++)
				c += common(bf, l, k, s) * u[s] * v[s];
			for (s = 0; i != j && s < bf->nspines; s++) {
				double x = d * common(bf, l, k, s) * u[s] *
					   v[s] / c;

				up_len(f, f->load, l)[s] += x;
				down_len(f, f->load, k)[s] += x;
			}
		}
}

/*
 * Whether some split of the pairs needs at most t phases: the common
 * cables' split, then each cable's factor moved halfway toward the load
 * t allows it over its load (damped matrix scaling), FLOW_FIT times at
 * most. Any split is a flow, so one within t shows, by weak duality,
 * that no certificate exceeds t.
 */
static int within(struct flow *f, uint64_t t)
{
	const struct fors_bound_fabric *bf = f->bf;
	size_t i, n = (size_t)bf->nleaves * bf->nspines;
	uint32_t it;

	for (i = 0; i < 2 * n; i++)
		f->len[i] = 1.0;
	for (it = 0; it < FLOW_FIT; it++) {
		spread(f);
		if (phases(congestion(f, f->load)) <= t)
			return 1;
		for (i = 0; i < 2 * n; i++)
			if (bf->cables[i % n] && f->load[i] > 0)
				f->len[i] *= 0.5 + 0.5 * (double)t *
					      bf->cables[i % n] / f->load[i];
	}
	return 0;
}

/* The spine of the shortest path from l to k under lengths w. */
static uint32_t shortest(const struct flow *f, uint32_t l, uint32_t k)
{
	const struct fors_bound_fabric *bf = f->bf;
	const double *u = up_len(f, f->len, l), *d = down_len(f, f->len, k);
	uint32_t s, best = UINT32_MAX;

	for (s = 0; s < bf->nspines; s++)
		if (common(bf, l, k, s) &&
		    (best == UINT32_MAX || u[s] + d[s] < u[best] + d[best]))
			best = s;
	return best;
}

/* Every pair on its shortest path: this round's loads, added to sum. */
static void route_round(struct flow *f)
{
	const struct fors_bound_fabric *bf = f->bf;
	size_t i, n = 2 * (size_t)bf->nleaves * bf->nspines;
	uint32_t a, b, s;

	memset(f->load, 0, sizeof(double) * n);
	for (a = 0; a < f->na; a++)
		for (b = 0; b < f->na; b++) {
			uint32_t l = f->act[a], k = f->act[b];
			double d = (double)bf->hosts[l] * bf->hosts[k];

			if (a == b)
				continue;
			s = shortest(f, l, k);
			up_len(f, f->load, l)[s] += d;
			down_len(f, f->load, k)[s] += d;
		}
	for (i = 0; i < n; i++)
		f->sum[i] += f->load[i];
}

/* The least distance from l to k under integer lengths w. */
static uint64_t wdist(const struct flow *f, uint32_t l, uint32_t k)
{
	const struct fors_bound_fabric *bf = f->bf;
	size_t base = (size_t)bf->nleaves * bf->nspines;
	uint64_t best = UINT64_MAX;
	uint32_t s;

	for (s = 0; s < bf->nspines; s++) {
		uint64_t x = f->w[(size_t)l * bf->nspines + s] +
			     f->w[base + (size_t)k * bf->nspines + s];

		if (common(bf, l, k, s) && x < best)
			best = x;
	}
	return best;
}

/* The certificate of the current lengths, rounded to integers. */
static uint64_t certificate(struct flow *f)
{
	const struct fors_bound_fabric *bf = f->bf;
	size_t i, n = (size_t)bf->nleaves * bf->nspines;
	uint64_t num = 0, den = 0;
	double top = 0;
	uint32_t a, b;

	for (i = 0; i < 2 * n; i++)
		top = bf->cables[i % n] && f->len[i] > top ? f->len[i] : top;
	for (i = 0; i < 2 * n; i++) {
		f->w[i] = bf->cables[i % n] ?
			  (uint64_t)(f->len[i] / top * FLOW_SCALE) : 0;
		den += f->w[i] * bf->cables[i % n];
	}
	for (a = 0; a < f->na; a++)
		for (b = 0; b < f->na; b++)
			if (a != b)
				num += (uint64_t)bf->hosts[f->act[a]] *
				       bf->hosts[f->act[b]] *
				       wdist(f, f->act[a], f->act[b]);
	return ceil_div(num, den);
}

/*
 * The certificates of the rounds' average flow: length 1 on the cables
 * loaded within a share of the worst (its bottleneck, as the LP's dual
 * would price it), 0 elsewhere. The weight search's own lengths approach
 * the dual only slowly; a bottleneck's set gives it at once.
 */
static void saturated(struct flow *f, uint32_t rounds, struct fors_bound *b)
{
	static const double share[] = { 0.999, 0.99, 0.95, 0.9, 0.8 };
	const struct fors_bound_fabric *bf = f->bf;
	size_t i, n = 2 * (size_t)bf->nleaves * bf->nspines;
	double top = congestion(f, f->sum) / rounds, *keep = f->len;
	uint32_t k;

	f->len = f->cut;	/* certificate() reads len */
	for (k = 0; k < sizeof(share) / sizeof(share[0]); k++) {
		for (i = 0; i < n; i++)
			f->len[i] = bf->cables[i % (n / 2)] &&
				    f->sum[i] / rounds / bf->cables[i % (n / 2)] >=
				    share[k] * top ? 1.0 : 0.0;
		raise_to(b, certificate(f), FORS_BOUND_FLOW, 0, 0);
	}
	f->len = keep;
}

/* Lengths grow with the share of the round's worst cable they carried. */
static void reweigh(struct flow *f, double cong)
{
	const struct fors_bound_fabric *bf = f->bf;
	size_t i, n = (size_t)bf->nleaves * bf->nspines;
	double top = 0;

	for (i = 0; i < 2 * n; i++)
		if (bf->cables[i % n]) {
			f->len[i] *= 1 + FLOW_EPS * f->load[i] /
					 bf->cables[i % n] / cong;
			top = f->len[i] > top ? f->len[i] : top;
		}
	for (i = 0; i < 2 * n; i++)
		f->len[i] = f->len[i] / top + 1e-12;
}

/*
 * The flow term, searched only while a fractional split of the pairs
 * (the scaled one, then the rounds' average) needs more phases than the
 * bound has: once it does not, no certificate can give more.
 */
static void flow_bound(struct flow *f, struct fors_bound *b)
{
	const struct fors_bound_fabric *bf = f->bf;
	size_t i, n = (size_t)bf->nleaves * bf->nspines;
	uint32_t r;

	if (within(f, b->t))
		return;
	for (i = 0; i < 2 * n; i++)
		f->len[i] = bf->cables[i % n] ? 1.0 / bf->cables[i % n] : 0;
	for (r = 1; r <= FLOW_ROUNDS; r++) {
		route_round(f);
		if (r % FLOW_CHECK == 0 || r == FLOW_ROUNDS)
			raise_to(b, certificate(f), FORS_BOUND_FLOW, 0, 0);
		if (r % FLOW_CUT == 0 || r == FLOW_ROUNDS)
			saturated(f, r, b);
		if (phases(congestion(f, f->sum) / r) <= b->t)
			return;
		reweigh(f, congestion(f, f->load));
	}
}

static int flow_init(struct flow *f, const struct fors_bound_fabric *bf,
		     uint64_t *n)
{
	size_t cells = 2 * (size_t)bf->nleaves * bf->nspines + 1;
	uint32_t l;

	f->bf = bf;
	f->act = malloc(sizeof(uint32_t) * (bf->nleaves + 1));
	f->len = calloc(cells, sizeof(double));
	f->load = calloc(cells, sizeof(double));
	f->sum = calloc(cells, sizeof(double));
	f->cut = calloc(cells, sizeof(double));
	f->w = calloc(cells, sizeof(uint64_t));
	if (!f->act || !f->len || !f->load || !f->sum || !f->cut || !f->w)
		return FORS_ENOMEM;
	for (*n = 0, l = 0; l < bf->nleaves; l++)
		if (bf->hosts[l]) {
			f->act[f->na++] = l;
			*n += bf->hosts[l];
		}
	return 0;
}

int fors_bound_compute(const struct fors_bound_fabric *bf,
		       struct fors_bound *out, struct fors_error *err)
{
	struct flow f = { 0 };
	uint64_t n;
	int e = flow_init(&f, bf, &n);

	*out = (struct fors_bound){ 0, FORS_BOUND_HOSTS, 0, 0 };
	if (e)
		fors_error_set(err, "out of memory while computing the bound");
	if (!e) {
		f.apart = any_apart(&f);
		simple(&f, n, out);
	}
	if (!e && f.na > 1 && !f.apart)
		flow_bound(&f, out);
	free(f.act);
	free(f.len);
	free(f.load);
	free(f.sum);
	free(f.cut);
	free(f.w);
	return e;
}

/* Leaf l's live cables. */
static uint32_t cables_of(const struct fors_bound_fabric *bf, uint32_t l)
{
	uint32_t s, n = 0;

	for (s = 0; s < bf->nspines; s++)
		n += bf->cables[(size_t)l * bf->nspines + s];
	return n;
}

/*
 * The sum of the pieces ranked from + 1 .. to (1-based) in the
 * descending order of the other leaves' host counts, each leaf's count
 * once per host of leaf b: its pairs into b.
 */
static uint64_t ranked_sum(const struct fors_bound_fabric *bf, uint32_t b,
			   const uint32_t *order, uint64_t from, uint64_t to)
{
	uint64_t sum = 0, at = 0, run, lo, hi;
	uint32_t i;

	for (i = 0; i < bf->nleaves && at < to; i++, at += run) {
		uint32_t a = order[i];

		run = a == b ? 0 : bf->hosts[b];
		lo = at > from ? at : from;
		hi = at + run < to ? at + run : to;
		if (hi > lo)
			sum += (hi - lo) * bf->hosts[a];
	}
	return sum;
}

/*
 * Leaf b's cables down: its pairs' pieces (a source leaf's host count,
 * once per host of b) on v cables, unsplit. Of the k v + 1 largest,
 * some cable holds k + 1, so at least the k + 1 smallest of them.
 */
static uint32_t down_bound(const struct fors_bound_fabric *bf, uint32_t b,
			   const uint32_t *order)
{
	uint64_t pieces = 0, k, best = 0, x;
	uint32_t v = cables_of(bf, b), a;

	for (a = 0; a < bf->nleaves; a++)
		pieces += a != b && bf->hosts[a] ? bf->hosts[b] : 0;
	for (k = 0; v && k * v + 1 <= pieces; k++) {
		x = ranked_sum(bf, b, order, k * v - k, k * v + 1);
		best = x > best ? x : best;
	}
	return best > UINT32_MAX ? UINT32_MAX : (uint32_t)best;
}

uint32_t fors_bound_one_route(const struct fors_bound_fabric *bf)
{
	uint32_t *order = malloc(sizeof(uint32_t) * (bf->nleaves + 1));
	uint32_t a, b, i, n = 0, u, t = 0, x;

	for (a = 0; a < bf->nleaves; a++)
		n += bf->hosts[a];
	for (a = 0; order && a < bf->nleaves; a++) {	/* by hosts, most first */
		for (i = a; i > 0 && bf->hosts[order[i - 1]] < bf->hosts[a]; i--)
			order[i] = order[i - 1];
		order[i] = a;
	}
	for (b = 0; order && b < bf->nleaves; b++) {
		u = cables_of(bf, b);
		x = u && bf->hosts[b] ? (n - bf->hosts[b] + u - 1) / u *
					bf->hosts[b] : 0;
		t = x > t ? x : t;
		x = bf->hosts[b] ? down_bound(bf, b, order) : 0;
		t = x > t ? x : t;
	}
	free(order);
	return t;
}

void fors_bound_describe(const struct fors_bound *b, char *buf, size_t len)
{
	if (b->term == FORS_BOUND_HOSTS)
		snprintf(buf, len, "hosts - 1");
	else if (b->term == FORS_BOUND_LEAF)
		snprintf(buf, len, "leaf %u's transfers over its uplinks", b->a);
	else if (b->term == FORS_BOUND_PAIR)
		snprintf(buf, len, "leaves %u and %u over their common cables",
			 b->a, b->b);
	else
		snprintf(buf, len, "all leaf pairs split over the spines");
}
