// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_lft_dump_read(): OpenSM's opensm-lfts.dump, fors's own dump
 * and ibroute output; then every entry of every table, so that a table
 * shorter than its header says is out of bounds.
 */
#include "routing/lft.h"
#include "formats/lftdump.h"
#include "fuzz.h"

/* Counted so that every entry is read, as fors check reads them. */
static void walk(const struct fors_lft_dump *d)
{
	uint64_t lids = 0, routed = 0;
	uint32_t i, lid;

	for (i = 0; i < d->nsw; i++) {
		const struct fors_lft_switch *sw = &d->sw[i];

		fuzz_require(sw->desc != NULL, "a switch without description");
		for (lid = 0; lid <= sw->maxlid; lid++)
			routed += sw->port[lid] != FORS_NO_PORT;
		lids += (uint64_t)sw->maxlid + 1;
	}
	fuzz_require(routed <= lids, "more routed LIDs than LIDs");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fuzz_open(data, size);
	struct fors_lft_dump *d;
	struct fors_error err;
	int r;

	if (!in)
		return 0;
	r = fors_lft_dump_read(in, "fuzz", &d, &err);
	fuzz_require(r != FORS_ENOMEM, FUZZ_NOMEM);
	if (r == FORS_OK) {
		walk(d);
		fors_lft_dump_free(d);
	}
	fclose(in);
	return 0;
}
