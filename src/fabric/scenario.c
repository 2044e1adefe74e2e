// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "fabric/scenario.h"
#include "schedule/schedule.h"
#include "formats/io.h"

struct fors_scenario *fors_scenario_new(uint32_t m0, uint32_t m1, uint32_t q)
{
	struct fors_scenario *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	sc->m0 = m0;
	sc->m1 = m1;
	sc->q = q;
	sc->present = calloc((size_t)m0 * m1 + 1, 1);
	sc->live = calloc((size_t)m1 * q + 1, 1);
	if (!sc->present || !sc->live) {
		fors_scenario_free(sc);
		return NULL;
	}
	return sc;
}

void fors_scenario_free(struct fors_scenario *sc)
{
	if (!sc)
		return;
	free(sc->present);
	free(sc->live);
	free(sc);
}

struct fors_scenario *fors_scenario_of(const struct fors_fabric *fb)
{
	struct fors_scenario *sc = fors_scenario_new(fb->m0, fb->m1, fb->q);
	uint32_t i;

	if (!sc)
		return NULL;
	for (i = 0; i < fb->m0 * fb->m1; i++)
		sc->present[i] = fb->host_at[i] >= 0;
	for (i = 0; i < fb->m1 * fb->q; i++)
		sc->live[i] = fb->up[i] != 0;
	return sc;
}

static int alloc_fabric(struct fors_fabric *fb, const struct fors_scenario *sc)
{
	size_t lq = (size_t)sc->m1 * sc->q + 1, h = (size_t)sc->m0 * sc->m1;

	fb->leaf = malloc(sizeof(uint32_t) * sc->m1);
	fb->spine = malloc(sizeof(uint32_t) * sc->q);
	fb->plane_spine = malloc(sizeof(uint32_t) * sc->q);
	fb->plane_rank = calloc(sc->q, sizeof(uint32_t));
	fb->up = calloc(lq, sizeof(uint32_t));
	fb->down = calloc(lq, sizeof(uint32_t));
	fb->impacted = calloc(sc->q, 1);
	fb->hosts = calloc(h + 1, sizeof(struct fors_fhost));
	fb->host_at = malloc(sizeof(int32_t) * (h + 1));
	return fb->leaf && fb->spine && fb->plane_spine && fb->plane_rank &&
	       fb->up && fb->down && fb->impacted && fb->hosts && fb->host_at;
}

int fors_scenario_fabric(const struct fors_scenario *sc,
			 struct fors_fabric **out, struct fors_error *err)
{
	struct fors_fabric *fb = calloc(1, sizeof(*fb));
	uint32_t l, p, i, bad = 0, bad2 = 0;
	int r;

