// SPDX-License-Identifier: MIT
/*
 * The ILP cache: canonical keys, the model, the store's defences, routing
 * from the cache with the real CBC, and the native solver as the oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "routing/assign.h"
#include "ilp/lookup.h"
#include "ilp/precompute.h"
#include "formats/netgen.h"
#include "verify/verify.h"
#include "ilp/model.h"
#include "ilp/store.h"
#include "sys/trust.h"
#include "suite.h"
#include "formats/scenfile.h"

/* FT(2;m0,m1) with q planes, every host present, cable (leaf, plane) cut. */
static struct fors_scenario *scen(uint32_t m0, uint32_t m1, uint32_t q,
				  const uint32_t *cut, uint32_t ncut)
{
	struct fors_scenario *sc = fors_scenario_new(m0, m1, q);
	uint32_t i;

	ck_assert_ptr_nonnull(sc);
	memset(sc->present, 1, (size_t)m0 * m1);
	memset(sc->live, 1, (size_t)m1 * q);
	for (i = 0; i < ncut; i++)
		sc->live[cut[2 * i] * q + cut[2 * i + 1]] = 0;
	return sc;
}

/* The same scenario with its planes relabelled by perm. */
static struct fors_scenario *permuted(const struct fors_scenario *sc,
				      const uint32_t *perm)
{
	struct fors_scenario *o = fors_scenario_new(sc->m0, sc->m1, sc->q);
	uint32_t l, p;

	ck_assert_ptr_nonnull(o);
	memcpy(o->present, sc->present, (size_t)sc->m0 * sc->m1);
	for (l = 0; l < sc->m1; l++)
		for (p = 0; p < sc->q; p++)
			o->live[l * sc->q + perm[p]] = sc->live[l * sc->q + p];
	return o;
}

