// SPDX-License-Identifier: MIT
/*
 * The routed schedule, the contract with applications: the DLID an
 * application sends to is the route (the FORS paper's LID encoding,
 * Section 6.1), so every transfer gets the LID offset whose entry in the
 * source leaf's table is the plane the assignment chose.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/routed.h"

/* The host lines: every participating host port with its base LID. */
static int host_lines(const struct fors_lfts *t,
		      const struct fors_topology *live,
		      const struct fors_fabric *fb, const uint8_t *joins,
		      struct fors_schedule *s)
{
	uint32_t h;

	s->hosts = calloc(fb->nhosts + 1, sizeof(*s->hosts));
	if (!s->hosts)
		return FORS_ENOMEM;
	for (h = 0; h < fb->nhosts; h++) {
		struct fors_host *x = &s->hosts[s->nhosts];

		if (!joins[h])
			continue;
		x->sid = fb->hosts[h].sid;
		x->guid = fb->hosts[h].guid;
		x->lid = t->host_lid[h];
		x->port = fb->hosts[h].port;
		x->desc = strdup(live->nodes[fb->hosts[h].node].desc);
		s->nhosts++;
		if (!x->desc)
			return FORS_ENOMEM;
	}
	return 0;
}

/*
 * Each transfer's DLID: its destination's base LID plus the offset of its
 * plane from the source leaf, om's where it lists the plane, else (one
 * offset per plane) the nominal one, (plane - designated) mod q. A host
 * slot's leaf is looked up, not divided: four million transfers at NDR
 * scale.
 */
static int dlids(const struct fors_lfts *t, const struct fors_fabric *fb,
		 const struct fors_offmap *om, struct fors_schedule *s,
		 struct fors_error *err)
{
	uint32_t slots = fb->m0 * fb->m1, *leaf;
	int j = 0;
	size_t i;

	leaf = malloc(sizeof(*leaf) * (slots + 1));
	if (!leaf) {
		fors_error_set(err, "out of memory while giving DLIDs");
		return FORS_ENOMEM;
	}
	for (i = 0; i < slots; i++)
		leaf[i] = (uint32_t)i / fb->m0;
	for (i = 0; j >= 0 && i < s->nxfers; i++) {
		struct fors_xfer *x = &s->xfers[i];
		uint32_t d = (uint32_t)fb->host_at[x->dst];
		int32_t p = fors_xfer_plane(x);

		j = p < 0 ? 0 : om ? fors_offmap_offset(om, leaf[x->src], d, p) :
			-1;
		if (j < 0 && p >= 0 && (!om || om->k >= fb->q))
			j = (int)(((uint32_t)p + fb->q - t->designated[d]) % fb->q);
		if (j < 0)
			fors_error_set(err, "no LID offset reaches host %u through plane %d",
				       x->dst, p);
		else
			x->dlid = (uint16_t)(t->host_lid[d] + (uint32_t)j);
	}
	free(leaf);
	return j < 0 ? FORS_EINVAL : 0;
}

/* `method`, and `split` when phases had to be added. */
static int keys(const struct fors_assign_info *info, struct fors_schedule *s)
{
	char n[16];

	if (fors_schedule_add_key(s, "method", fors_method_name(info->method)))
		return FORS_ENOMEM;
	snprintf(n, sizeof(n), "%u", info->split);
	return info->split ? fors_schedule_add_key(s, "split", n) : 0;
}

int fors_routed_schedule(const struct fors_lfts *t,
			 const struct fors_topology *live,
			 const struct fors_fabric *fb, const uint8_t *joins,
			 const struct fors_offmap *om,
			 struct fors_schedule *planes,
			 const struct fors_assign_info *info,
			 struct fors_schedule **out, struct fors_error *err)
{
	struct fors_schedule *s = planes;
	int e = 0;

	*out = NULL;
	if (s->nhosts) {
		fors_error_set(err, "the planes come with host lines of their own");
		e = FORS_EINVAL;
	}
	if (!e)
		e = host_lines(t, live, fb, joins, s);
	if (!e)
		e = keys(info, s);
	if (e == FORS_ENOMEM)
		fors_error_set(err, "out of memory while writing host lines");
	if (!e) {
		s->lmc = (int)t->lmc;
		e = dlids(t, fb, om, s, err);
	}
	if (e) {
		fors_schedule_free(s);
		return e;
	}
	*out = s;
	return 0;
}
