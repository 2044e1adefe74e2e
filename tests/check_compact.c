// SPDX-License-Identifier: MIT
/*
 * The compact schedule file (version 2): every fixture and 300 seeded
 * schedules give the same text through it, byte for byte, the runs give
 * the phases one at a time, and a broken file is refused with what was
 * wrong.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/schedfile.h"
#include "formats/schedruns.h"
#include "routing/route.h"
#include "fabric_util.h"
#include "suite.h"
#include "sched_util.h"

#define to_text sched_to_text
#define from_buf sched_from_buf

static char *to_compact(const struct fors_schedule *s, size_t *len)
{
	struct fors_error err;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(fors_schedule_write_compact(f, s, NULL, 0, &err) == 0,
		      "%s", err.msg);
	fclose(f);
	return buf;
}

/* s's text, and the text of s through its compact form, are one. */
static void assert_round_trip(const struct fors_schedule *s, const char *what)
{
	struct fors_schedule *u;
	struct fors_error err;
	char *t1 = to_text(s), *t2, *c1, *c2;
	size_t n1, n2;

	c1 = to_compact(s, &n1);
	ck_assert_msg(from_buf(c1, n1, &u, &err) == 0, "%s: %s", what, err.msg);
	t2 = to_text(u);
	ck_assert_msg(!strcmp(t1, t2), "%s: the text differs", what);
	c2 = to_compact(u, &n2);
	ck_assert_msg(n1 == n2 && !memcmp(c1, c2, n1),
		      "%s: the compact form differs once read back", what);
	ck_assert_msg(fors_schedule_digest(s, NULL) ==
		      fors_schedule_digest(u, NULL), "%s: digest", what);
	fors_schedule_free(u);
	free(t1);
	free(t2);
	free(c1);
	free(c2);
}

static const char *const fixtures[] = {
	"tests/data/ft-4-4-1f-schedule-5abe188.dump",
	"fuzz/corpus/schedfile/abstract-2-4-q3.dump",
	"fuzz/corpus/schedfile/abstract-3-3-f1.dump",
	"fuzz/corpus/schedfile/fors-schedule-ibsim-ft-2-2.dump",
	"fuzz/corpus/schedfile/fors-schedule-netgen-3-3-cables2-1f.dump",
	"fuzz/corpus/schedfile/handmade-keys-escapes.dump",
	"fuzz/corpus/schedfile/ilp-lookup-absent.dump",
};

START_TEST(fixtures_round_trip)
{
	const char *top = getenv("srcdir") ? getenv("srcdir") : ".";
	struct fors_schedule *s;
	struct fors_error err;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", top, fixtures[_i]);
	ck_assert_msg(fors_schedule_read_file(path, &s, &err) == 0, "%s",
		      err.msg);
	assert_round_trip(s, fixtures[_i]);
	fors_schedule_free(s);
}
END_TEST

/* Phase p's transfers in a seeded order: the text sorts them by source. */
static void shuffle(struct fors_schedule *s, uint32_t p)
{
	size_t a = s->start[p], n = s->start[p + 1] - a, i, j;
	struct fors_xfer t;

	for (i = n; i > 1; i--) {
		j = rnd() % i;
		t = s->xfers[a + i - 1];
		s->xfers[a + i - 1] = s->xfers[a + j];
		s->xfers[a + j] = t;
	}
}

/*
 * Planes and DLIDs as a rule gives them (by phase, source and a cycle
 * that skips plane 0 in one kind), or at random; host lines with LIDs.
 */
static void dress(struct fors_schedule *s, int kind)
{
	uint32_t p, lids = 1u << s->lmc, q = s->q;
	size_t i;

	for (p = 0; p < s->nphases; p++) {
		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			struct fors_xfer *x = &s->xfers[i];
			int32_t pl = kind == 0 ? (int32_t)((p + x->src) % q) :
				kind == 1 ? (int32_t)(q > 1 ? 1 + (p + x->src) % (q - 1) : 0) :
				(int32_t)(rnd() % (q + 1)) - 1;

			if (x->src / s->m0 == x->dst / s->m0 && kind < 2)
				pl = -1;
			fors_xfer_set_plane(x, pl);
			x->dlid = kind == 2 && rnd() % 4 == 0 ?
				FORS_NO_DLID : (uint16_t)(1 + x->dst * lids +
							  (pl < 0 ? 0 : (uint32_t)pl % lids));
		}
		shuffle(s, p);
	}
}