static void shuffle(uint32_t *a, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		a[i] = i;
	for (i = n; i > 1; i--) {
		uint32_t j = rnd() % i, t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

static struct fors_fabric *fabric(const struct fors_scenario *sc)
{
	struct fors_fabric *fb;
	struct fors_error err;

	ck_assert_msg(!fors_scenario_fabric(sc, &fb, &err), "%s", err.msg);
	return fb;
}

/* fors_scenario_fabric refuses sc with msg. */
static void scenario_refused(struct fors_scenario *sc, const char *msg)
{
	struct fors_fabric *fb;
	struct fors_error err;

	ck_assert_int_eq(fors_scenario_fabric(sc, &fb, &err), FORS_EINVAL);
	ck_assert_ptr_null(fb);
	ck_assert_str_eq(err.msg, msg);
	fors_scenario_free(sc);
}

/*
 * A scenario has no tables to detour through (issue 34): leaves that share
 * no plane are refused though others join them, as are leaves nothing
 * joins and a leaf without planes, each with its own message.
 */
START_TEST(scenario_refusals)
{
	static const uint32_t apart[] = { 0, 2, 0, 3, 1, 0, 1, 1 };
	static const uint32_t cross[] = { 0, 1, 1, 0 };
	static const uint32_t bare[] = { 0, 0, 0, 1 };

	scenario_refused(scen(4, 4, 4, apart, 4),
			 "leaves 0 and 1 share no live plane");
	scenario_refused(scen(2, 2, 2, cross, 2),
			 "no chain of live cables joins leaves 0 and 1");
	scenario_refused(scen(2, 3, 2, bare, 2),
			 "leaf 0 has hosts but no live plane");
}
END_TEST

/* A proper colouring by backtracking: the tests' own tiny solver. */
static int colour_bt(const struct ilp_phase *ph, uint32_t *c, uint32_t e)
{
	struct ilp_phase part = *ph;
	struct fors_error err;
	uint32_t x;

	if (e == ph->n)
		return 1;
	part.n = e + 1;
	for (x = 0; x < ph->k * ph->q; x++) {
		c[e] = x;
		if (!ilp_colouring_check(&part, c, &err) &&
		    colour_bt(ph, c, e + 1))
			return 1;
	}
	return 0;
}

/* A phase of fb: every leaf sends to the next d leaves. */
static void make_phase(struct ilp_phase *ph, const struct fors_fabric *fb,
		       uint32_t d, uint32_t k)
{
	uint32_t ls[64], ld[64], n = 0, l, j;

	for (l = 0; l < fb->m1; l++)
		for (j = 1; j <= d; j++) {
			ls[n] = l;
			ld[n++] = (l + j) % fb->m1;
		}
	ck_assert(!ilp_phase_make(ph, fb, ls, ld, n, k));
}

/*
 * Relabelling the planes changes neither the phase's text nor its key,
 * and a solution of the canonical phase maps back to real planes that
 * are alive at both leaves of every transfer, in either labelling.
 */
START_TEST(phase_key_ignores_plane_labels)
{
	const uint32_t cut[] = { 0, 1, 2, 3, 3, 0 };
	struct fors_scenario *sc = scen(4, 5, 4, cut, 3), *o;
	uint32_t perm[4], c[64], i, t;

	for (t = 0; t < 20; t++) {
		struct fors_fabric *fa = fabric(sc), *fo;
		struct ilp_phase a, b;

		shuffle(perm, 4);
		o = permuted(sc, perm);
		fo = fabric(o);
		make_phase(&a, fa, 2, 1);
		make_phase(&b, fo, 2, 1);
		ck_assert_uint_eq(a.hash, b.hash);
		ck_assert_str_eq(a.text, b.text);
		ck_assert(colour_bt(&a, c, 0));
		for (i = 0; i < a.n; i++) {
			uint32_t pa = a.plane[c[i] % 4], pb = b.plane[c[i] % 4];

			ck_assert(fors_plane_live(fa, a.src[i], pa));
			ck_assert(fors_plane_live(fa, a.dst[i], pa));
			ck_assert(fors_plane_live(fo, b.src[i], pb));
			ck_assert(fors_plane_live(fo, b.dst[i], pb));
		}
		ilp_phase_clear(&a);
		ilp_phase_clear(&b);
		fors_fabric_free(fa);
		fors_fabric_free(fo);
		fors_scenario_free(o);
	}
	fors_scenario_free(sc);
}
END_TEST

/* Scenarios: equal up to plane labels means equal keys; else different. */
START_TEST(scenario_key_classes)
{
	const uint32_t c1[] = { 0, 0, 1, 1 }, c2[] = { 0, 2, 1, 3 };
	const uint32_t c3[] = { 0, 0, 1, 0 };
	struct fors_scenario *a = scen(4, 4, 4, c1, 2), *b = scen(4, 4, 4, c2, 2);
	struct fors_scenario *c = scen(4, 4, 4, c3, 2);
	char *ta, *tb, *tc;
	size_t la, lb, lc;
	uint64_t ha, hb, hc;

	ck_assert(!ilp_scenario_key(a, &ta, &la, &ha));
	ck_assert(!ilp_scenario_key(b, &tb, &lb, &hb));
	ck_assert(!ilp_scenario_key(c, &tc, &lc, &hc));
	ck_assert_uint_eq(ha, hb);
	ck_assert_str_eq(ta, tb);
	ck_assert_uint_ne(ha, hc);
	free(ta);
	free(tb);
	free(tc);
	fors_scenario_free(a);
	fors_scenario_free(b);
	fors_scenario_free(c);
}
END_TEST

static struct fors_scenario *read_text(const char *text, struct fors_error *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct fors_scenario *sc = NULL;

	ck_assert_ptr_nonnull(in);
	fors_scenario_read(in, "t", &sc, err);
	fclose(in);
	return sc;
}

START_TEST(scenario_text)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "fors-scenario 2\n", "t:1: not a fors scenario" },
		{ "fors-scenario 1\nfabric m0 2 m1 2 planes 0\n", "t:2: expected \"fabric" },
		{ "fors-scenario 1\nfabric m0 64 m1 64 planes 2\n", "t:2: more than 2048" },
		{ "fors-scenario 1\nfabric m0 2 m1 2 planes 2\nleaf 0 hosts 11 planes 11\nleaf 1 hosts 11 planes 1\nend\n",
		  "t:4: expected \"leaf" },
		{ "fors-scenario 1\nfabric m0 2 m1 2 planes 2\nleaf 0 hosts 11 planes 11\nleaf 0 hosts 11 planes 11\nend\n",
		  "t:4: expected \"leaf" },
		{ "fors-scenario 1\nfabric m0 2 m1 2 planes 2\nleaf 0 hosts 11 planes 11\nleaf 1 hosts 1x planes 11\nend\n",
		  "t:4: expected \"leaf" },
		{ "fors-scenario 1\nfabric m0 2 m1 2 planes 2\nleaf 0 hosts 11 planes 11\n", "t:4: the scenario ends early" },
		{ "fors-scenario 1\nfabric m0 2 m1 2 planes 2\nleaf 0 hosts 11 planes 11\nleaf 1 hosts 11 planes 11\nfin\n",
		  "t:5: expected \"end\"" },
	};
	const uint32_t cut[] = { 1, 2 };
	struct fors_scenario *sc = scen(3, 4, 5, cut, 1), *back;
	struct fors_error err;
	char *text = NULL;
	size_t len, i;
	FILE *out = open_memstream(&text, &len);

	ck_assert(!fors_scenario_write(out, sc));
	fclose(out);
	back = read_text(text, &err);
	ck_assert_ptr_nonnull(back);
	ck_assert(!memcmp(back->live, sc->live, 20));
	ck_assert(!memcmp(back->present, sc->present, 12));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_ptr_null(read_text(bad[i].text, &err));
		ck_assert_msg(strstr(err.msg, bad[i].msg), "%zu: %s", i, err.msg);
	}
	free(text);
	fors_scenario_free(sc);
	fors_scenario_free(back);
}
END_TEST

