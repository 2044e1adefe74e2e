// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/schedule.h"
#include "schedule/inter.h"
#include "schedule/intra.h"

int fors_sched_check_params(const struct fors_sched_params *sp,
			    struct fors_error *err)
{
	if (sp->m0 < 1) {
		fors_error_set(err, "hosts-per-leaf must be at least 1");
		return FORS_EINVAL;
	}
	if (sp->m1 < 2) {
		fors_error_set(err, "leaves must be at least 2, got %u",
			       sp->m1);
		return FORS_EINVAL;
	}
	if (sp->f >= sp->m0) {
		fors_error_set(err,
			       "reduction %u must be below hosts-per-leaf %u",
			       sp->f, sp->m0);
		return FORS_EINVAL;
	}
	if ((uint64_t)sp->m0 * sp->m1 > FORS_MAX_HOSTS) {
		fors_error_set(err,
			       "hosts-per-leaf x leaves = %llu exceeds the limit of %u hosts",
			       (unsigned long long)sp->m0 * sp->m1,
			       FORS_MAX_HOSTS);
		return FORS_EINVAL;
	}
	return FORS_OK;
}

void fors_schedule_free(struct fors_schedule *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nhosts; i++)
		free(s->hosts[i].desc);
	for (i = 0; i < s->nextra; i++) {
		free(s->extra[i].key);
		free(s->extra[i].value);
	}
	free(s->hosts);
	free(s->extra);
	free(s->start);
	free(s->xfers);
	free(s);
}

static int copy_hosts(struct fors_schedule *o, const struct fors_schedule *s)
{
	size_t i;

	if (!s->nhosts)
		return 0;
	o->hosts = calloc(s->nhosts + 1, sizeof(*o->hosts));
	if (!o->hosts)
		return FORS_ENOMEM;
	for (i = 0; i < s->nhosts; i++) {
		o->hosts[i] = s->hosts[i];
		o->hosts[i].desc = NULL;
		o->nhosts = i + 1;
		if (s->hosts[i].desc &&
		    !(o->hosts[i].desc = strdup(s->hosts[i].desc)))
			return FORS_ENOMEM;
	}
	return 0;
}

int fors_schedule_adopt(const struct fors_schedule *s,
			struct fors_xfer *xfers, size_t nxfers, size_t *start,
			uint32_t nphases, struct fors_schedule **out)
{
	struct fors_schedule *o = calloc(1, sizeof(*o));
	size_t i;
	int r;

	*out = NULL;
	if (!o) {
		free(xfers);
		free(start);
		return FORS_ENOMEM;
	}
	*o = *s;
	o->hosts = NULL;
	o->nhosts = o->nextra = 0;
	o->extra = NULL;
	o->xfers = xfers;
	o->nxfers = nxfers;
	o->start = start;
	o->nphases = nphases;
	r = copy_hosts(o, s);
	for (i = 0; !r && i < s->nextra; i++)
		r = fors_schedule_add_key(o, s->extra[i].key, s->extra[i].value);
	if (r) {
		fors_schedule_free(o);
		return r;
	}
	*out = o;
	return 0;
}

int fors_schedule_add_key(struct fors_schedule *s, const char *key,
			  const char *value)
{
	struct fors_kv *x = realloc(s->extra, sizeof(*x) * (s->nextra + 1));

	if (!x)
		return FORS_ENOMEM;
	s->extra = x;
	x[s->nextra].key = strdup(key);
	x[s->nextra].value = strdup(value);
	s->nextra++;
	return x[s->nextra - 1].key && x[s->nextra - 1].value ? 0 :
	       FORS_ENOMEM;
}

int64_t fors_schedule_number(const struct fors_schedule *s, const char *key)
{
	unsigned long v;
	size_t i;
	char *end;

	for (i = 0; i < s->nextra; i++) {
		if (strcmp(s->extra[i].key, key))
			continue;
		v = strtoul(s->extra[i].value, &end, 10);
		return *end || end == s->extra[i].value ||
		       s->extra[i].value[0] == '-' || v > UINT32_MAX ? -2 :
		       (int64_t)v;
	}
	return -1;
}

uint32_t fors_schedule_detours(const struct fors_schedule *s)
{
	int64_t v = fors_schedule_number(s, "detour");

	return v > 0 && v <= s->nphases ? (uint32_t)v : 0;
}

int fors_schedule_add_absent(struct fors_schedule *s, const uint8_t *present)
{
	size_t n = (size_t)s->m0 * s->m1, i, len = 0;
	const char *sep = "";
	char *v = NULL;
	FILE *out;
	int r;

	for (i = 0; present && i < n && present[i]; i++)
		;
	if (!present || i == n)
		return 0;
	out = open_memstream(&v, &len);
	if (!out)
		return FORS_ENOMEM;
	for (i = 0; i < n; i++) {
		if (present[i])
			continue;
		fprintf(out, "%s%zu", sep, i);
		sep = ",";
	}
	r = fclose(out) ? FORS_ENOMEM : fors_schedule_add_key(s, "absent", v);
	free(v);
	return r;
}

/* Intra-leaf edges bucketed by phase: edges of phase p are at [st[p]..). */
static int bucket(const uint32_t *phase, uint32_t ne, uint32_t n,
		  uint32_t **st, uint32_t **ed)
{
	uint32_t e, p;

	*st = calloc(n + 2, sizeof(uint32_t));
	*ed = malloc(sizeof(uint32_t) * (ne + 1));
	if (!*st || !*ed)
		return -1;
	for (e = 0; e < ne; e++)
		(*st)[phase[e] + 2]++;
	for (p = 0; p < n; p++)
		(*st)[p + 2] += (*st)[p + 1];
	for (e = 0; e < ne; e++)
		(*ed)[(*st)[phase[e] + 1]++] = e;
	return 0;
}

