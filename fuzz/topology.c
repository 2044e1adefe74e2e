// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_topology_read() (ibnetdiscover output, ibsim net files) and
 * its promise of consistent links, then what a caller does with a
 * topology: fors_fabric_analyse() and, on small fabrics, the whole
 * fors_route_compute() with the topology's LIDs and with LIDs assigned.
 */
#include <stdlib.h>
#include <string.h>

#include "verify/check.h"
#include "fabric/fabric.h"
#include "formats/lftdump.h"
#include "routing/route.h"
#include "fabric/topology.h"
#include "verify/verify.h"
#include "fuzz.h"
#include "formats/ibnetdiscover.h"

/* Small enough that routing stays fast: schedules grow with slots squared. */
#define MAX_SLOTS 64

/* The reader's promise: every link names a real port that names it back. */
static int symmetric(const struct fors_topology *t)
{
	uint32_t i, k;

	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *n = &t->nodes[i];

		for (k = 1; k <= n->nports; k++) {
			const struct fors_port *pt = &n->ports[k], *o;

			if (pt->peer == FORS_NO_PEER)
				continue;
			if (pt->peer >= t->nnodes || pt->peer_port < 1 ||
			    pt->peer_port > t->nodes[pt->peer].nports)
				return 0;
			o = &t->nodes[pt->peer].ports[pt->peer_port];
			if (o->peer != i || o->peer_port != k)
				return 0;
		}
	}
	return 1;
}

/*
 * fors check tells nodes apart by GUID, and without one by description or
 * id: where two share a name, it may follow a table to the wrong twin.
 */
static int named_apart(const struct fors_topology *t)
{
	uint32_t i, j;

	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *x = &t->nodes[i];

		for (j = i + 1; j < t->nnodes; j++) {
			const struct fors_node *y = &t->nodes[j];

			if (!strcmp(x->desc, y->desc) || !strcmp(x->desc, y->id) ||
			    !strcmp(x->id, y->desc))
				return 0;
		}
	}
	return 1;
}

/*
 * fors route, then fors check on its files: the tables in OpenSM's dump
 * format must read back and deliver the schedule as it promises.
 */
static void check(const struct fors_topology *t, const struct fors_route *r)
{
	struct fors_check_report rep;
	struct fors_lft_dump *d;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int e;

	fuzz_require(f && fors_lfts_write(f, r->lfts, t, r->fb) == FORS_OK,
		     "cannot write the tables");
	fclose(f);
	f = fuzz_open((const uint8_t *)buf, len);
	fuzz_require(f != NULL, "fmemopen failed");
	fuzz_require(fors_lft_dump_read(f, "lfts", &d, &err) == FORS_OK,
		     err.msg);
	fclose(f);
	free(buf);
	e = fors_check_routes(t, d, r->s, &rep, &err);
	if (e == FORS_EVERIFY)
		fors_check_failures(&rep, err.msg, sizeof(err.msg));
	fuzz_require(e == FORS_OK, err.msg);
	fors_lft_dump_free(d);
}

static void route(const struct fors_topology *t, uint32_t q, int renumber)
{
	struct fors_route_opts o = { .lmc = 0, .renumber_lids = renumber };
	struct fors_route *r;
	struct fors_error err;

	while ((1u << o.lmc) < q && o.lmc < 7)
		o.lmc++;
	if (fors_route_compute(t, NULL, &o, &r, &err))
		return;
	fuzz_require(fors_schedule_verify(r->s, &err) == FORS_OK, err.msg);
	if (named_apart(t))
		check(t, r);
	fors_route_free(r);
}

static void analyse(const struct fors_topology *t)
{
	struct fors_fabric *fb;
	struct fors_error err;

	if (fors_fabric_analyse(t, NULL, &fb, &err))
		return;
	if ((uint64_t)fb->m0 * fb->m1 <= MAX_SLOTS) {
		route(t, fb->q, 0);
		route(t, fb->q, 1);
	}
	fors_fabric_free(fb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fuzz_open(data, size);
	struct fors_topology *t;
	struct fors_error err;
	int r;

	if (!in)
		return 0;
	r = fors_topology_read(in, "fuzz", &t, &err);
	fuzz_require(r != FORS_ENOMEM, FUZZ_NOMEM);
	if (r == FORS_OK) {
		fuzz_require(symmetric(t), "a link whose ends disagree");
		analyse(t);
		fors_topology_free(t);
	}
	fclose(in);
	return 0;
}