/* The model's variables are exactly the usable (transfer, colour) pairs. */
START_TEST(model_decode)
{
	const uint32_t cut[] = { 0, 0, 1, 1 };
	struct fors_scenario *sc = scen(4, 4, 4, cut, 2);
	struct fors_fabric *fb = fabric(sc);
	struct fors_error err;
	struct ilp_phase ph;
	struct ilp_model md;
	uint32_t c[64], got[64], j, e, usable = 0, x;
	uint8_t *v;

	make_phase(&ph, fb, 2, 1);
	ck_assert(!ilp_model_build(&md, &ph));
	for (e = 0; e < ph.n; e++)
		for (x = 0; x < ph.q; x++)
			usable += ph.live[ph.src[e] * ph.q + x] &&
				  ph.live[ph.dst[e] * ph.q + x];
	ck_assert_uint_eq(md.nvars, usable);
	ck_assert_ptr_nonnull(strstr(md.lp, "Subject To"));
	ck_assert(colour_bt(&ph, c, 0));
	v = calloc(md.nvars, 1);
	for (j = 0; j < md.nvars; j++)
		v[j] = md.colour[j] == c[md.edge[j]];
	ck_assert(!ilp_model_decode(&md, &ph, v, got, &err));
	ck_assert(!memcmp(got, c, sizeof(uint32_t) * ph.n));
	for (j = 0; j < md.nvars && v[j]; j++)
		;
	v[j] = 1;	/* a second colour for one transfer */
	ck_assert_int_eq(ilp_model_decode(&md, &ph, v, got, &err), FORS_EVERIFY);
	memset(v, 0, md.nvars);
	ck_assert_int_eq(ilp_model_decode(&md, &ph, v, got, &err), FORS_EVERIFY);
	ck_assert_ptr_nonnull(strstr(err.msg, "without a plane"));
	free(v);
	ilp_model_clear(&md);
	ilp_phase_clear(&ph);
	fors_fabric_free(fb);
	fors_scenario_free(sc);
}
END_TEST

