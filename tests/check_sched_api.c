// SPDX-License-Identifier: MIT
/*
 * libforssched against the core: every lookup of schedules the core routes
 * or builds checked by brute force, and broken files refused with the
 * line and what is wrong.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fors/fors-sched.h"
#include "routing/route.h"
#include "formats/schedfile.h"
#include "fabric_util.h"
#include "suite.h"

static int load_text(const char *text, size_t len, struct fors_sched **s,
		     char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int r;

	ck_assert_ptr_nonnull(f);
	r = fors_sched_read(s, f, "t", err, errlen);
	fclose(f);
	return r;
}

/* Through the file: the core writes it, the library reads it. */
static struct fors_sched *load_core(const struct fors_schedule *sc)
{
	struct fors_sched *s;
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_schedule_write(f, sc), FORS_OK);
	fclose(f);
	ck_assert_msg(load_text(buf, len, &s, err, sizeof(err)) == 0, "%s",
		      err);
	free(buf);
	return s;
}

/* The host line of each sid, by a scan of the core's hosts. */
static const struct fors_host **host_table(const struct fors_schedule *sc)
{
	const struct fors_host **t = calloc(sc->m0 * sc->m1 + 1, sizeof(*t));
	size_t i;

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < sc->nhosts; i++)
		t[sc->hosts[i].sid] = &sc->hosts[i];
	return t;
}

/*
 * Comparisons return whether they agree rather than assert: Check writes
 * a record for every passing assertion, millions of them here.
 */
static int same_host(const struct fors_sched_host *h,
		     const struct fors_host *w)
{
	if (!w || !h)
		return !w && !h;
	return h->sid == w->sid && h->guid == w->guid && h->lid == w->lid &&
	       h->port == w->port && !strcmp(h->desc, w->desc);
}

static int same_xfer(const struct fors_host **hs,
		     const struct fors_sched_xfer *x,
		     const struct fors_xfer *w)
{
	if (!w || !x)
		return !w && !x;
	return x->src == w->src && x->dst == w->dst &&
	       x->plane == fors_xfer_plane(w) &&
	       x->dlid == (w->dlid == FORS_NO_DLID ? -1 : w->dlid) &&
	       same_host(x->src_host, hs[w->src]) &&
	       same_host(x->dst_host, hs[w->dst]);
}

static void check_hosts(const struct fors_sched *s,
			const struct fors_schedule *sc,
			const struct fors_host **hs)
{
	uint32_t hosts = sc->m0 * sc->m1, sid;
	size_t i, j, n, guids, descs;
	const struct fors_sched_host *h;

	ck_assert_uint_eq(fors_sched_nhosts(s), sc->nhosts);
	ck_assert_ptr_null(fors_sched_host_at(s, sc->nhosts));
	for (sid = 0; sid <= hosts; sid++)
		if (!same_host(fors_sched_find_sid(s, sid), hs[sid]))
			ck_abort_msg("find_sid(%u)", sid);
	for (i = 0; i < sc->nhosts; i++) {
		const struct fors_host *w = &sc->hosts[i];

		for (guids = descs = 0, j = 0; j < sc->nhosts; j++) {
			guids += sc->hosts[j].guid == w->guid;
			descs += !strcmp(sc->hosts[j].desc, w->desc);
		}
		if (!same_host(fors_sched_host_at(s, i), w))
			ck_abort_msg("host_at(%zu)", i);
		h = fors_sched_find_guid(s, w->guid, &n);
		if (n != guids || !same_host(h, guids == 1 ? w : NULL))
			ck_abort_msg("find_guid of host %zu: %zu", i, n);
		h = fors_sched_find_desc(s, w->desc, 0, &n);
		if (n != descs || !same_host(h, descs == 1 ? w : NULL))
			ck_abort_msg("find_desc of host %zu: %zu", i, n);
		h = fors_sched_find_desc(s, w->desc, w->port, &n);
		if (n != 1 || !same_host(h, w))
			ck_abort_msg("find_desc of host %zu with port", i);
	}
}

