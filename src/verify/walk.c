// SPDX-License-Identifier: MIT
/* Packets through a set of LFTs, hop by hop, as the switches forward them. */
#include <stdlib.h>
#include <string.h>

#include "routing/lft.h"
#include "verify/walk.h"

int fors_walk_init(struct fors_walk *w, const struct fors_topology *t,
		   const struct fors_lft_dump *d)
{
	uint32_t i, k;

	w->t = t;
	w->d = d;
	w->table = malloc(sizeof(int32_t) * (t->nnodes + 1));
	if (!w->table)
		return FORS_ENOMEM;
	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *n = &t->nodes[i];

		w->table[i] = -1;
		for (k = 0; n->type == FORS_SWITCH && k < d->nsw; k++) {
			const struct fors_lft_switch *s = &d->sw[k];

			if ((n->guid && s->guid == n->guid) ||
			    (!(n->guid && s->guid) &&
			     (!strcmp(s->desc, n->desc) || !strcmp(s->desc, n->id)))) {
				w->table[i] = (int32_t)k;
				break;
			}
		}
	}
	return 0;
}

void fors_walk_free(struct fors_walk *w)
{
	free(w->table);
	w->table = NULL;
}

void fors_walk_forward(const struct fors_walk *w, uint32_t x, uint32_t dlid,
		       struct fors_hop *h,
		       void (*use)(void *arg, uint32_t node, uint32_t port),
		       void *arg)
{
	const struct fors_topology *t = w->t;

	h->nsw = 0;
	h->fail = NULL;
	for (;;) {
		uint32_t k;

		h->node = x;
		if (w->table[x] < 0) {
			h->fail = "reaches a switch without an LFT";
			return;
		}
		if (h->nsw == FORS_MAX_HOPS) {
			h->fail = "loops";
			return;
		}
		h->sw[h->nsw++] = x;
		k = fors_walk_port(w, x, dlid);
		if (k == 0 || k == FORS_NO_PORT) {
			h->fail = k == 0 ? "is consumed by a switch" :
				  "has no route or a dead port";
			return;
		}
		if (use)
			use(arg, x, k);
		h->node = t->nodes[x].ports[k].peer;
		h->port = t->nodes[x].ports[k].peer_port;
		if (t->nodes[h->node].type == FORS_CA)
			return;
		x = h->node;
	}
}
