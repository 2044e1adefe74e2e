// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_schedule_read(), the core's schedule file reader, then what
 * fors check does with a schedule (fors_schedule_verify()), and the
 * reader's promise that what it accepts is written back unchanged: the
 * schedule written by fors_schedule_write() must read back the same, and
 * give the same text through the compact form too.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/schedfile.h"
#include "verify/verify.h"
#include "fuzz.h"

static int same_hosts(const struct fors_schedule *a,
		      const struct fors_schedule *b)
{
	size_t i;

	for (i = 0; i < a->nhosts; i++) {
		const struct fors_host *x = &a->hosts[i], *y = &b->hosts[i];

		if (x->sid != y->sid || x->guid != y->guid || x->lid != y->lid ||
		    x->port != y->port || strcmp(x->desc, y->desc))
			return 0;
	}
	return 1;
}

static int same_keys(const struct fors_schedule *a,
		     const struct fors_schedule *b)
{
	size_t i;

	for (i = 0; i < a->nextra; i++)
		if (strcmp(a->extra[i].key, b->extra[i].key) ||
		    strcmp(a->extra[i].value, b->extra[i].value))
			return 0;
	return 1;
}

/* Everything but the transfers, which the texts compare. */
static int same(const struct fors_schedule *a, const struct fors_schedule *b)
{
	return a->m0 == b->m0 && a->m1 == b->m1 && a->q == b->q &&
	       a->f == b->f && a->m == b->m && a->lmc == b->lmc &&
	       a->nphases == b->nphases && a->nxfers == b->nxfers &&
	       a->nhosts == b->nhosts && a->nextra == b->nextra &&
	       !memcmp(a->start, b->start, sizeof(*a->start) * (a->nphases + 1)) &&
	       same_hosts(a, b) && same_keys(a, b);
}

/* s written in one form (compact or not) into *buf; the writer's status. */
static int put(const struct fors_schedule *s, int compact, char **buf,
	       size_t *len)
{
	struct fors_error err;
	FILE *f = open_memstream(buf, len);
	int r;

	fuzz_require(f != NULL, "open_memstream failed");
	r = compact ? fors_schedule_write_compact(f, s, NULL, 0, &err) :
		fors_schedule_write(f, s);
	fclose(f);
	return r;
}

/* The text of what buf reads back as, which must be s's text. */
static void back(const struct fors_schedule *s, const char *buf, size_t len,
		 const char *text, size_t tlen)
{
	struct fors_schedule *b = NULL;
	struct fors_error err;
	char *t = NULL;
	size_t n = 0;
	FILE *f = fuzz_open((const uint8_t *)buf, len);

	fuzz_require(f != NULL, "fmemopen failed");
	fuzz_require(fors_schedule_read(f, "written", &b, &err) == FORS_OK,
		     err.msg);
	fclose(f);
	fuzz_require(same(s, b), "the schedule read back differs");
	fuzz_require(put(b, 0, &t, &n) == FORS_OK, "write failed");
	fuzz_require(n == tlen && !memcmp(t, text, n),
		     "the text read back differs");
	fors_schedule_free(b);
	free(t);
}

static void round_trip(const struct fors_schedule *s)
{
	char *text = NULL, *c = NULL;
	size_t tlen = 0, clen = 0;
	int r;

	fuzz_require(put(s, 0, &text, &tlen) == FORS_OK, "write failed");
	back(s, text, tlen, text, tlen);
	r = put(s, 1, &c, &clen);
	fuzz_require(r == FORS_OK || r == FORS_EVERIFY, "compact write failed");
	if (r == FORS_OK)
		back(s, c, clen, text, tlen);
	free(text);
	free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fuzz_open(data, size);
	struct fors_schedule *s;
	struct fors_error err;
	int r;

	if (!in)
		return 0;
	r = fors_schedule_read(in, "fuzz", &s, &err);
	fuzz_require(r != FORS_ENOMEM, FUZZ_NOMEM);
	if (r == FORS_OK) {
		fors_schedule_verify(s, &err);
		round_trip(s);
		fors_schedule_free(s);
	}
	fclose(in);
	return 0;
}