/* Host lines for a seeded subset of the slots, most of them. */
static void add_hosts(struct fors_schedule *s)
{
	uint32_t sid, all = s->m0 * s->m1, lids = 1u << s->lmc;

	s->hosts = calloc(all, sizeof(*s->hosts));
	ck_assert_ptr_nonnull(s->hosts);
	for (sid = 0; sid < all; sid++) {
		if (rnd() % 8 == 0)
			continue;
		s->hosts[s->nhosts] = (struct fors_host){
			sid, 0x2c90300000000ull + sid, 1 + sid * lids, 1, NULL };
		s->hosts[s->nhosts].desc = strdup("H");
		ck_assert_ptr_nonnull(s->hosts[s->nhosts++].desc);
	}
}

/*
 * Seed i's schedule: FT(2;M0,M1) of up to 8 x 8 slots, Q and the LMC at
 * random, host lines for odd seeds, planes and DLIDs of kind i mod 3.
 */
static struct fors_schedule *seeded(uint64_t salt, int i)
{
	struct fors_sched_params sp = { 0, 0, 0, NULL };
	struct fors_schedule *s;
	struct fors_error err;

	test_rng = salt * (uint64_t)(i + 1);
	sp.m0 = 1 + rnd() % 8;
	sp.m1 = 2 + rnd() % 7;
	sp.f = rnd() % sp.m0;
	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), FORS_OK);
	s->q = 1 + rnd() % 12;
	s->lmc = (int)(rnd() % 4);
	if (i % 2)
		add_hosts(s);
	dress(s, i % 3);
	return s;
}

START_TEST(seeded_round_trip)
{
	struct fors_schedule *s = seeded(0x9e3779b97f4a7c15ull, _i);
	char what[32];

	snprintf(what, sizeof(what), "seed %d", _i);
	assert_round_trip(s, what);
	fors_schedule_free(s);
}
END_TEST

static int cmp_xfer_src(const void *a, const void *b)
{
	const struct fors_xfer *x = a, *y = b;

	return (x->src > y->src) - (x->src < y->src);
}

/*
 * The runs as the encoder leaves them, iterated phase by phase without a
 * file between, give each phase's transfers by source.
 */
START_TEST(iterated_phases)
{
	struct fors_schedule *s = seeded(0x51ed270b27e1f5a3ull, _i);
	struct fors_runs *r;
	struct fors_runs_iter *it;
	struct fors_xfer *x, *want;
	const char *why;
	size_t n, got, run, at;
	uint32_t p;

	ck_assert_int_eq(fors_runs_encode(s, &r), 0);
	ck_assert_uint_eq(fors_runs_transfers(r), s->nxfers);
	ck_assert_int_eq(fors_runs_iter_new(r, s, &it), 0);
	x = calloc(s->m0 * s->m1 + 1, sizeof(*x));
	want = calloc(s->m0 * s->m1 + 1, sizeof(*want));
	ck_assert(x && want);
	for (p = 0; p < s->nphases; p++) {
		at = s->start[p];
		n = s->start[p + 1] - at;
		memcpy(want, s->xfers + at, n * sizeof(*want));
		qsort(want, n, sizeof(*want), cmp_xfer_src);
		ck_assert_int_eq(fors_runs_iter_phase(it, x, &got, &why, &run), 0);
		ck_assert_uint_eq(got, n);
		ck_assert_mem_eq(x, want, n * sizeof(*x));
	}
	free(x);
	free(want);
	fors_runs_iter_free(it);
	fors_runs_free(r);
	fors_schedule_free(s);
}
END_TEST

/*
 * Every (host, phase) of 60 seeded schedules looked up in the runs by
 * sender, and in the runs by receiver, is the schedule's own transfer, or
 * none where the host is idle.
 */
