// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_config_parse(), the plugin's fors.conf reader: whatever the
 * file holds, what it keeps is valid (fors.conf(5)): absolute paths, a
 * boolean, a hold-down in range.
 */
#include <string.h>

#include "formats/config.h"
#include "fuzz.h"

static void note(void *ctx, int error, const char *msg)
{
	(void)error;
	*(size_t *)ctx += strlen(msg);
}

static int absolute(const char *path)
{
	return !path || path[0] == '/';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fuzz_open(data, size);
	struct fors_config c;
	size_t said = 0;

	if (!in)
		return 0;
	fors_config_defaults(&c);
	fors_config_parse(in, "fors.conf", &c, note, &said);
	fuzz_require(absolute(c.schedule_file) && absolute(c.state_file) &&
		     absolute(c.reference_topology), "a relative path kept");
	fuzz_require(c.verify == 0 || c.verify == 1, "verify neither 0 nor 1");
	fuzz_require(c.link_holddown_s <= FORS_HOLDDOWN_MAX,
		     "a hold-down beyond its range");
	fors_config_free(&c);
	fclose(in);
	return 0;
}
