// SPDX-License-Identifier: MIT
/*
 * OpenSM's subnet as the core's topology, and the core's tables into
 * OpenSM's new_lft. Only reads of OpenSM objects and writes to new_lft:
 * OpenSM holds its lock around the routing callbacks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_switch.h>

#include "plugin/subnet.h"

static int cmp_guid(const void *a, const void *b)
{
	uint64_t x = cl_ntoh64(osm_node_get_node_guid(*(osm_node_t * const *)a));
	uint64_t y = cl_ntoh64(osm_node_get_node_guid(*(osm_node_t * const *)b));

	return x < y ? -1 : x > y;
}

/* By ascending node GUID (the table's keys are in network order). */
static osm_node_t **node_vector(osm_subn_t *sn, uint32_t *n)
{
	cl_qmap_t *m = &sn->node_guid_tbl;
	cl_map_item_t *it;
	osm_node_t **v = malloc(sizeof(*v) * (cl_qmap_count(m) + 1));
	uint32_t i = 0;

	if (!v)
		return NULL;
	for (it = cl_qmap_head(m); it != cl_qmap_end(m); it = cl_qmap_next(it))
		v[i++] = (osm_node_t *)it;
	qsort(v, i, sizeof(*v), cmp_guid);
	*n = i;
	return v;
}