/*
 * One phase's lookups against tables filled by a scan of its transfers;
 * one more sid than there are hosts, out of range, finds nothing.
 */
static void check_phase(const struct fors_sched *s,
			const struct fors_schedule *sc,
			const struct fors_host **hs, uint32_t p,
			const struct fors_xfer **snd,
			const struct fors_xfer **rcv)
{
	uint32_t hosts = sc->m0 * sc->m1, sid;
	const struct fors_sched_xfer *x;
	size_t i, n;

	memset(snd, 0, sizeof(*snd) * (hosts + 1));
	memset(rcv, 0, sizeof(*rcv) * (hosts + 1));
	x = fors_sched_phase(s, p, &n);
	ck_assert_uint_eq(n, sc->start[p + 1] - sc->start[p]);
	for (i = 0; i < n; i++) {
		const struct fors_xfer *w = &sc->xfers[sc->start[p] + i];

		if (!same_xfer(hs, &x[i], w))
			ck_abort_msg("phase %u: transfer %zu", p, i);
		snd[w->src] = rcv[w->dst] = w;
	}
	for (sid = 0; sid <= hosts; sid++) {
		if (!same_xfer(hs, fors_sched_send(s, p, sid), snd[sid]))
			ck_abort_msg("phase %u: what %u sends", p, sid);
		if (!same_xfer(hs, fors_sched_recv(s, p, sid), rcv[sid]))
			ck_abort_msg("phase %u: what %u receives", p, sid);
	}
}

/* Every lookup of s against what the core holds. */
static void cross_check(const struct fors_sched *s,
			const struct fors_schedule *sc)
{
	const struct fors_host **hs = host_table(sc);
	const struct fors_xfer **snd, **rcv;
	size_t n;
	uint32_t p;

	ck_assert_uint_eq(fors_sched_hosts_per_leaf(s), sc->m0);
	ck_assert_uint_eq(fors_sched_leaves(s), sc->m1);
	ck_assert_uint_eq(fors_sched_planes(s), sc->q);
	ck_assert_uint_eq(fors_sched_reduction(s), sc->f);
	ck_assert_uint_eq(fors_sched_impacted(s), sc->m);
	ck_assert_int_eq(fors_sched_lmc(s), sc->lmc);
	ck_assert_uint_eq(fors_sched_nphases(s), sc->nphases);
	check_hosts(s, sc, hs);
	snd = calloc(sc->m0 * sc->m1 + 1, sizeof(*snd));
	rcv = calloc(sc->m0 * sc->m1 + 1, sizeof(*rcv));
	ck_assert(snd && rcv);
	for (p = 0; p < sc->nphases; p++)
		check_phase(s, sc, hs, p, snd, rcv);
	ck_assert_ptr_null(fors_sched_phase(s, p, &n));
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(fors_sched_send(s, p, 0));
	ck_assert_ptr_null(fors_sched_recv(s, p, 0));
	free(snd);
	free(rcv);
	free(hs);
}

static struct fors_route *route(const struct fors_netgen *g,
				const struct fors_netgen *ref, uint32_t lmc)
{
	struct fors_topology *live = gen_topology(g), *r = gen_topology(ref);
	struct fors_route_opts o = { .lmc = lmc, .renumber_lids = 0 };
	struct fors_route *rt;
	struct fors_error err;

	ck_assert_msg(fors_route_compute(live, r, &o, &rt, &err) == FORS_OK,
		      "%s", err.msg);
	fors_topology_free(live);
	fors_topology_free(r);
	return rt;
}