START_TEST(looked_up)
{
	struct fors_schedule *s = seeded(0x2545f4914f6cdd1dull, _i);
	uint32_t all = s->m0 * s->m1, p, h, bad_host, bad_phase;
	struct fors_runs *r, *t;
	struct fors_runs_index *bs, *bd;
	struct fors_xfer *send, *recv, x;
	uint8_t *has = calloc((size_t)all * 2 + 1, 1);
	size_t i;

	send = calloc(all + 1, sizeof(*send));
	recv = calloc(all + 1, sizeof(*recv));
	ck_assert(has && send && recv);
	ck_assert_int_eq(fors_runs_encode(s, &r), 0);
	ck_assert_int_eq(fors_runs_transpose(r, s, &t, &bad_host, &bad_phase), 0);
	ck_assert_int_eq(fors_runs_index_new(r, s, &bs), 0);
	ck_assert_int_eq(fors_runs_index_new(t, s, &bd), 0);
	for (p = 0; p < s->nphases; p++) {
		memset(has, 0, (size_t)all * 2);
		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			send[s->xfers[i].src] = recv[s->xfers[i].dst] = s->xfers[i];
			has[s->xfers[i].src] |= 1;
			has[s->xfers[i].dst] |= 2;
		}
		for (h = 0; h < all; h++) {
			ck_assert_int_eq(fors_runs_index_at(bs, h, p, &x), has[h] & 1);
			if (has[h] & 1)
				ck_assert_mem_eq(&x, &send[h], sizeof(x));
			ck_assert_int_eq(fors_runs_index_at(bd, h, p, &x), has[h] >> 1);
			if (has[h] & 2) {
				ck_assert_uint_eq(x.src, h);
				ck_assert_uint_eq(x.dst, recv[h].src);
				ck_assert_int_eq(fors_xfer_plane(&x), fors_xfer_plane(&recv[h]));
				ck_assert_uint_eq(x.dlid, recv[h].dlid);
			}
		}
	}
	ck_assert_int_eq(fors_runs_index_at(bs, all, 0, &x), 0);
	ck_assert_int_eq(fors_runs_index_at(bs, 0, s->nphases, &x), 0);
	fors_runs_index_free(bs);
	fors_runs_index_free(bd);
	fors_runs_free(r);
	fors_runs_free(t);
	free(has);
	free(send);
	free(recv);
	fors_schedule_free(s);
}
END_TEST

/* A host receiving twice in a phase, or sending to itself, is named. */
START_TEST(transpose_refuses)
{
	static const char *const text[] = {
		"fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 2\n"
		"phase 0 0\nphase 1 2\n0 3 - -\n1 3 - -\nend 2\n",
		"fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 2\n"
		"phase 0 1\n0 1 - -\nphase 1 1\n2 2 - -\nend 2\n",
	};
	struct fors_schedule *s;
	struct fors_runs *r, *t;
	struct fors_error err;
	uint32_t host, phase;

	ck_assert_int_eq(from_buf(text[_i], strlen(text[_i]), &s, &err), 0);
	ck_assert_int_eq(fors_runs_encode(s, &r), 0);
	ck_assert_int_eq(fors_runs_transpose(r, s, &t, &host, &phase),
			 _i ? FORS_EINVAL : FORS_EVERIFY);
	ck_assert_ptr_null(t);
	ck_assert_uint_eq(host, _i ? 2 : 3);
	ck_assert_uint_eq(phase, 1);
	fors_runs_free(r);
	fors_schedule_free(s);
}
END_TEST

