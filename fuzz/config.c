// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_config_parse(), the plugin's fors.conf reader: whatever the
 * file holds, what it keeps is valid (fors.conf(5)): absolute paths, a
 * boolean, a hold-down in range. The same text goes to fors_guids_read()
 * (a participants file, OpenSM's cn_guid_file): what it keeps is port
 * GUIDs, none 0, ascending, each once. And to fors_rankfile_read() (fors
 * eval --shift-ranks): its hosts within the limits, their slots adding up
 * to its rank count, a GUID where a name spells one.
 */
#include <string.h>
#include <strings.h>

#include "formats/config.h"
#include "formats/guidfile.h"
#include "formats/rankfile.h"
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

static void guid_file(const uint8_t *data, size_t size)
{
	FILE *in = fuzz_open(data, size);
	struct fors_guids *g;
	struct fors_error err;
	size_t i;
	int r;

	if (!in)
		return;
	r = fors_guids_read(in, "cn", &g, &err);
	fuzz_require(r != FORS_ENOMEM, FUZZ_NOMEM);
	fuzz_require(!r == (g != NULL), "a result and an error at once");
	for (i = 0; g && i < g->n; i++)
		fuzz_require(g->g[i] && (!i || g->g[i - 1] < g->g[i]) &&
			     fors_guids_has(g, g->g[i]),
			     "a GUID 0, out of order, twice or not found");
	fuzz_require(!g || g->n, "an empty set kept");
	fors_guids_free(g);
	fclose(in);
}

static void rank_file(const uint8_t *data, size_t size)
{
	FILE *in = fuzz_open(data, size);
	struct fors_rankfile *rf;
	struct fors_error err;
	uint64_t ranks = 0;
	uint32_t i;
	int r;

	if (!in)
		return;
	r = fors_rankfile_read(in, "ranks", &rf, &err);
	fuzz_require(r != FORS_ENOMEM, FUZZ_NOMEM);
	fuzz_require(!r == (rf != NULL), "a result and an error at once");
	for (i = 0; rf && i < rf->nhosts; i++) {
		const struct fors_rank_host *h = &rf->host[i];

		fuzz_require(*h->name && strlen(h->name) <= FORS_RANKFILE_NAME &&
			     !strpbrk(h->name, "#=\n") && h->slots >= 1 &&
			     (!i || h->line > rf->host[i - 1].line),
			     "a host name empty, too long or with '#', '=', no slot, or lines out of order");
		fuzz_require((h->guid != 0) == !strncasecmp(h->name, "0x", 2),
			     "a GUID without 0x, or 0x without a GUID");
		ranks += h->slots;
	}
	fuzz_require(!rf || (rf->nhosts && ranks == rf->nranks &&
			     ranks <= FORS_RANKS_MAX),
		     "no host kept, or the ranks do not add up");
	fors_rankfile_free(rf);
	fclose(in);
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
	fuzz_require(absolute(c.participants) || !strcmp(c.participants, "all"),
		     "participants neither a path nor all");
	fors_config_free(&c);
	fclose(in);
	guid_file(data, size);
	rank_file(data, size);
	return 0;
}