	*out = NULL;
	if (!fb || !alloc_fabric(fb, sc)) {
		fors_fabric_free(fb);
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	fb->m0 = sc->m0;
	fb->m1 = sc->m1;
	fb->q = fb->nspines = sc->q;
	for (l = 0; l < sc->m1; l++)
		fb->leaf[l] = l;
	for (p = 0; p < sc->q; p++)
		fb->spine[p] = fb->plane_spine[p] = p;
	for (i = 0; i < sc->m1 * sc->q; i++)
		fb->up[i] = fb->down[i] = sc->live[i] ? i % sc->q + 1 : 0;
	for (i = 0; i < sc->m0 * sc->m1; i++) {
		fb->host_at[i] = sc->present[i] ? (int32_t)fb->nhosts : -1;
		if (sc->present[i])
			fb->hosts[fb->nhosts++].sid = i;
	}
	r = fors_fabric_measure(fb, &bad, &bad2);
	if (r) {
		if (r == FORS_NOUPLINK)
			fors_error_set(err, "leaf %u has hosts but no live plane",
				       bad);
		else
			fors_error_set(err, "leaves %u and %u share no live plane",
				       bad2, bad);
		fors_fabric_free(fb);
		return FORS_EINVAL;
	}
	*out = fb;
	return 0;
}

static void bits(FILE *out, const uint8_t *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		fputc(b[i] ? '1' : '0', out);
}

int fors_scenario_write(FILE *out, const struct fors_scenario *sc)
{
	uint32_t l;

	fprintf(out, "fors-scenario 1\nfabric m0 %u m1 %u planes %u\n", sc->m0,
		sc->m1, sc->q);
	for (l = 0; l < sc->m1; l++) {
		fprintf(out, "leaf %u hosts ", l);
		bits(out, sc->present + (size_t)l * sc->m0, sc->m0);
		fputs(" planes ", out);
		bits(out, sc->live + (size_t)l * sc->q, sc->q);
		fputc('\n', out);
	}
	fputs("end\n", out);
	return ferror(out) ? FORS_EIO : 0;
}

struct rd {
	FILE *in;
	const char *name;
	char *line;
	size_t cap;
	uint32_t no;
	struct fors_error *err;
};

static int next(struct rd *r)
{
	ssize_t n = getline(&r->line, &r->cap, r->in);

	r->no++;
	if (n <= 0) {
		fors_error_set(r->err, "%s:%u: the scenario ends early",
			       r->name, r->no);
		return FORS_EFORMAT;
	}
	if (r->line[n - 1] == '\n')
		r->line[n - 1] = 0;
	return 0;
}

static int bad(struct rd *r, const char *what)
{
	fors_error_set(r->err, "%s:%u: %s", r->name, r->no, what);
	return FORS_EFORMAT;
}

/* A word, then a number in [lo, hi]. */
static int field(const char **s, const char *word, uint32_t lo, uint32_t hi,
		 uint32_t *v)
{
	size_t n = strlen(word);
	uint64_t x;

	if (strncmp(*s, word, n) || (*s)[n] != ' ')
		return -1;
	*s += n + 1;
	if (parse_u64(s, 10, &x) || x < lo || x > hi)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* Exactly n characters '0' or '1' after word, then the end or a blank. */
static int bitfield(const char **s, const char *word, uint8_t *b, uint32_t n)
{
	size_t k = strlen(word);
	uint32_t i;

	if (strncmp(*s, word, k) || (*s)[k] != ' ')
		return -1;
	*s += k + 1;
	for (i = 0; i < n; i++, (*s)++) {
		if (**s != '0' && **s != '1')
			return -1;
		b[i] = **s == '1';
	}
	return **s && **s != ' ' ? -1 : 0;
}

static int header(struct rd *r, uint32_t *m0, uint32_t *m1, uint32_t *q)
{
	const char *s;

	if (next(r))
		return FORS_EFORMAT;
	if (strcmp(r->line, "fors-scenario 1"))
		return bad(r, "not a fors scenario (expected \"fors-scenario 1\")");
	if (next(r))
		return FORS_EFORMAT;
	s = r->line;
	if (field(&s, "fabric m0", 1, FORS_MAX_HOSTS, m0) || *s++ != ' ' ||
	    field(&s, "m1", 1, FORS_MAX_HOSTS, m1) || *s++ != ' ' ||
	    field(&s, "planes", 1, FORS_SCENARIO_MAX_PLANES, q) || *s)
		return bad(r, "expected \"fabric m0 M0 m1 M1 planes Q\" with M0 * M1 hosts at most 2048 and Q at most 1024");
	if ((uint64_t)*m0 * *m1 > FORS_MAX_HOSTS)
		return bad(r, "more than 2048 host slots");
	return 0;
}

static int leaves(struct rd *r, struct fors_scenario *sc)
{
	uint32_t l, n;

	for (l = 0; l < sc->m1; l++) {
		const char *s;

		if (next(r))
			return FORS_EFORMAT;
		s = r->line;
		if (field(&s, "leaf", 0, sc->m1 - 1, &n) || n != l ||
		    *s++ != ' ' ||
		    bitfield(&s, "hosts", sc->present + (size_t)l * sc->m0,
			     sc->m0) || *s++ != ' ' ||
		    bitfield(&s, "planes", sc->live + (size_t)l * sc->q,
			     sc->q) || *s)
			return bad(r, "expected \"leaf L hosts BITS planes BITS\" for the next leaf, with one bit per slot and per plane");
	}
	if (next(r))
		return FORS_EFORMAT;
	return strcmp(r->line, "end") ? bad(r, "expected \"end\"") : 0;
}

int fors_scenario_read(FILE *in, const char *name,
		       struct fors_scenario **out, struct fors_error *err)
{
	struct rd r = { .in = in, .name = name, .err = err };
	uint32_t m0 = 0, m1 = 0, q = 0;
	int e = header(&r, &m0, &m1, &q);

	*out = NULL;
	if (!e) {
		*out = fors_scenario_new(m0, m1, q);
		if (!*out) {
			fors_error_set(err, "out of memory");
			e = FORS_ENOMEM;
		}
	}
	if (!e)
		e = leaves(&r, *out);
	free(r.line);
	if (e) {
		fors_scenario_free(*out);
		*out = NULL;
	}
	return e;
}