/* FNV-1a, 64 bits, written again here: the test's own, not the reader's. */
static uint64_t fnv1a(const unsigned char *b, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

#define HEAD2 "fors-schedule 2\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc 0 phases 3\n" \
	"host 0 0x0000000000000000 1 \"H0\" 1\nhost 1 0x0000000000000000 2 \"H1\" 1\n" \
	"host 2 0x0000000000000000 3 \"H2\" 1\nhost 3 0x0000000000000000 65534 \"H3\" 1\n"

/*
 * One source's runs as the file's numbers (each below 128, one byte):
 * source 0, one run, then the run's fields.
 */
static const struct {
	unsigned char runs[12];
	size_t len;
	unsigned nruns, pairs;
	const char *msg;
} crafted[] = {
	{ { 0, 1, 0, 0, 4, 1, 1 }, 7, 1, 1, NULL },
	{ { 0, 1, 0, 0, 4, 3, 0 }, 7, 1, 1, "t:7: run 1: a plane out of range" },
	{ { 0, 1, 6, 0, 4, 1, 0 }, 7, 1, 1, "t:7: run 1: a run past the last phase" },
	{ { 0, 1, 1, 0, 0, 0 }, 6, 1, 1, "t:7: run 1: a repeat with no run before it" },
	{ { 0, 2, 0, 0, 4, 1, 0, 5, 0, 0, 0 }, 11, 2, 4, "t:7: run 2: a repeat past the last phase" },
	{ { 0, 2, 0, 0, 4, 1, 0, 1, 0, 8, 0 }, 11, 2, 2, "t:7: run 2: a repeat's host step out of range" },
	{ { 0, 2, 0, 0, 4, 1, 0, 1, 0, 2, 2 }, 11, 2, 2, "t:7: run 2: a repeat's plane step out of range" },
	{ { 0, 1, 0, 3, 4, 1, 0 }, 7, 1, 4, "t:7: run 1: a run past the last phase" },
	{ { 0, 1, 0, 0, 8, 1, 0 }, 7, 1, 1, "t:7: run 1: a destination out of range" },
	{ { 0, 0 }, 2, 0, 0, "t:7: run 1: a source without runs" },
	{ { 4, 1, 0, 0, 4, 1, 0 }, 7, 1, 1, "t:7: run 1: a source out of range" },
	{ { 0, 1, 0, 0, 4 }, 5, 1, 1, "t:7: run 1: truncated runs" },
	{ { 0, 1, 0, 0, 6, 1, 13 }, 7, 1, 1, "t:7: run 1: a DLID out of range" },
	{ { 0, 1, 0, 1, 4, 16, 1, 0 }, 8, 1, 2, "t:7: run 1: a destination step out of range" },
	{ { 0, 1, 0, 1, 4, 3, 2, 1, 0, 1, 0 }, 11, 1, 2, "t:7: run 1: a plane cycle that does not hold its planes" },
	{ { 0, 1, 0, 0, 4, 1, 0 }, 7, 2, 1, "t:7: run 2: fewer runs than the 'runs' line says" },
	{ { 0, 1, 0, 0, 4, 1, 0 }, 7, 0, 1, "t:7: run 1: more runs than the 'runs' line says" },
	{ { 0, 1, 0, 0, 4, 1, 0 }, 7, 1, 2, "t:9: 'end' count differs" },
};

START_TEST(crafted_runs)
{
	char buf[1024];
	struct fors_schedule *s = NULL;
	struct fors_error err;
	int n, e;

	n = snprintf(buf, sizeof(buf), HEAD2 "runs %u %zu\n", crafted[_i].nruns,
		     crafted[_i].len);
	memcpy(buf + n, crafted[_i].runs, crafted[_i].len);
	n += (int)crafted[_i].len;
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "\nend %u %016llx\n",
		      crafted[_i].pairs,
		      (unsigned long long)fnv1a(crafted[_i].runs,
						crafted[_i].len));
	e = from_buf(buf, (size_t)n, &s, &err);
	if (!crafted[_i].msg) {
		ck_assert_msg(e == 0, "%s", err.msg);
		ck_assert_uint_eq(s->nxfers, 1);
		ck_assert_uint_eq(s->xfers[0].dst, 2);
		ck_assert_int_eq(fors_xfer_plane(&s->xfers[0]), 0);
		ck_assert_uint_eq(s->xfers[0].dlid, 3);
		fors_schedule_free(s);
		return;
	}
	ck_assert_int_eq(e, FORS_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_msg(!strncmp(err.msg, crafted[_i].msg,
			       strlen(crafted[_i].msg)),
		      "case %d: got \"%s\", want \"%s...\"", _i, err.msg,
		      crafted[_i].msg);
}
END_TEST

#define FABRIC3 "fabric hosts-per-leaf 4 leaves 2 planes 4 reduction 0 impacted 0 lmc 2 phases 4\n"
#define HOSTS3 \
	"host 0 0x0000000000000000 4 \"H0\" 1\n" \
	"host 1 0x0000000000000000 8 \"H1\" 1\n" \
	"host 2 0x0000000000000000 12 \"H2\" 1\n" \
	"host 3 0x0000000000000000 16 \"H3\" 1\n" \
	"host 4 0x0000000000000000 20 \"H4\" 1\n" \
	"host 5 0x0000000000000000 24 \"H5\" 1\n" \
	"host 6 0x0000000000000000 28 \"H6\" 1\n" \
	"host 7 0x0000000000000000 32 \"H7\" 1\n"

/*
 * Runs written by hand from the specification (schedule-format.md, "Version
 * 2"): host 0 steps among the hosts with a plane step and a DLID offset,
 * host 1 keeps planes 1 .. 3 (a cycle), host 2 has two runs apart, host 3
 * steps within a leaf, host 4 has a run and a repeat of it moved on by two
 * phases, two hosts and two planes. The text they read as was worked out
 * by hand too.
 */
static const unsigned char spec_runs[] = {
	0, 1, 0, 2, 8, 4, 2, 2, 3,
	0, 1, 0, 3, 8, 4, 3, 3, 1, 3, 0,
	0, 2, 0, 0, 10, 1, 0, 2, 0, 1, 0, 0,
	0, 1, 0, 2, 12, 5, 0, 0,
	0, 2, 0, 1, 0, 4, 1, 2, 0, 1, 0, 4, 2,
};

static const char spec_text[] =
	"fors-schedule 1\n" FABRIC3 HOSTS3
	"phase 0 5\n0 4 1 21\n1 4 2 -\n2 5 0 -\n3 6 - -\n4 0 0 -\n"
	"phase 1 4\n0 5 2 25\n1 5 3 -\n3 7 - -\n4 1 1 -\n"
	"phase 2 5\n0 6 3 29\n1 6 1 -\n2 4 - -\n3 4 - -\n4 2 2 -\n"
	"phase 3 2\n1 7 2 -\n4 3 3 -\n"
	"end 16\n";

START_TEST(spec_example)
{
	char buf[2048];
	struct fors_schedule *s;
	struct fors_error err;
	char *t;
	int n;

	n = snprintf(buf, sizeof(buf), "fors-schedule 2\n" FABRIC3 HOSTS3
		     "runs 7 %zu\n", sizeof(spec_runs));
	memcpy(buf + n, spec_runs, sizeof(spec_runs));
	n += (int)sizeof(spec_runs);
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "\nend 16 %016llx\n",
		      (unsigned long long)fnv1a(spec_runs, sizeof(spec_runs)));
	ck_assert_msg(from_buf(buf, (size_t)n, &s, &err) == 0, "%s", err.msg);
	t = to_text(s);
	ck_assert_str_eq(t, spec_text);
	free(t);
	fors_schedule_free(s);
}
END_TEST

