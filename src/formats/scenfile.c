// SPDX-License-Identifier: MIT
/* The text form of a failure scenario (fabric/scenario.h). */
#include <stdlib.h>
#include <string.h>

#include "formats/io.h"
#include "formats/scenfile.h"
#include "schedule/schedule.h"

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

struct scen_reader {
	FILE *in;
	const char *name;
	char *line;
	size_t cap;
	uint32_t no;
	struct fors_error *err;
};

static int next(struct scen_reader *r)
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

static int bad(struct scen_reader *r, const char *what)
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

static int header(struct scen_reader *r, uint32_t *m0, uint32_t *m1, uint32_t *q)
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

static int leaves(struct scen_reader *r, struct fors_scenario *sc)
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
	struct scen_reader r = { .in = in, .name = name, .err = err };
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
