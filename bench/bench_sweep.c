// SPDX-License-Identifier: MIT
/*
 * The plugin's heavy sweep without OpenSM: route, stage against the tables
 * the switches hold, verify the tables as read back, write the state and
 * schedule files. A healthy sweep, then one with a cable cut, on a fabric
 * given as netgen's shape; the spans are the plugin's log line's (route,
 * stage, verify, files), the read-back a dump of the tables (untimed),
 * and the schedule file's write on its own thread, waited for at once.
 * See doc/performance.md.
 *
 *   bench_sweep M0 M1 SPINES LMC RUNS [LEAF:SPINE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/ibnetdiscover.h"
#include "formats/netgen.h"
#include "sweep/publish.h"
#include "sweep/sweep.h"
#include "sys/clock.h"
#include "sys/memory.h"

struct bench {
	uint32_t m0, m1, ns, lmc, cut_leaf, cut_spine;
	int cut;
	char dir[64], sched[128], state[128];
};

static void sink(void *ctx, int error, const char *msg)
{
	(void)ctx;
	if (error)
		fprintf(stderr, "bench_sweep: %s\n", msg);
}

static struct fors_topology *topology(const struct bench *b, int cut)
{
	size_t n = (size_t)b->m1 * b->ns;
	uint8_t *failed = calloc(n + 1, 1);
	struct fors_netgen g = { b->m0, b->m1, b->ns, 1, NULL, 0, failed,
				 NULL, 0, 0 };
	struct fors_topology *t = NULL;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = failed ? open_memstream(&buf, &len) : NULL;

	if (cut && failed)
		failed[b->cut_leaf * b->ns + b->cut_spine] = 1;
	if (f && !fors_netgen_write(f, &g)) {
		fclose(f);
		f = fmemopen(buf, len, "r");
		if (f && fors_topology_read(f, "bench", &t, &err))
			fprintf(stderr, "bench_sweep: %s\n", err.msg);
	}
	if (f)
		fclose(f);
	free(buf);
	free(failed);
	return t;
}

static int read_back(void *ctx, const struct fors_sweep *sw,
		     struct fors_lft_dump **out, struct fors_error *err)
{
	double *skip = ctx, t = fors_clock_ms();
	int e = fors_lfts_dump(fors_sweep_tables(sw), sw->live, out, err);

	*skip += fors_clock_ms() - t;
	return e;
}

/*
 * One sweep of live (taken) over held (taken, NULL: none); its spans, and
 * in *keep (unless NULL) the switches' tables it leaves.
 */
static int sweep(struct fors_sweep_state *st, const struct bench *b,
		 struct fors_topology *live, struct fors_lft_dump *held,
		 double *ms, struct fors_lft_dump **keep)
{
	struct fors_route_opts o = { .lmc = b->lmc };
	struct fors_sweep *sw = NULL;
	struct fors_error err;
	double t = fors_clock_ms(), skip = 0;
	int e = fors_sweep_route(st, live, 100, &o, &sw, &err);

	if (!e) {
		ms[0] = fors_clock_ms() - t;
		t = fors_clock_ms();
		e = fors_sweep_stage(st, sw, held, &err);
		held = NULL;
		ms[1] = fors_clock_ms() - t;
	}
	if (!e)
		e = fors_sweep_finish(st, sw, read_back, &skip, 100, &err);
	if (!e) {
		ms[2] = sw->ms[FORS_SPAN_VERIFY] - skip;
		ms[3] = sw->ms[FORS_SPAN_FILES];
		t = fors_clock_ms();
		fors_sweep_flush(st);
		ms[4] = fors_clock_ms() - t;
		if (keep && fors_lfts_dump(fors_sweep_tables(sw), sw->live,
					   keep, &err))
			e = -1;
	} else {
		fprintf(stderr, "bench_sweep: %s\n", err.msg);
	}
	fors_lft_dump_free(held);
	fors_sweep_free(sw);
	return e;
}

/* A fresh state, the healthy sweep, then the cut one over its tables. */
static int run(const struct bench *b, double ms[2][5])
{
	struct fors_sweep_config c = { .schedule_path = b->sched,
				       .state_path = b->state,
				       .verify = 1 };
	struct fors_sweep_state *st;
	struct fors_lft_dump *held = NULL;
	int e;

	if (fors_sweep_state_open(&c, sink, NULL, &st))
		return -1;
	e = sweep(st, b, topology(b, 0), NULL, ms[0], b->cut ? &held : NULL);
	if (!e && b->cut)
		e = sweep(st, b, topology(b, 1), held, ms[1], NULL);
	fors_sweep_state_free(st);
	unlink(b->sched);
	unlink(b->state);
	return e;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static void print(const char *what, double v[][5], int n, int k)
{
	static const char *const name[] = { "route", "stage", "verify",
					     "files", "write" };
	double col[64];
	int i, j;

	printf("%-8s", what);
	for (j = 0; j < 5; j++) {
		for (i = 0; i < n; i++)
			col[i] = v[i * 2 + k][j];
		qsort(col, (size_t)n, sizeof(double), cmp);
		printf("  %s %7.1f", name[j], col[n / 2]);
	}
	printf(" ms (medians of %d)\n", n);
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };
	double ms[64][2][5] = { 0 };
	int runs, i;

	if (argc < 6 || argc > 7 || (runs = atoi(argv[5])) < 1 || runs > 64 ||
	    (argc == 7 && sscanf(argv[6], "%u:%u", &b.cut_leaf,
				 &b.cut_spine) != 2)) {
		fprintf(stderr, "usage: bench_sweep M0 M1 SPINES LMC RUNS [LEAF:SPINE]\n");
		return 2;
	}
	fors_memory_tune();	/* as the plugin does */
	b.m0 = (uint32_t)atoi(argv[1]);
	b.m1 = (uint32_t)atoi(argv[2]);
	b.ns = (uint32_t)atoi(argv[3]);
	b.lmc = (uint32_t)atoi(argv[4]);
	b.cut = argc == 7;
	snprintf(b.dir, sizeof(b.dir), "/tmp/bench_sweep-XXXXXX");
	if (!mkdtemp(b.dir))
		return 1;
	snprintf(b.sched, sizeof(b.sched), "%s/schedule.dump", b.dir);
	snprintf(b.state, sizeof(b.state), "%s/state", b.dir);
	for (i = 0; i < runs; i++)
		if (run(&b, ms[i]))
			return 1;
	rmdir(b.dir);
	printf("FT(2;%u,%u) %u spines, LMC %u\n", b.m0, b.m1, b.ns, b.lmc);
	print("healthy", &ms[0][0], runs, 0);
	if (b.cut)
		print("one cut", &ms[0][0], runs, 1);
	return 0;
}
