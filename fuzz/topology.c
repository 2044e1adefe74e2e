// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_topology_read() (ibnetdiscover output, ibsim net files), then
 * what a caller does with a topology: fors_fabric_analyse() and, on small
 * fabrics, the whole fors_route_compute() with the topology's LIDs and
 * with LIDs assigned.
 */
#include "fors/fabric.h"
#include "fors/route.h"
#include "fors/topology.h"
#include "fuzz.h"

/* Small enough that routing stays fast: schedules grow with slots squared. */
#define MAX_SLOTS 64

static void route(const struct fors_topology *t, uint32_t q, int renumber)
{
	struct fors_route_opts o = { .lmc = 0, .renumber_lids = renumber };
	struct fors_route *r;
	struct fors_error err;

	while ((1u << o.lmc) < q && o.lmc < 7)
		o.lmc++;
	if (fors_route_compute(t, NULL, &o, &r, &err) == FORS_OK)
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

	if (!in)
		return 0;
	if (fors_topology_read(in, "fuzz", &t, &err) == FORS_OK) {
		analyse(t);
		fors_topology_free(t);
	}
	fclose(in);
	return 0;
}