static uint32_t index_of(osm_node_t **v, uint32_t n, const osm_node_t *x)
{
	uint64_t g = cl_ntoh64(osm_node_get_node_guid(x));
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t h = cl_ntoh64(osm_node_get_node_guid(v[mid]));

		if (h == g)
			return v[mid] == x ? mid : FORS_NO_PEER;
		if (h < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	return FORS_NO_PEER;
}

/* The node description as ibnetdiscover prints it: printable, no quotes. */
static void description(const osm_node_t *x, char *d)
{
	const char *s = (const char *)x->node_desc.description;
	size_t i;

	for (i = 0; i < IB_NODE_DESCRIPTION_SIZE && s[i]; i++)
		d[i] = (s[i] < 0x20 || s[i] > 0x7e || s[i] == '"') ? '?' : s[i];
	d[i] = '\0';
}

static int add_node(struct fors_topology *t, const osm_node_t *x,
		    struct fors_error *err)
{
	uint8_t type = osm_node_get_type(x);
	uint64_t g = cl_ntoh64(osm_node_get_node_guid(x));
	char id[24], d[IB_NODE_DESCRIPTION_SIZE + 1];
	struct fors_node *n;

	if (type != IB_NODE_TYPE_SWITCH && type != IB_NODE_TYPE_CA) {
		fors_error_set(err, "node 0x%016" PRIx64 " is a router: not a two-level fat tree",
			       g);
		return FORS_EINVAL;
	}
	snprintf(id, sizeof(id), "%c-%016" PRIx64,
		 type == IB_NODE_TYPE_SWITCH ? 'S' : 'H', g);
	description(x, d);
	if (fors_node_init(t, type == IB_NODE_TYPE_SWITCH ? FORS_SWITCH : FORS_CA,
			   id, d[0] ? d : id, osm_node_get_num_physp(x) - 1)) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	n = &t->nodes[t->nnodes - 1];
	n->guid = g;
	n->sysguid = cl_ntoh64(x->node_info.sys_guid);
	if (type == IB_NODE_TYPE_SWITCH)
		n->lid = cl_ntoh16(osm_node_get_base_lid(x, 0));
	return 0;
}

static void add_links(struct fors_topology *t, osm_node_t **v, uint32_t nv,
		      uint32_t i)
{
	struct fors_node *n = &t->nodes[i];
	uint32_t k;

	for (k = 1; k <= n->nports; k++) {
		osm_physp_t *p = osm_node_get_physp_ptr(v[i], k);
		osm_physp_t *r;
		uint32_t j;

		if (!p || !osm_physp_is_valid(p))
			continue;
		if (n->type == FORS_CA) {
			n->ports[k].guid = cl_ntoh64(osm_physp_get_port_guid(p));
			n->ports[k].lid = cl_ntoh16(osm_physp_get_base_lid(p));
		}
		r = osm_physp_get_remote(p);
		if (!r)
			continue;
		j = index_of(v, nv, osm_physp_get_node_ptr(r));
		if (j == FORS_NO_PEER ||
		    osm_physp_get_port_num(r) > t->nodes[j].nports)
			continue;
		n->ports[k].peer = j;
		n->ports[k].peer_port = osm_physp_get_port_num(r);
	}
}

int fors_subnet_topology(osm_subn_t *sn, struct fors_topology **out,
			 struct fors_error *err)
{
	struct fors_topology *t;
	osm_node_t **v;
	uint32_t n, i;
	int e = 0;

	*out = NULL;
	v = node_vector(sn, &n);
	t = v ? fors_topology_new(n) : NULL;
	if (!t) {
		free(v);
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	for (i = 0; i < n && !e; i++)
		e = add_node(t, v[i], err);
	for (i = 0; i < n && !e; i++)
		add_links(t, v, n, i);
	free(v);
	if (e) {
		fors_topology_free(t);
		return e;
	}
	*out = t;
	return 0;
}

static osm_switch_t *switch_of(osm_subn_t *sn, const struct fors_node *n)
{
	return osm_get_switch_by_guid(sn, cl_hton64(n->guid));
}

int fors_subnet_install(osm_subn_t *sn, const struct fors_topology *live,
			const struct fors_lfts *lf, struct fors_error *err)
{
	uint32_t i, lid;

	for (i = 0; i < lf->nsw; i++) {
		const struct fors_node *n = &live->nodes[lf->sw[i]];
		osm_switch_t *sw = switch_of(sn, n);

		if (!sw || !sw->new_lft) {
			fors_error_set(err, "switch %s (0x%016" PRIx64 ") has no forwarding table to fill",
				       n->desc, n->guid);
			return FORS_EINVAL;
		}
		for (lid = 1; lid <= lf->maxlid && lid < sw->lft_size; lid++) {
			uint8_t p = fors_lft(lf, i, lid);

			sw->new_lft[lid] = p == FORS_NO_PORT ? OSM_NO_PATH : p;
		}
	}
	return 0;
}

static int dump_switch(struct fors_lft_switch *d, const struct fors_node *n,
		       const osm_switch_t *sw, int held)
{
	uint32_t top = sw->max_lid_ho < sw->lft_size ? sw->max_lid_ho :
		       sw->lft_size - 1u;

	d->guid = n->guid;
	d->lid = n->lid;
	d->maxlid = top;
	d->desc = strdup(n->desc);
	d->port = malloc(top + 1);
	if (!d->desc || !d->port)
		return FORS_ENOMEM;
	memcpy(d->port, held ? sw->lft : sw->new_lft, top + 1);
	return 0;
}

int fors_subnet_dump(osm_subn_t *sn, const struct fors_topology *live,
		     const struct fors_lfts *lf, int held,
		     struct fors_lft_dump **out, struct fors_error *err)
{
	struct fors_lft_dump *d = calloc(1, sizeof(*d));
	uint32_t i;
	int e = 0;

	*out = NULL;
	if (d)
		d->sw = calloc(lf->nsw + 1, sizeof(*d->sw));
	if (!d || !d->sw) {
		free(d);
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	for (i = 0; i < lf->nsw && !e; i++) {
		const struct fors_node *n = &live->nodes[lf->sw[i]];
		osm_switch_t *sw = switch_of(sn, n);

		d->nsw++;
		e = sw && sw->new_lft && sw->lft ?
		    dump_switch(&d->sw[i], n, sw, held) : FORS_EINVAL;
	}
	if (e) {
		fors_lft_dump_free(d);
		fors_error_set(err, e == FORS_ENOMEM ? "out of memory" :
			       "a switch vanished from OpenSM's subnet");
		return e;
	}
	*out = d;
	return 0;
}