/*
 * A file claiming more transfers than its slots have ordered pairs (two
 * slots, one source sending in all three phases) is refused before its
 * transfers are allocated.
 */
START_TEST(more_than_pairs)
{
	static const unsigned char runs[] = { 0, 1, 0, 2, 2, 0, 0, 0 };
	char buf[512];
	struct fors_schedule *s = NULL;
	struct fors_error err;
	int n;

	n = snprintf(buf, sizeof(buf), "fors-schedule 2\nfabric hosts-per-leaf 1 leaves 2 planes 1 reduction 0 impacted 0 lmc - phases 3\nruns 1 %zu\n",
		     sizeof(runs));
	memcpy(buf + n, runs, sizeof(runs));
	n += (int)sizeof(runs);
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "\nend 3 %016llx\n",
		      (unsigned long long)fnv1a(runs, sizeof(runs)));
	ck_assert_int_eq(from_buf(buf, (size_t)n, &s, &err), FORS_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(err.msg, "t:3: run 1: more transfers than the hosts have pairs");
}
END_TEST

/*
 * What the compact form cannot hold is refused by its writer, each with
 * its line: a host sending twice in a phase, more transfers than pairs.
 */
START_TEST(writer_refuses)
{
	static const char *const text[] = {
		"fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 1\n"
		"phase 0 2\n0 1 - -\n0 2 - -\nend 2\n",
		"fors-schedule 1\nfabric hosts-per-leaf 1 leaves 2 planes 1 reduction 0 impacted 0 lmc - phases 3\n"
		"phase 0 1\n0 1 - -\nphase 1 1\n0 1 - -\nphase 2 1\n0 1 - -\nend 3\n",
	};
	static const char *const why[] = {
		"a host sends twice in one phase: the compact form cannot hold the schedule",
		"3 transfers, more than the hosts have pairs: the compact form cannot hold the schedule",
	};
	struct fors_schedule *s;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(from_buf(text[_i], strlen(text[_i]), &s, &err), 0);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_schedule_write_compact(f, s, NULL, 0, &err),
			 FORS_EVERIFY);
	fclose(f);
	ck_assert_str_eq(err.msg, why[_i]);
	free(buf);
	fors_schedule_free(s);
}
END_TEST