/* Cut cables, an absent host, dual-port hosts: the solver's schedule. */
START_TEST(routed_small)
{
	uint8_t failed[4 * 6] = { 0 }, absent[24] = { 0 };
	struct fors_netgen g = { 6, 4, 6, 1, absent, 2, failed, NULL, 0, 0 };
	struct fors_netgen h = { 6, 4, 6, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_route *rt;
	struct fors_sched *s;

	failed[0 * 6 + 5] = failed[1 * 6 + 4] = 1;
	absent[7] = 1;
	rt = route(&g, &h, 3);
	ck_assert_int_eq(fors_schedule_add_key(rt->s, "generation", "42"), 0);
	s = load_core(rt->s);
	cross_check(s, rt->s);
	ck_assert_uint_eq(fors_sched_generation(s), 42);
	ck_assert_str_eq(fors_sched_method(s), "lec");
	ck_assert_str_eq(fors_sched_key(s, "generation"), "42");
	ck_assert_ptr_null(fors_sched_key(s, "split"));
	ck_assert_ptr_null(fors_sched_find_sid(s, 7));
	fors_sched_free(s);
	fors_route_free(rt);
}
END_TEST

/* The LHCb DAQ fabric, two cables of a leaf cut: 378 phases, 129,240 pairs. */
START_TEST(routed_lhcb)
{
	uint8_t failed[18 * 20] = { 0 };
	struct fors_netgen g = { 20, 18, 20, 1, NULL, 0, failed, NULL, 0, 0 };
	struct fors_netgen h = { 20, 18, 20, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_route *rt;
	struct fors_sched *s;

	failed[7] = failed[8] = 1;
	rt = route(&g, &h, 5);
	s = load_core(rt->s);
	ck_assert_uint_eq(fors_sched_nphases(s), 378);
	ck_assert_uint_eq(fors_sched_bound(s), 378);
	cross_check(s, rt->s);
	ck_assert_uint_eq(fors_sched_generation(s), 0);
	ck_assert_ptr_nonnull(fors_sched_method(s));
	fors_sched_free(s);
	fors_route_free(rt);
}
END_TEST

START_TEST(abstract)
{
	struct fors_sched_params sp = { 8, 5, 3, NULL };
	struct fors_schedule *sc;
	struct fors_error err;
	struct fors_sched *s;

	ck_assert_int_eq(fors_schedule_build(&sc, &sp, NULL, &err), FORS_OK);
	s = load_core(sc);
	cross_check(s, sc);
	ck_assert_int_eq(fors_sched_lmc(s), -1);
	ck_assert_ptr_null(fors_sched_method(s));
	ck_assert_ptr_null(fors_sched_send(s, 0, 0)->dst_host);
	fors_sched_free(s);
	fors_schedule_free(sc);
}
END_TEST

/* sc written in form to dir/sched (dir a mkdtemp template), into path. */
static void written(const struct fors_schedule *sc, enum fors_sched_form form,
		    char *dir, char *path, size_t len)
{
	struct fors_error e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, len, "%s/sched", dir);
	ck_assert_int_eq(fors_schedule_write_file(path, sc, form, &e), FORS_OK);
}

/* Written by the core to a file, which the library opens by name. */
START_TEST(open_file)
{
	struct fors_sched_params sp = { 4, 3, 1, NULL };
	char dir[] = "/tmp/fors-test-XXXXXX", path[64], err[512];
	struct fors_schedule *sc;
	struct fors_error e;
	struct fors_sched *s;

	ck_assert_int_eq(fors_schedule_build(&sc, &sp, NULL, &e), FORS_OK);
	written(sc, FORS_SCHED_TEXT, dir, path, sizeof(path));
	ck_assert_msg(fors_sched_open(&s, path, err, sizeof(err)) == 0, "%s",
		      err);
	cross_check(s, sc);
	fors_sched_free(s);
	unlink(path);
	rmdir(dir);
	s = (void *)1;
	ck_assert_int_eq(fors_sched_open(&s, path, err, sizeof(err)),
			 FORS_SCHED_EIO);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(err, "cannot open"));
	ck_assert_ptr_nonnull(strstr(err, path));
	ck_assert_int_eq(fors_sched_open(&s, path, NULL, 0), FORS_SCHED_EIO);
	ck_assert_int_eq(fors_sched_open(&s, path, err, 7), FORS_SCHED_EIO);
	ck_assert_str_eq(err, "cannot");
	fors_schedule_free(sc);
}
END_TEST

