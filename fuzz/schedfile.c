// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_schedule_read(), the core's schedule file reader, then what
 * fors check does with a schedule (fors_schedule_verify()), and the
 * reader's promise that what it accepts is written back unchanged: the
 * schedule written by fors_schedule_write() must read back the same.
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

static int same(const struct fors_schedule *a, const struct fors_schedule *b)
{
	return a->m0 == b->m0 && a->m1 == b->m1 && a->q == b->q &&
	       a->f == b->f && a->m == b->m && a->lmc == b->lmc &&
	       a->nphases == b->nphases && a->nxfers == b->nxfers &&
	       a->nhosts == b->nhosts && a->nextra == b->nextra &&
	       !memcmp(a->start, b->start, sizeof(*a->start) * (a->nphases + 1)) &&
	       !memcmp(a->xfers, b->xfers, sizeof(*a->xfers) * a->nxfers) &&
	       same_hosts(a, b) && same_keys(a, b);
}

static void round_trip(const struct fors_schedule *s)
{
	struct fors_schedule *back = NULL;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fuzz_require(f && fors_schedule_write(f, s) == FORS_OK, "write failed");
	fclose(f);
	f = fuzz_open((const uint8_t *)buf, len);
	fuzz_require(f != NULL, "fmemopen failed");
	fuzz_require(fors_schedule_read(f, "written", &back, &err) == FORS_OK,
		     err.msg);
	fuzz_require(same(s, back), "the schedule read back differs");
	fclose(f);
	fors_schedule_free(back);
	free(buf);
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
