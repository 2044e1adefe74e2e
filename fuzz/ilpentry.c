// SPDX-License-Identifier: MIT
/*
 * Fuzzes the ILP cache's entry reader (ilp_entry_check()): the entries the
 * plugin's lookup trusts only after checking them, so whatever bytes sit
 * in the cache must end in a clear refusal, never a crash.
 */
#include <string.h>

#include "fuzz.h"
#include "store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	struct fors_error err;
	enum ilp_verdict v;
	int r;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	r = ilp_entry_check(buf, size, "fuzz", &v, &err);
	fuzz_require(r != FORS_ENOMEM, FUZZ_NOMEM);
	fuzz_require(r == ILP_HIT || r == FORS_EFORMAT, "unexpected status");
	free(buf);
	return 0;
}