/* Two answers the same: both idle, or the same transfer and hosts. */
static void same_answer(int a, const struct fors_sched_xfer *x, int b,
			const struct fors_sched_xfer *y)
{
	ck_assert_int_eq(a, b);
	if (!a)
		return;
	ck_assert_uint_eq(x->src, y->src);
	ck_assert_uint_eq(x->dst, y->dst);
	ck_assert_int_eq(x->plane, y->plane);
	ck_assert_int_eq(x->dlid, y->dlid);
	ck_assert_uint_eq(x->src_host ? x->src_host->sid : UINT32_MAX,
			  y->src_host ? y->src_host->sid : UINT32_MAX);
	ck_assert_uint_eq(x->dst_host ? x->dst_host->sid : UINT32_MAX,
			  y->dst_host ? y->dst_host->sid : UINT32_MAX);
}

/*
 * sc written compact, opened with records and for lookups: every host's
 * send and receive of every phase answered alike, and as the records'.
 */
static void lookups_alike(const struct fors_schedule *sc)
{
	char dir[] = "/tmp/fors-test-XXXXXX", path[64], err[512];
	struct fors_sched *a, *b;
	struct fors_sched_xfer x, y;
	uint32_t p, h, all = sc->m0 * sc->m1;
	size_t n = 7;

	written(sc, FORS_SCHED_COMPACT, dir, path, sizeof(path));
	ck_assert_msg(fors_sched_open(&a, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(fors_sched_open_lookup(&b, path, err, sizeof(err)) == 0, "%s", err);
	for (p = 0; p <= sc->nphases; p++)
		for (h = 0; h <= all; h++) {
			const struct fors_sched_xfer *r = fors_sched_send(a, p, h);

			same_answer(fors_sched_send_into(a, p, h, &x), &x,
				    fors_sched_send_into(b, p, h, &y), &y);
			same_answer(r != NULL, r, fors_sched_send_into(a, p, h, &x), &x);
			r = fors_sched_recv(a, p, h);
			same_answer(fors_sched_recv_into(a, p, h, &x), &x,
				    fors_sched_recv_into(b, p, h, &y), &y);
			same_answer(r != NULL, r, fors_sched_recv_into(a, p, h, &x), &x);
		}
	ck_assert_ptr_null(fors_sched_send(b, 0, 0));
	ck_assert_ptr_null(fors_sched_recv(b, 0, 0));
	ck_assert_ptr_null(fors_sched_phase(b, 0, &n));
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(fors_sched_nphases(b), sc->nphases);
	fors_sched_free(a);
	fors_sched_free(b);
	unlink(path);
	rmdir(dir);
}

/*
 * The small routed schedule above, FT(2;8,8) with a cut at LMC 2 (fewer
 * offsets than planes) and an abstract one, looked up from runs.
 */
START_TEST(lookup_from_runs)
{
	uint8_t failed[4 * 6] = { 0 }, absent[24] = { 0 }, cut[8 * 8] = { 0 };
	struct fors_netgen g = { 6, 4, 6, 1, absent, 2, failed, NULL, 0, 0 };
	struct fors_netgen h = { 6, 4, 6, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_netgen l = { 8, 8, 8, 1, NULL, 0, cut, NULL, 0, 0 };
	struct fors_netgen lh = { 8, 8, 8, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_sched_params sp = { 8, 5, 3, NULL };
	struct fors_schedule *sc;
	struct fors_route *rt;
	struct fors_error err;

	failed[0 * 6 + 5] = failed[1 * 6 + 4] = 1;
	absent[7] = 1;
	rt = route(&g, &h, 3);
	lookups_alike(rt->s);
	fors_route_free(rt);
	cut[5 * 8 + 3] = 1;
	rt = route(&l, &lh, 2);
	lookups_alike(rt->s);
	fors_route_free(rt);
	ck_assert_int_eq(fors_schedule_build(&sc, &sp, NULL, &err), FORS_OK);
	lookups_alike(sc);
	fors_schedule_free(sc);
}
END_TEST

/* A version-1 file opened for lookups has its records, as ever. */
START_TEST(lookup_text)
{
	struct fors_sched_params sp = { 4, 3, 1, NULL };
	char dir[] = "/tmp/fors-test-XXXXXX", path[64], err[512];
	struct fors_schedule *sc;
	struct fors_error e;
	struct fors_sched *s;
	size_t n;

	ck_assert_int_eq(fors_schedule_build(&sc, &sp, NULL, &e), FORS_OK);
	written(sc, FORS_SCHED_TEXT, dir, path, sizeof(path));
	ck_assert_msg(fors_sched_open_lookup(&s, path, err, sizeof(err)) == 0, "%s", err);
	cross_check(s, sc);
	ck_assert_ptr_nonnull(fors_sched_phase(s, 0, &n));
	fors_sched_free(s);
	unlink(path);
	rmdir(dir);
	fors_schedule_free(sc);
}
END_TEST

/*
 * A compact file where a host receives twice, or sends to itself, is
 * refused for lookups with the records' message.
 */
START_TEST(lookup_refuses)
{
	static const char *const text[] = {
		"fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 2\n"
		"phase 0 0\nphase 1 2\n0 3 - -\n1 3 - -\nend 2\n",
		"fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 2\n"
		"phase 0 1\n0 1 - -\nphase 1 1\n2 2 - -\nend 2\n",
	};
	static const char *const why[] = {
		"host 3 receives twice in phase 1", "host 2 sends to itself in phase 1",
	};
	char dir[] = "/tmp/fors-test-XXXXXX", path[64], err[512], want[128];
	struct fors_schedule *sc;
	struct fors_error e;
	struct fors_sched *s;
	FILE *f = fmemopen((void *)text[_i], strlen(text[_i]), "r");

	ck_assert_int_eq(fors_schedule_read(f, "t", &sc, &e), 0);
	fclose(f);
	written(sc, FORS_SCHED_COMPACT, dir, path, sizeof(path));
	snprintf(want, sizeof(want), "%s: %s", path, why[_i]);
	ck_assert_int_eq(fors_sched_open_lookup(&s, path, err, sizeof(err)),
			 FORS_SCHED_EFORMAT);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(fors_sched_open(&s, path, err, sizeof(err)),
			 FORS_SCHED_EFORMAT);
	ck_assert_str_eq(err, want);
	unlink(path);
	rmdir(dir);
	fors_schedule_free(sc);
}
END_TEST

#define FABRIC "fabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc 1 phases 3"

/* A routed FT(2;2,2): comments and blank lines move every line number. */
static const char good[] =
	"# a comment\n"
	"fors-schedule 1\n"
	FABRIC " generation 17 method alg2\n"
	"host 0 0x0002c90300000001 2 \"node a\" 1\n"
	"host 1 0x0002c90300000002 4 \"node a\" 2\n"
	"\n"
	"host 2 0x0002c90300000003 6 \"node \\\"b\\\"\" 1\n"
	"host 3 0x0002c90300000003 8 \"node:c\" 1\n"
	"phase 0 4\n"
	"0 2 0 6\n1 3 1 9\n2 0 0 2\n3 1 1 5\n"
	"phase 1 4\n"
	"# comments anywhere\n"
	"0 3 1 9\n\t1  2 0 6 \n2 1 1 5\n3 0 0 2\n"
	"phase 2 4\n"
	"1 0 - 3\n0 1 - 4\n3 2 - 6\n2 3 - 8\n"
	"end 12\n";

START_TEST(lookups)
{
	struct fors_sched *s;
	const struct fors_sched_xfer *x;
	size_t n;
	char err[512];

	ck_assert_msg(load_text(good, strlen(good), &s, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(fors_sched_generation(s), 17);
	ck_assert_ptr_null(fors_sched_find_desc(s, "node a", 0, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(fors_sched_find_desc(s, "node a", 2, &n)->sid, 1);
	ck_assert_ptr_null(fors_sched_find_desc(s, "node a", 3, &n));
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(fors_sched_find_desc(s, "node \"b\"", 0, NULL)->sid,
			  2);
	ck_assert_uint_eq(fors_sched_find_desc(s, "node:c", 0, NULL)->sid, 3);
	ck_assert_ptr_null(fors_sched_find_desc(s, "node", 0, NULL));
	ck_assert_uint_eq(fors_sched_find_guid(s, 0x0002c90300000002ull,
					       &n)->sid, 1);
	ck_assert_ptr_null(fors_sched_find_guid(s, 0x0002c90300000003ull, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_null(fors_sched_find_guid(s, 0, &n));
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(fors_sched_find_guid(s, UINT64_MAX, &n));
	x = fors_sched_send(s, 2, 1);
	ck_assert_uint_eq(x->dst, 0);
	ck_assert_int_eq(x->plane, -1);
	ck_assert_int_eq(x->dlid, 3);
	ck_assert_str_eq(x->dst_host->desc, "node a");
	ck_assert_ptr_eq(fors_sched_recv(s, 2, 0), x);
	ck_assert_ptr_eq(fors_sched_phase(s, 2, &n) + 0, x);
	ck_assert_ptr_null(fors_sched_send(s, 0, 4));
	fors_sched_free(s);
	fors_sched_free(NULL);
}
END_TEST

/* The fabric line is line 3 of these, after a comment. */
#define PRE "# c\nfors-schedule 1\n" FABRIC
#define POST "\nphase 0 0\nphase 1 0\nphase 2 0\nend 0\n"

static const struct {
	const char *text;
	uint64_t gen;
	const char *msg;
} gens[] = {
	{ PRE POST, 0, NULL },
	{ PRE " generation 0" POST, 0, NULL },
	{ PRE " generation 1" POST, 1, NULL },
	{ PRE " method lec generation 0x10" POST, 16, NULL },
	{ PRE " generation 18446744073709551615" POST, UINT64_MAX, NULL },
	{ PRE " generation 18446744073709551616" POST, 0,
	  "t:3: bad value for key 'generation'" },
	{ PRE " generation -1" POST, 0, "t:3: bad value for key 'generation'" },
	{ PRE " generation 12x" POST, 0, "t:3: bad value for key 'generation'" },
	{ PRE " generation 1 generation 1" POST, 0,
	  "t:3: key 'generation' given twice" },
	{ PRE " generation" POST, 0, "t:3: fabric line: a key without a value" },
	{ PRE " bound 4294967296" POST, 0, "t:3: bad value for key 'bound'" },
	{ PRE " bound 3 bound 3" POST, 0, "t:3: key 'bound' given twice" },
	{ PRE " bound 3 generation 5" POST, 5, NULL },
};

START_TEST(generation)
{
	struct fors_sched *s = (void *)1;
	char err[512] = "";
	int i = _i, r;

	r = load_text(gens[i].text, strlen(gens[i].text), &s, err,
		      sizeof(err));
	if (!gens[i].msg) {
		ck_assert_msg(r == 0, "case %d: %s", i, err);
		ck_assert_uint_eq(fors_sched_generation(s), gens[i].gen);
		ck_assert_uint_eq(fors_sched_bound(s),
				  strstr(gens[i].text, "bound 3") ? 3 : 0);
		fors_sched_free(s);
		return;
	}
	ck_assert_int_eq(r, FORS_SCHED_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_msg(!strcmp(err, gens[i].msg), "case %d: got \"%s\"", i,
		      err);
}
END_TEST

/* What the index needs and the core's reader leaves to `fors check`. */
#define HEAD "fors-schedule 1\n" FABRIC "\n"
#define HOSTS "host 0 0x0000000000000001 1 \"a\" 1\nhost 1 0x0000000000000002 2 \"b\" 1\n"

static const struct {
	const char *text;
	const char *msg;
} broken[] = {
	{ HEAD HOSTS "# moved\n\nhost 0 0x0000000000000003 3 \"c\" 1\n"
	  "phase 0 0\nphase 1 0\nphase 2 0\nend 0\n",
	  "t:7: host 0 listed twice" },
	{ HEAD HOSTS "phase 0 2\n0 1 - -\n# c\n\n0 2 - -\nphase 1 0\nphase 2 0\nend 2\n",
	  "t:9: host 0 sends twice in phase 0" },
	{ HEAD "phase 0 0\nphase 1 0\nphase 2 3\n3 1 - -\n0 2 - -\n2 1 - -\nend 3\n",
	  "t:8: host 1 receives twice in phase 2" },
	{ HEAD "phase 0 1\n1 0 - -\nphase 1 2\n2 3 - -\n# x\n1 1 - -\nphase 2 0\nend 3\n",
	  "t:8: host 1 sends to itself in phase 1" },
	{ HEAD "phase 0 0\nphase 1 0\nphase 2 0\nend 0\nx\n",
	  "t:7: content after 'end'" },
};

START_TEST(inconsistent)
{
	struct fors_sched *s = (void *)1;
	char err[512];
	int i = _i;

	ck_assert_int_eq(load_text(broken[i].text, strlen(broken[i].text), &s,
				   err, sizeof(err)), FORS_SCHED_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_msg(!strcmp(err, broken[i].msg), "case %d: got \"%s\"", i,
		      err);
}
END_TEST

/* Where the first n lines of good end. */
static size_t lines(size_t n)
{
	const char *p = good;

	while (n--)
		p = strchr(p, '\n') + 1;
	return (size_t)(p - good);
}

/* Cut after a line: the reader names the last line it read. */
static const struct {
	size_t nlines;
	const char *msg;
} cuts[] = {
	{ 0, "t:0: empty file: expected 'fors-schedule 1' or 'fors-schedule 2'" },
	{ 1, "t:1: empty file: expected 'fors-schedule 1' or 'fors-schedule 2'" },
	{ 2, "t:2: expected the 'fabric' line" },
	{ 5, "t:5: truncated file: missing phases and 'end'" },
	{ 9, "t:9: truncated file: missing transfers and 'end'" },
	{ 12, "t:12: truncated file: missing transfers and 'end'" },
	{ 13, "t:13: truncated file: missing phases and 'end'" },
	{ 15, "t:15: truncated file: missing transfers and 'end'" },
	{ 24, "t:24: truncated file: no 'end' line" },
};

START_TEST(truncated_lines)
{
	struct fors_sched *s = (void *)1;
	char err[512];
	int i = _i;

	ck_assert_int_eq(load_text(good, lines(cuts[i].nlines), &s, err,
				   sizeof(err)), FORS_SCHED_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_msg(!strcmp(err, cuts[i].msg), "cut %d: got \"%s\"", i, err);
}
END_TEST

/* Every prefix but the one without the last newline is refused. */
START_TEST(truncated_bytes)
{
	size_t len = strlen(good), n;
	struct fors_sched *s;
	char err[512];
	int r;

	for (n = 0; n < len; n++) {
		err[0] = '\0';
		r = load_text(good, n, &s, err, sizeof(err));
		if (n == len - 1) {
			ck_assert_int_eq(r, 0);
			fors_sched_free(s);
			continue;
		}
		ck_assert_msg(r == FORS_SCHED_EFORMAT, "prefix %zu: %d", n, r);
		ck_assert_ptr_null(s);
		ck_assert_msg(!strncmp(err, "t:", 2) && strlen(err) > 4,
			      "prefix %zu: \"%s\"", n, err);
	}
}
END_TEST

int main(void)
{
	Suite *su = suite_create("sched_api");
	TCase *tc = tcase_create("api");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, routed_small);
	tcase_add_test(tc, routed_lhcb);
	tcase_add_test(tc, abstract);
	tcase_add_test(tc, open_file);
	tcase_add_test(tc, lookup_from_runs);
	tcase_add_test(tc, lookup_text);
	tcase_add_loop_test(tc, lookup_refuses, 0, 2);
	tcase_add_test(tc, lookups);
	tcase_add_loop_test(tc, generation, 0, sizeof(gens) / sizeof(gens[0]));
	tcase_add_loop_test(tc, inconsistent, 0,
			    sizeof(broken) / sizeof(broken[0]));
	tcase_add_loop_test(tc, truncated_lines, 0,
			    sizeof(cuts) / sizeof(cuts[0]));
	tcase_add_test(tc, truncated_bytes);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