static char *tmpdir(void)
{
	char *d = strdup("/tmp/fors-ilp-test.XXXXXX");

	ck_assert_ptr_nonnull(mkdtemp(d));
	ck_assert(!chmod(d, 0755));
	return d;
}

static void rmtree(const char *d)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	ck_assert(!system(cmd));
}

static char *entry_path(const char *d, const struct ilp_phase *ph)
{
	char *p = malloc(strlen(d) + 40);

	sprintf(p, "%s/phases/%016llx", d, (unsigned long long)ph->hash);
	return p;
}

static void rewrite(const char *path, long at, const char *bytes, int trunc)
{
	FILE *f = fopen(path, "r+");

	ck_assert_ptr_nonnull(f);
	ck_assert(!fseek(f, at, at < 0 ? SEEK_END : SEEK_SET));
	if (bytes)
		fputs(bytes, f);
	if (trunc)
		ck_assert(!ftruncate(fileno(f), ftell(f)));
	fclose(f);
}

/* Store, read back, and refuse every kind of damaged or unsafe entry. */
START_TEST(store_defences)
{
	const uint32_t cut[] = { 0, 0, 1, 1 };
	struct fors_scenario *sc = scen(4, 4, 4, cut, 2);
	struct fors_fabric *fb = fabric(sc);
	struct ilp_entry e = { ILP_FEASIBLE, "test", 0.5 }, g;
	struct fors_error err;
	struct ilp_store st;
	struct ilp_phase ph, other;
	uint32_t c[64], c2[64], got[64];
	char *d = tmpdir(), *path, cmd[1024];

	make_phase(&ph, fb, 2, 1);
	make_phase(&other, fb, 1, 1);
	ck_assert(colour_bt(&ph, c, 0));
	ck_assert(colour_bt(&other, c2, 0));
	ck_assert(!ilp_store_open(&st, d, 1, FORS_TRUST_NONE, &err));
	ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err), ILP_MISS);
	ck_assert(!ilp_store_put(&st, &ph, &e, c, &err));
	ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err), ILP_HIT);
	ck_assert(!memcmp(got, c, sizeof(uint32_t) * ph.n));
	ck_assert_str_eq(g.solver, "test");
	path = entry_path(d, &ph);
	rewrite(path, 60, "9", 0);	/* one byte */
	ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err), FORS_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "corrupt entry"));
	ck_assert(!ilp_store_put(&st, &ph, &e, c, &err));
	rewrite(path, -30, NULL, 1);	/* truncated */
	ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err), FORS_EFORMAT);
	ck_assert(!ilp_store_put(&st, &other, &e, c2, &err));	/* wrong key */
	snprintf(cmd, sizeof(cmd), "cp %s/phases/%016llx %s", d,
		 (unsigned long long)other.hash, path);
	ck_assert(!system(cmd));
	ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err), FORS_EFORMAT);
	ck_assert(!ilp_store_put(&st, &ph, &e, c, &err));
	ck_assert(!chmod(path, 0666));
	ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err), FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "writable by anyone"));
	ck_assert(!chmod(path, 0664));
	ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err), FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "writable by its group"));
	ck_assert(!chmod(path, 0644));
	if (geteuid() == 0) {
		ck_assert(!chown(path, 4242, 4242));
		ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err),
				 FORS_EINVAL);
		ck_assert_ptr_nonnull(strstr(err.msg, "uid 4242"));
		st.also = 4242;	/* the batch user, named */
		ck_assert_int_eq(ilp_store_get(&st, &ph, &g, got, &err),
				 ILP_HIT);
		st.also = FORS_TRUST_NONE;
		ck_assert(!chown(path, 0, 0));
	}
	ck_assert(!chmod(d, 0777));
	ilp_store_close(&st);
	ck_assert_int_eq(ilp_store_open(&st, d, 0, FORS_TRUST_NONE, &err),
			 FORS_EINVAL);
	ck_assert(!chmod(d, 0755));
	free(path);
	rmtree(d);
	free(d);
	ilp_phase_clear(&ph);
	ilp_phase_clear(&other);
	fors_fabric_free(fb);
	fors_scenario_free(sc);
}
END_TEST

