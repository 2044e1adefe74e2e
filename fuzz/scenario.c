// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_scenario_read(), the reader of what `fors ilp lookup` gets
 * on its standard input, and its promise that what it accepts reads back
 * the same once written; then the abstract fabric and the scenario's key.
 */
#include <string.h>

#include "fabric/scenario.h"
#include "fuzz.h"
#include "ilp/key.h"
#include "formats/scenfile.h"

static int same(const struct fors_scenario *a, const struct fors_scenario *b)
{
	return a->m0 == b->m0 && a->m1 == b->m1 && a->q == b->q &&
	       !memcmp(a->present, b->present, (size_t)a->m0 * a->m1) &&
	       !memcmp(a->live, b->live, (size_t)a->m1 * a->q);
}

static void round_trip(const struct fors_scenario *sc)
{
	struct fors_scenario *back = NULL;
	struct fors_error err;
	char *buf = NULL, *text = NULL;
	size_t len = 0, tlen = 0;
	uint64_t h;
	FILE *f = open_memstream(&buf, &len);

	fuzz_require(f && fors_scenario_write(f, sc) == FORS_OK, "write failed");
	fclose(f);
	f = fuzz_open((const uint8_t *)buf, len);
	fuzz_require(f && !fors_scenario_read(f, "written", &back, &err),
		     "the scenario written does not read back");
	fuzz_require(same(sc, back), "the scenario read back differs");
	fclose(f);
	fors_scenario_free(back);
	fuzz_require(!ilp_scenario_key(sc, &text, &tlen, &h), FUZZ_NOMEM);
	free(text);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fuzz_open(data, size);
	struct fors_scenario *sc;
	struct fors_fabric *fb;
	struct fors_error err;
	int r;

	if (!in)
		return 0;
	r = fors_scenario_read(in, "fuzz", &sc, &err);
	fuzz_require(r != FORS_ENOMEM, FUZZ_NOMEM);
	if (r == FORS_OK) {
		round_trip(sc);
		if (!fors_scenario_fabric(sc, &fb, &err))
			fors_fabric_free(fb);
		fors_scenario_free(sc);
	}
	fclose(in);
	return 0;
}
