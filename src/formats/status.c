// SPDX-License-Identifier: MIT
/* The cables as `fors status` shows them to the admin. */
#include <inttypes.h>
#include <string.h>

#include "formats/status.h"

static const char *name_of(const struct fors_topology *t, const char *id)
{
	uint32_t i;

	for (i = 0; t && i < t->nnodes; i++)
		if (!strcmp(t->nodes[i].id, id))
			return t->nodes[i].desc;
	return id;
}

static void when(FILE *out, const char *what, int64_t t, int64_t now)
{
	if (t)
		fprintf(out, ", %s %" PRId64 " s ago", what, now - t);
}

void fors_cables_print(FILE *out, const struct fors_cables *cs,
		       const struct fors_topology *seen, int64_t now)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		const struct fors_cable *c = &cs->c[i];

		if (!fors_cable_notable(c))
			continue;
		fprintf(out, "\"%s\"[%u] - \"%s\"[%u]: %s", name_of(seen, c->id[0]),
			c->port[0], name_of(seen, c->id[1]), c->port[1],
			fors_cable_state_name(c->state));
		if (c->state == FORS_CABLE_HELD)
			fprintf(out, " (carries data again in %" PRId64 " s)",
				c->up_since + (int64_t)cs->holddown - now);
		when(out, "went down", c->down_since, now);
		when(out, "came back", c->up_since, now);
		fprintf(out, ", %u flap%s\n", c->flaps, c->flaps == 1 ? "" : "s");
	}
}