/*
 * StrictModes with one batch user named: that owner is trusted as root
 * and we are, nobody else is, and nobody else may write in any case; the
 * refusal names the setting that would trust the owner.
 */
START_TEST(trust_batch_user)
{
	const uint32_t reg = S_IFREG | 0644, dir = S_IFDIR | 0755;
	struct fors_error err;
	uint32_t uid = 1;

	ck_assert_int_eq(fors_trust_mode("e", 4242, reg, 0, FORS_TRUST_NONE,
					 &err), FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "uid 4242"));
	ck_assert_ptr_nonnull(strstr(err.msg, "'ilp_cache_user 4242'"));
	ck_assert_ptr_nonnull(strstr(err.msg, "--trust-user 4242"));
	ck_assert_int_eq(fors_trust_mode("e", 4242, reg, 0, 4242, &err), 0);
	ck_assert_int_eq(fors_trust_mode("d", 4242, dir, 1, 4242, &err), 0);
	ck_assert_int_eq(fors_trust_mode("e", 4242, reg, 0, 4243, &err),
			 FORS_EINVAL);
	ck_assert_int_eq(fors_trust_mode("e", 4242, S_IFREG | 0664, 0, 4242,
					 &err), FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "writable by its group"));
	ck_assert_int_eq(fors_trust_mode("d", 4242, reg, 1, 4242, &err),
			 FORS_EINVAL);
	ck_assert_int_eq(fors_trust_mode("e", 0, reg, 0, FORS_TRUST_NONE,
					 &err), 0);
	ck_assert_int_eq(fors_trust_user("root", &uid, &err), 0);
	ck_assert_uint_eq(uid, 0);
	ck_assert_int_eq(fors_trust_user("4242", &uid, &err), 0);
	ck_assert_uint_eq(uid, 4242);
	ck_assert_int_eq(fors_trust_user("no-such-fors-user", &uid, &err),
			 FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "no user 'no-such-fors-user'"));
	ck_assert_int_eq(fors_trust_user("12x", &uid, &err), FORS_EINVAL);
}
END_TEST

static int have_cbc(void)
{
	return !system("command -v cbc >/dev/null");
}

static struct fors_schedule *routed(const char *cache, const char *solver,
				    const struct fors_scenario *sc, int want,
				    struct ilp_stats *st)
{
	struct ilp_opts o = { cache, solver, NULL, 60000, FORS_TRUST_NONE };
	struct fors_schedule *s = NULL;
	struct fors_error err = { "" };
	int r;

	uint32_t *subs = st->subs;

	memset(st, 0, sizeof(*st));
	st->subs = subs;
	r = fors_ilp_route(&o, sc, &s, st, &err);
	ck_assert_msg(r == want, "%d, want %d: %s", r, want, err.msg);
	return s;
}

/*
 * A complex scenario (f 1, m 2) routed by CBC, then from the cache alone:
 * the same routing, which fits the fabric; a missing, a corrupt entry and
 * an unsafe cache are each their own status.
 */
