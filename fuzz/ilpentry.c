// SPDX-License-Identifier: MIT
/*
 * Fuzzes the ILP cache's entry reader (ilp_entry_check()): the entries the
 * plugin's lookup trusts only after checking them, so whatever bytes sit
 * in the cache must end in a clear refusal, never a crash. The input is
 * read as it is, then as the body of an entry with a valid checksum line
 * appended, or the fuzzer would hardly get past the checksum.
 */
#include <inttypes.h>
#include <string.h>

#include "fuzz.h"
#include "ilp/key.h"
#include "ilp/store.h"

static void check(char *buf, size_t len)
{
	struct fors_error err;
	enum ilp_verdict v;
	int r = ilp_entry_check(buf, len, "fuzz", &v, &err);

	fuzz_require(r != FORS_ENOMEM, FUZZ_NOMEM);
	fuzz_require(r == ILP_HIT || r == FORS_EFORMAT, "unexpected status");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 27);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	check(buf, size);
	memcpy(buf, data, size);
	snprintf(buf + size, 27, "checksum %016" PRIx64 "\n",
		 ilp_hash(data, size, ILP_HASH_INIT));
	check(buf, size + 26);
	free(buf);
	return 0;
}