static int present(const struct fors_sched_params *sp, uint32_t h)
{
	return !sp->present || sp->present[h];
}

struct fors_schedule_builder {
	struct fors_sched_params sp;	/* a copy: the caller's may go */
	struct inter in;
	uint32_t *ist, *ied;	/* intra edges by phase */
	int64_t *row;		/* destination of each source */
	struct fors_schedule *s;
	struct fors_xfer *xfers;	/* s's, kept: a taker may move them */
	size_t *start;
	uint32_t m0, m1, nphases;
};

void fors_schedule_build_phase(struct fors_schedule_builder *b, uint32_t p)
{
	uint32_t m0 = b->m0, hosts = b->m0 * b->m1, g, a, i, h;
	size_t n = b->start[p];
	int64_t *row = b->row;

	for (h = 0; h < hosts; h++)
		row[h] = -1;
	for (a = 0; p < b->in.pf && a < m0; a++) {
		int64_t d = inter_dst(&b->in, 0, a, p);

		/* d + g * m0 wraps once at most: no division per transfer */
		for (g = 0; d >= 0 && g < b->m1; g++, d += m0)
			row[g * m0 + a] = d < hosts ? d : d - hosts;
	}
	for (i = b->ist[p]; i < b->ist[p + 1]; i++) {
		uint32_t e = b->ied[i], src = e / (m0 - 1), k = e % (m0 - 1);
		uint32_t dst = k < src ? k : k + 1;

		for (g = 0; g < b->m1; g++)
			row[g * m0 + src] = g * m0 + dst;
	}
	for (h = 0; h < hosts; h++) {
		if (row[h] < 0 || !present(&b->sp, h) ||
		    !present(&b->sp, (uint32_t)row[h]))
			continue;
		b->xfers[n++] = fors_xfer_make(h, (uint32_t)row[h], -1,
					       FORS_NO_DLID);
	}
	b->start[p + 1] = n;
}

static struct fors_schedule *alloc_schedule(const struct fors_sched_params *sp,
					    uint32_t nphases)
{
	struct fors_schedule *s = calloc(1, sizeof(*s));
	size_t hosts = (size_t)sp->m0 * sp->m1, h, n = 0;

	if (!s)
		return NULL;
	for (h = 0; h < hosts; h++)
		n += present(sp, (uint32_t)h);
	s->m0 = sp->m0;
	s->m1 = sp->m1;
	s->q = sp->m0;
	s->f = sp->f;
	s->m = sp->f;
	s->lmc = -1;
	s->nphases = nphases;
	s->start = calloc(nphases + 1, sizeof(size_t));
	s->xfers = malloc(sizeof(struct fors_xfer) * (n * (n - !!n) + 1));
	if (!s->start || !s->xfers) {
		fors_schedule_free(s);
		return NULL;
	}
	return s;
}

void fors_schedule_build_end(struct fors_schedule_builder *b)
{
	if (!b)
		return;
	if (b->s)
		b->s->nxfers = b->start[b->nphases];
	free(b->ist);
	free(b->ied);
	free(b->row);
	free(b);
}

/* The intra-leaf phases, bucketed, and the schedule allocated. */
static int prepare(struct fors_schedule_builder *b,
		   struct fors_intra_info *info)
{
	struct fors_intra_info local;
	uint32_t ne = b->m0 * (b->m0 - 1), *phase = malloc(sizeof(uint32_t) * (ne + 1));
	int r = !phase || !b->row ||
		intra_fill(&b->in, phase, &b->nphases, info ? info : &local) ||
		bucket(phase, ne, b->nphases, &b->ist, &b->ied);

	free(phase);
	if (!r)
		b->s = alloc_schedule(&b->sp, b->nphases);
	return r || !b->s ? FORS_ENOMEM : 0;
}

int fors_schedule_build_begin(struct fors_schedule **out,
			      const struct fors_sched_params *sp,
			      struct fors_intra_info *info,
			      struct fors_schedule_builder **bp,
			      struct fors_error *err)
{
	struct fors_schedule_builder *b;
	int r;

	*out = NULL;
	*bp = NULL;
	r = fors_sched_check_params(sp, err);
	if (r)
		return r;
	b = calloc(1, sizeof(*b));
	if (!b) {
		fors_error_set(err, "out of memory while building the schedule");
		return FORS_ENOMEM;
	}
	b->sp = *sp;
	b->m0 = sp->m0;
	b->m1 = sp->m1;
	inter_init(&b->in, sp->m0, sp->m1, sp->f);
	b->row = malloc(sizeof(int64_t) * sp->m0 * sp->m1);
	r = prepare(b, info);
	if (r) {
		fors_schedule_free(b->s);
		b->s = NULL;
		fors_schedule_build_end(b);
		fors_error_set(err, "out of memory while building the schedule");
		return r;
	}
	b->xfers = b->s->xfers;
	b->start = b->s->start;
	*out = b->s;
	*bp = b;
	return 0;
}

int fors_schedule_build(struct fors_schedule **out,
			const struct fors_sched_params *sp,
			struct fors_intra_info *info, struct fors_error *err)
{
	struct fors_schedule_builder *b;
	uint32_t p;
	int r = fors_schedule_build_begin(out, sp, info, &b, err);

	if (r)
		return r;
	for (p = 0; p < b->nphases; p++)
		fors_schedule_build_phase(b, p);
	fors_schedule_build_end(b);
	return 0;
}