START_TEST(route_from_cache)
{
	const uint32_t cut[] = { 0, 0, 1, 1 };
	struct fors_scenario *sc = scen(4, 4, 4, cut, 2);
	struct fors_fabric *fb = fabric(sc);
	struct fors_schedule *a, *b;
	struct ilp_stats st = { 0 };
	struct fors_error err;
	char *d = tmpdir(), cmd[1024];
	size_t i;

	ck_assert_msg(have_cbc(), "cbc (Debian coinor-cbc) is needed");
	ck_assert_uint_gt(fb->m, fb->f);
	a = routed(d, "cbc", sc, 0, &st);
	ck_assert_uint_gt(st.solved, 0);
	ck_assert_uint_eq(st.unknown, 0);
	ck_assert_msg(!fors_schedule_fits(fb, a, &err), "%s", err.msg);
	b = routed(d, NULL, sc, 0, &st);
	ck_assert_uint_eq(st.solved, 0);
	ck_assert_uint_eq(st.hits, st.phases);
	ck_assert_uint_eq(a->nxfers, b->nxfers);
	for (i = 0; i < a->nxfers; i++)
		ck_assert_int_eq(fors_xfer_plane(&a->xfers[i]),
				 fors_xfer_plane(&b->xfers[i]));
	fors_schedule_free(b);
	snprintf(cmd, sizeof(cmd), "for f in %s/phases/*; do printf x >> $f; done", d);
	ck_assert(!system(cmd));
	routed(d, NULL, sc, FORS_ILP_EXIT_CORRUPT, &st);
	snprintf(cmd, sizeof(cmd), "rm %s/phases/*", d);
	ck_assert(!system(cmd));
	routed(d, NULL, sc, FORS_ILP_EXIT_MISS, &st);
	ck_assert(!chmod(d, 0757));
	routed(d, NULL, sc, FORS_ILP_EXIT_UNSAFE, &st);
	ck_assert(!chmod(d, 0755));
	fors_schedule_free(a);
	rmtree(d);
	free(d);
	fors_fabric_free(fb);
	fors_scenario_free(sc);
}
END_TEST

/*
 * Three leaves without plane 3, one without plane 2: every phase of this
 * FT(2;4,4) is infeasible as it is. The ILP proves it, splits each phase
 * in two as the native solver does, and the result fits the fabric.
 */
START_TEST(split_like_native)
{
	const uint32_t cut[] = { 0, 3, 1, 2, 2, 3, 3, 3 };
	struct fors_scenario *sc = scen(4, 4, 4, cut, 4);
	struct fors_fabric *fb = fabric(sc);
	struct fors_sched_params sp = { 4, 4, fb->f, sc->present };
	uint32_t subs[64] = { 0 }, native[64] = { 0 }, p;
	struct fors_assign_info info = { .subs = native };
	struct fors_schedule *s, *pl;
	struct fors_error err;
	struct ilp_stats st = { 0 };
	char *d = tmpdir();

	ck_assert_msg(have_cbc(), "cbc (Debian coinor-cbc) is needed");
	ck_assert(!fors_schedule_build(&s, &sp, NULL, &err));
	ck_assert_uint_eq(s->nphases, 16);
	ck_assert(!fors_assign_planes(fb, s, &pl, &info, &err));
	ck_assert_uint_eq(s->nphases, 16);
	ck_assert_uint_eq(pl->nphases, 32);
	fors_schedule_free(pl);
	fors_schedule_free(s);
	st.subs = subs;
	s = routed(d, "cbc", sc, 0, &st);
	ck_assert_uint_gt(st.infeasible, 0);
	for (p = 0; p < 16; p++) {
		ck_assert_uint_eq(subs[p], 2);
		ck_assert_uint_eq(native[p], 2);
	}
	ck_assert_uint_eq(s->nphases, 32);
	ck_assert_msg(!fors_schedule_fits(fb, s, &err), "%s", err.msg);
	fors_schedule_free(s);
	rmtree(d);
	free(d);
	fors_fabric_free(fb);
	fors_scenario_free(sc);
}
END_TEST

