// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/schedule.h"
#include "ilp/key.h"
#include "formats/scenfile.h"

uint64_t ilp_hash(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

struct colsort {
	const uint8_t *live;
	uint32_t m1, q;
};

/* Columns compare leaf by leaf, live first; ties by index, for stability. */
static int cmp_col(const void *x, const void *y, void *arg)
{
	const struct colsort *c = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y, l;

	for (l = 0; l < c->m1; l++) {
		uint8_t u = c->live[(size_t)l * c->q + a];
		uint8_t v = c->live[(size_t)l * c->q + b];

		if (u != v)
			return u ? -1 : 1;
	}
	return (a > b) - (a < b);
}

static void sort_planes(uint32_t *perm, const uint8_t *live, uint32_t m1,
			uint32_t q)
{
	struct colsort c = { live, m1, q };
	uint32_t p;

	for (p = 0; p < q; p++)
		perm[p] = p;
	qsort_r(perm, q, sizeof(uint32_t), cmp_col, &c);
}

struct edgesort {
	const uint32_t *ls, *ld;
};

static int cmp_edge(const void *x, const void *y, void *arg)
{
	const struct edgesort *e = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	if (e->ls[a] != e->ls[b])
		return e->ls[a] < e->ls[b] ? -1 : 1;
	if (e->ld[a] != e->ld[b])
		return e->ld[a] < e->ld[b] ? -1 : 1;
	return (a > b) - (a < b);
}

void ilp_phase_clear(struct ilp_phase *ph)
{
	free(ph->src);
	free(ph->dst);
	free(ph->edge);
	free(ph->live);
	free(ph->plane);
	free(ph->text);
	memset(ph, 0, sizeof(*ph));
}

static int phase_alloc(struct ilp_phase *ph, uint32_t m1, uint32_t q,
		       uint32_t n)
{
	ph->src = malloc(sizeof(uint32_t) * (n + 1));
	ph->dst = malloc(sizeof(uint32_t) * (n + 1));
	ph->edge = malloc(sizeof(uint32_t) * (n + 1));
	ph->live = calloc((size_t)m1 * q + 1, 1);
	ph->plane = malloc(sizeof(uint32_t) * (q + 1));
	return ph->src && ph->dst && ph->edge && ph->live && ph->plane ?
	       0 : FORS_ENOMEM;
}

/* The live columns of the leaves the phase touches, real plane order. */
static uint8_t *touched_live(const struct fors_fabric *fb, const uint32_t *ls,
			     const uint32_t *ld, uint32_t n)
{
	uint8_t *t = calloc(fb->m1 + 1, 1), *live;
	uint32_t i, l, p;

	live = calloc((size_t)fb->m1 * fb->q + 1, 1);
	if (!t || !live) {
		free(t);
		free(live);
		return NULL;
	}
	for (i = 0; i < n; i++)
		t[ls[i]] = t[ld[i]] = 1;
	for (l = 0; l < fb->m1; l++)
		for (p = 0; t[l] && p < fb->q; p++)
			live[(size_t)l * fb->q + p] = fors_plane_live(fb, l, p);
	free(t);
	return live;
}

static void bitline(FILE *out, const char *word, const uint8_t *b,
		    size_t stride, uint32_t n)
{
	uint32_t i;

	fputs(word, out);
	for (i = 0; i < n; i++)
		fputc(b[i * stride] ? '1' : '0', out);
	fputc('\n', out);
}

static int phase_text(struct ilp_phase *ph)
{
	FILE *out = open_memstream(&ph->text, &ph->len);
	uint32_t c, i;

	if (!out)
		return FORS_ENOMEM;
	fprintf(out, "phase leaves %u planes %u sub-phases %u transfers %u\n",
		ph->m1, ph->q, ph->k, ph->n);
	for (c = 0; c < ph->q; c++)
		bitline(out, "plane ", ph->live + c, ph->q, ph->m1);
	for (i = 0; i < ph->n; i++)
		fprintf(out, "%u>%u%c", ph->src[i], ph->dst[i],
			i + 1 == ph->n || i % 16 == 15 ? '\n' : ' ');
	if (fclose(out))
		return FORS_ENOMEM;
	ph->hash = ilp_hash(ph->text, ph->len, ILP_HASH_INIT);
	return 0;
}

int ilp_phase_make(struct ilp_phase *ph, const struct fors_fabric *fb,
		   const uint32_t *ls, const uint32_t *ld, uint32_t n,
		   uint32_t k)
{
	struct edgesort es = { ls, ld };
	uint8_t *live;
	uint32_t i, l, c;

	memset(ph, 0, sizeof(*ph));
	ph->m1 = fb->m1;
	ph->q = fb->q;
	ph->k = k;
	ph->n = n;
	live = touched_live(fb, ls, ld, n);
	if (!live || phase_alloc(ph, fb->m1, fb->q, n)) {
		free(live);
		ilp_phase_clear(ph);
		return FORS_ENOMEM;
	}
	sort_planes(ph->plane, live, fb->m1, fb->q);
	for (l = 0; l < fb->m1; l++)
		for (c = 0; c < fb->q; c++)
			ph->live[(size_t)l * fb->q + c] =
				live[(size_t)l * fb->q + ph->plane[c]];
	free(live);
	for (i = 0; i < n; i++)
		ph->edge[i] = i;
	qsort_r(ph->edge, n, sizeof(uint32_t), cmp_edge, &es);
	for (i = 0; i < n; i++) {
		ph->src[i] = ls[ph->edge[i]];
		ph->dst[i] = ld[ph->edge[i]];
	}
	if (phase_text(ph)) {
		ilp_phase_clear(ph);
		return FORS_ENOMEM;
	}
	return 0;
}

int ilp_scenario_schedule(const struct fors_scenario *sc,
			  struct fors_fabric **fb, struct fors_schedule **s,
			  struct fors_error *err)
{
	struct fors_sched_params sp;
	int r;

	*s = NULL;
	r = fors_scenario_fabric(sc, fb, err);
	if (r)
		return r;
	sp = (struct fors_sched_params){ sc->m0, sc->m1, (*fb)->f, sc->present };
	return fors_schedule_build(s, &sp, NULL, err);
}

uint32_t ilp_phase_gather(const struct fors_schedule *s, uint32_t m0,
			  uint32_t p, uint32_t *idx, uint32_t *ls,
			  uint32_t *ld)
{
	uint32_t n = 0;
	size_t i;

	for (i = s->start[p]; i < s->start[p + 1]; i++) {
		const struct fors_xfer *x = &s->xfers[i];

		if (x->src / m0 == x->dst / m0)
			continue;
		idx[n] = (uint32_t)i;
		ls[n] = x->src / m0;
		ld[n++] = x->dst / m0;
	}
	return n;
}

int ilp_scenario_phases(const struct fors_scenario *sc,
			int (*fn)(const struct ilp_phase *ph, void *arg),
			void *arg, struct fors_error *err)
{
	struct fors_schedule *s = NULL;
	struct fors_fabric *fb = NULL;
	uint32_t *idx = NULL, *ls = NULL, *ld = NULL, p, n;
	int r = ilp_scenario_schedule(sc, &fb, &s, err);

	if (!r) {
		idx = malloc(sizeof(uint32_t) * (s->nxfers + 1));
		ls = malloc(sizeof(uint32_t) * (s->nxfers + 1));
		ld = malloc(sizeof(uint32_t) * (s->nxfers + 1));
		if (!idx || !ls || !ld) {
			fors_error_set(err, "out of memory");
			r = FORS_ENOMEM;
		}
	}
	for (p = 0; !r && p < s->nphases; p++) {
		struct ilp_phase ph;

		n = ilp_phase_gather(s, sc->m0, p, idx, ls, ld);
		if (!n)
			continue;
		if (ilp_phase_make(&ph, fb, ls, ld, n, 1)) {
			fors_error_set(err, "out of memory");
			r = FORS_ENOMEM;
			break;
		}
		r = fn(&ph, arg);
		ilp_phase_clear(&ph);
	}
	free(idx);
	free(ls);
	free(ld);
	fors_schedule_free(s);
	fors_fabric_free(fb);
	return r;
}

int ilp_scenario_canon(struct fors_scenario *sc)
{
	uint32_t *perm = malloc(sizeof(uint32_t) * (sc->q + 1));
	uint8_t *live = malloc((size_t)sc->m1 * sc->q + 1);
	uint32_t l, c;

	if (!perm || !live) {
		free(perm);
		free(live);
		return FORS_ENOMEM;
	}
	sort_planes(perm, sc->live, sc->m1, sc->q);
	for (l = 0; l < sc->m1; l++)
		for (c = 0; c < sc->q; c++)
			live[(size_t)l * sc->q + c] =
				sc->live[(size_t)l * sc->q + perm[c]];
	memcpy(sc->live, live, (size_t)sc->m1 * sc->q);
	free(perm);
	free(live);
	return 0;
}

int ilp_scenario_key(const struct fors_scenario *sc, char **text,
		     size_t *len, uint64_t *hash)
{
	struct fors_scenario *c = fors_scenario_new(sc->m0, sc->m1, sc->q);
	FILE *out;
	int r;

	*text = NULL;
	if (!c)
		return FORS_ENOMEM;
	memcpy(c->present, sc->present, (size_t)sc->m0 * sc->m1);
	memcpy(c->live, sc->live, (size_t)sc->m1 * sc->q);
	r = ilp_scenario_canon(c);
	out = r ? NULL : open_memstream(text, len);
	if (out) {
		r = fors_scenario_write(out, c);
		if (fclose(out))
			r = FORS_ENOMEM;
	} else {
		r = FORS_ENOMEM;
	}
	fors_scenario_free(c);
	if (r) {
		free(*text);
		*text = NULL;
		return r;
	}
	*hash = ilp_hash(*text, *len, ILP_HASH_INIT);
	return 0;
}

/* Bounds on a parsed phase: the largest fabrics fors routes. */
#define MAX_LEAVES FORS_MAX_HOSTS
#define MAX_SUB 64

static int parse_bits(const char **s, uint8_t *b, size_t stride, uint32_t n)
{
	uint32_t i;

	if (strncmp(*s, "plane ", 6))
		return -1;
	*s += 6;
	for (i = 0; i < n; i++, (*s)++) {
		if (**s != '0' && **s != '1')
			return -1;
		b[i * stride] = **s == '1';
	}
	return *(*s)++ == '\n' ? 0 : -1;
}

static int parse_pair(const char **s, uint32_t m1, uint32_t *a, uint32_t *b)
{
	char *end;
	unsigned long x, y;

	if (**s < '0' || **s > '9')
		return -1;
	x = strtoul(*s, &end, 10);
	if (*end != '>' || end[1] < '0' || end[1] > '9')
		return -1;
	y = strtoul(end + 1, &end, 10);
	if (x >= m1 || y >= m1 || x == y || (*end != ' ' && *end != '\n'))
		return -1;
	*a = (uint32_t)x;
	*b = (uint32_t)y;
	*s = end + 1;
	return 0;
}

static int parse_body(struct ilp_phase *ph, const char *s)
{
	uint32_t c, i;

	for (c = 0; c < ph->q; c++)
		if (parse_bits(&s, ph->live + c, ph->q, ph->m1))
			return -1;
	for (i = 0; i < ph->n; i++) {
		if (parse_pair(&s, ph->m1, &ph->src[i], &ph->dst[i]))
			return -1;
		ph->edge[i] = i;
	}
	for (c = 0; c < ph->q; c++)
		ph->plane[c] = c;
	return *s ? -1 : 0;
}

int ilp_phase_parse(struct ilp_phase *ph, const char *text, size_t len)
{
	unsigned m1, q, k, n;
	int used = 0;
	char *mine;

	memset(ph, 0, sizeof(*ph));
	mine = strndup(text, len);
	if (!mine || strlen(mine) != len ||
	    sscanf(mine, "phase leaves %u planes %u sub-phases %u transfers %u\n%n",
		   &m1, &q, &k, &n, &used) != 4 || !used ||
	    m1 < 2 || m1 > MAX_LEAVES || q < 1 ||
	    q > FORS_SCENARIO_MAX_PLANES || k < 1 || k > MAX_SUB ||
	    n < 1 || n > FORS_MAX_HOSTS || len > (size_t)q * (m1 + 8) +
	    (size_t)n * 12 + 80) {
		free(mine);
		return -1;
	}
	ph->m1 = m1;
	ph->q = q;
	ph->k = k;
	ph->n = n;
	if (phase_alloc(ph, m1, q, n) || parse_body(ph, mine + used) ||
	    phase_text(ph) || ph->len != len || memcmp(ph->text, mine, len)) {
		free(mine);
		ilp_phase_clear(ph);
		return -1;
	}
	free(mine);
	return 0;
}