/* A whole file damaged: each way gets its own message. */
START_TEST(damaged_files)
{
	struct fors_sched_params sp = { 4, 3, 1, NULL };
	struct fors_schedule *s, *u = NULL;
	struct fors_error err;
	size_t len, at;
	char *c, *d;

	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), FORS_OK);
	c = to_compact(s, &len);
	at = (size_t)(strstr(c, "runs ") - c);
	at += strcspn(c + at, "\n") + 3;
	d = malloc(len + 8);
	ck_assert_ptr_nonnull(d);
	memcpy(d, c, len);
	d[at] ^= 0x40;
	ck_assert_int_eq(from_buf(d, len, &u, &err), FORS_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "do not match the 'end' digest: the file is corrupt"));
	ck_assert_int_eq(from_buf(c, at, &u, &err), FORS_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "truncated file: runs shorter"));
	memcpy(d, c, len);
	memcpy(d + len, "x\n", 2);
	ck_assert_int_eq(from_buf(d, len + 2, &u, &err), FORS_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "content after 'end'"));
	ck_assert_int_eq(from_buf(c, len - 3, &u, &err), FORS_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "expected 'end <pairs> <digest>'"));
	ck_assert_ptr_null(u);
	free(c);
	free(d);
	fors_schedule_free(s);
}
END_TEST

/*
 * The compact form grows with the hosts and the rounds, not the
 * transfers: Algorithm 1's healthy FT(2;32,64) with planes as a leaf's
 * slots give them takes at most two runs per (host, round), the second
 * where a transfer inside the leaf cuts one, and a few bytes each; its
 * text takes 67 MB.
 */
START_TEST(healthy_size)
{
	struct fors_sched_params sp = { 32, 64, 0, NULL };
	struct fors_schedule *s;
	struct fors_error err;
	size_t len, i;
	char *c;
	unsigned long nruns;

	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), FORS_OK);
	for (i = 0; i < s->nxfers; i++)
		fors_xfer_set_plane(&s->xfers[i], s->xfers[i].src / 32 ==
				    s->xfers[i].dst / 32 ? -1 :
				    (int32_t)(s->xfers[i].dst % 32));
	c = to_compact(s, &len);
	ck_assert_int_eq(sscanf(strstr(c, "runs "), "runs %lu", &nruns), 1);
	ck_assert_uint_le(nruns, 2 * 2048 * 64);
	ck_assert_uint_le(len, 10 * nruns);
	free(c);
	fors_schedule_free(s);
}
END_TEST

/*
 * The healthy schedule fors routes a full FT(2;8,16) with takes three
 * records per host: a repeat carries the rounds, so the file grows with
 * the hosts, not the transfers.
 */
START_TEST(routed_three_per_host)
{
	struct fors_netgen g = { 8, 16, 8, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *t = gen_topology(&g);
	struct fors_route_opts o = { .lmc = 0, .renumber_lids = 1 };
	struct fors_route *rt;
	struct fors_error err;
	struct fors_runs *r;

	ck_assert_msg(fors_route_compute(t, NULL, &o, &rt, &err) == 0, "%s",
		      err.msg);
	ck_assert_int_eq(fors_runs_encode(rt->s, &r), 0);
	ck_assert_uint_eq(fors_runs_transfers(r), 128 * 127);
	ck_assert_uint_le(fors_runs_count(r), 3 * 128);
	fors_runs_free(r);
	fors_route_free(rt);
	fors_topology_free(t);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("compact");
	TCase *tc = tcase_create("compact");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, fixtures_round_trip, 0,
			    sizeof(fixtures) / sizeof(fixtures[0]));
	tcase_add_loop_test(tc, seeded_round_trip, 0, 300);
	tcase_add_loop_test(tc, iterated_phases, 0, 60);
	tcase_add_loop_test(tc, looked_up, 0, 60);
	tcase_add_loop_test(tc, transpose_refuses, 0, 2);
	tcase_add_loop_test(tc, crafted_runs, 0,
			    sizeof(crafted) / sizeof(crafted[0]));
	tcase_add_test(tc, spec_example);
	tcase_add_test(tc, more_than_pairs);
	tcase_add_loop_test(tc, writer_refuses, 0, 2);
	tcase_add_test(tc, damaged_files);
	tcase_add_test(tc, healthy_size);
	tcase_add_test(tc, routed_three_per_host);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