/* A schedule that breaks the fabric is refused by the plugin's check. */
START_TEST(fits_refuses)
{
	const uint32_t cut[] = { 0, 0, 1, 1 };
	struct fors_scenario *sc = scen(4, 4, 4, cut, 2);
	struct fors_fabric *fb = fabric(sc);
	struct fors_schedule *s;
	struct fors_error err;
	struct ilp_stats st = { 0 };
	char *d = tmpdir();
	size_t i, j;

	ck_assert_msg(have_cbc(), "cbc (Debian coinor-cbc) is needed");
	s = routed(d, "cbc", sc, 0, &st);
	for (i = 0; s->xfers[i].src / 4 != 0 || s->xfers[i].dst / 4 == 0; i++)
		;
	fors_xfer_set_plane(&s->xfers[i], 0);	/* cut at leaf 0 */
	ck_assert_int_eq(fors_schedule_fits(fb, s, &err), FORS_EVERIFY);
	ck_assert_ptr_nonnull(strstr(err.msg, "not alive"));
	fors_schedule_free(s);
	s = routed(d, NULL, sc, 0, &st);
	for (i = s->start[0]; s->xfers[i].src / 4 == s->xfers[i].dst / 4; i++)
		;
	for (j = i + 1; j < s->start[1] &&
	     (s->xfers[j].src / 4 == s->xfers[j].dst / 4 ||
	      s->xfers[j].src / 4 != s->xfers[i].src / 4); j++)
		;
	ck_assert_uint_lt(j, s->start[1]);
	fors_xfer_set_plane(&s->xfers[j], fors_xfer_plane(&s->xfers[i]));
	ck_assert_int_eq(fors_schedule_fits(fb, s, &err), FORS_EVERIFY);
	fors_schedule_free(s);
	rmtree(d);
	free(d);
	fors_fabric_free(fb);
	fors_scenario_free(sc);
}
END_TEST

static char *net_file(const char *dir, uint32_t m0, uint32_t m1)
{
	struct fors_netgen g = { m0, m1, m0, 1, NULL, 0, NULL, NULL, 0, 0 };
	char *path = malloc(strlen(dir) + 16);
	FILE *f;

	sprintf(path, "%s/ref.net", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert(!fors_netgen_write(f, &g));
	fclose(f);
	return path;
}

static void precompute(const char *ref, const char *cache, uint32_t shard,
		       uint32_t nshards, char **report)
{
	struct ilp_precompute pc = {
		.reference = ref, .max_failures = 2, .jobs = 2,
		.shard = shard, .nshards = nshards,
		.o = { cache, "cbc", NULL, 60000 },
	};
	struct fors_error err = { "" };
	size_t len;
	FILE *out = open_memstream(report, &len);
	int r = fors_ilp_precompute(&pc, out, &err);

	fclose(out);
	ck_assert_msg(!r, "%s\n%s", err.msg, *report);
}

/*
 * FT(2;4,4) with up to 2 failed cables: the six complex classes (two cuts
 * on two leaves and two planes), no disagreement with the native solver;
 * a second run finds every scenario complete; two shards cover the same.
 */
START_TEST(precompute_small)
{
	char *d = tmpdir(), *ref = net_file(d, 4, 4), *rep, cache[512];

	ck_assert_msg(have_cbc(), "cbc (Debian coinor-cbc) is needed");
	snprintf(cache, sizeof(cache), "%s/cache", d);
	precompute(ref, cache, 0, 1, &rep);
	ck_assert_msg(strstr(rep, "  2 failed: 6 complex"), "%s", rep);
	ck_assert_msg(strstr(rep, "6 routed now, 0 already complete"), "%s", rep);
	ck_assert_msg(strstr(rep, "disagreements: 0"), "%s", rep);
	free(rep);
	precompute(ref, cache, 0, 1, &rep);
	ck_assert_msg(strstr(rep, "0 routed now, 6 already complete"), "%s", rep);
	free(rep);
	snprintf(cache, sizeof(cache), "%s/sharded", d);
	precompute(ref, cache, 1, 2, &rep);
	ck_assert_msg(strstr(rep, "shard 1/2: 3 scenarios"), "%s", rep);
	free(rep);
	free(ref);
	rmtree(d);
	free(d);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("ilp");
	TCase *tc = tcase_create("ilp");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, phase_key_ignores_plane_labels);
	tcase_add_test(tc, scenario_key_classes);
	tcase_add_test(tc, scenario_refusals);
	tcase_add_test(tc, scenario_text);
	tcase_add_test(tc, model_decode);
	tcase_add_test(tc, store_defences);
	tcase_add_test(tc, trust_batch_user);
	tcase_add_test(tc, route_from_cache);
	tcase_add_test(tc, split_like_native);
	tcase_add_test(tc, fits_refuses);
	tcase_add_test(tc, precompute_small);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
