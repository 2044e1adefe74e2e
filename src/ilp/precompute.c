// SPDX-License-Identifier: MIT
/*
 * `fors ilp precompute`: every scenario with up to K failed cables, up to
 * a permutation of the planes, routed through the ILP and stored, with the
 * native solver run on the same phases as an oracle. Classes grow one
 * failed cable at a time from the canonical forms of the level below, so
 * only classes are ever enumerated, never all subsets of cables.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "routing/assign.h"
#include "sys/clock.h"
#include "sys/threads.h"
#include "ilp/precompute.h"
#include "fabric/topology.h"
#include "ilp/key.h"
#include "ilp/store.h"
#include "formats/ibnetdiscover.h"
#include "formats/scenfile.h"

/* A scenario class: its canonical text, one per plane permutation. */
struct scen_class {
	char *text;		/* canonical scenario */
	size_t len;
	uint64_t hash;
	uint32_t failures;
	int complex;		/* m > f */
};

struct classes {
	struct scen_class *c;
	size_t n, cap;
	uint32_t *table;	/* open addressing over c, 0 = empty */
	size_t tcap;
};

static int grow_table(struct classes *cs)
{
	size_t cap = cs->tcap ? 2 * cs->tcap : 1024, i;
	uint32_t *t = calloc(cap, sizeof(uint32_t));

	if (!t)
		return FORS_ENOMEM;
	for (i = 0; i < cs->n; i++) {
		size_t h = cs->c[i].hash & (cap - 1);

		while (t[h])
			h = (h + 1) & (cap - 1);
		t[h] = (uint32_t)i + 1;
	}
	free(cs->table);
	cs->table = t;
	cs->tcap = cap;
	return 0;
}

/* Add the class of sc unless known; *added tells. Takes no ownership. */
static int add_class(struct classes *cs, const struct fors_scenario *sc,
		     uint32_t failures, int *added)
{
	struct scen_class c = { .failures = failures };
	size_t h;

	*added = 0;
	if (ilp_scenario_key(sc, &c.text, &c.len, &c.hash))
		return FORS_ENOMEM;
	if (2 * (cs->n + 1) > cs->tcap && grow_table(cs))
		goto nomem;
	for (h = c.hash & (cs->tcap - 1); cs->table[h];
	     h = (h + 1) & (cs->tcap - 1)) {
		const struct scen_class *o = &cs->c[cs->table[h] - 1];

		if (o->hash == c.hash && o->len == c.len &&
		    !memcmp(o->text, c.text, c.len)) {
			free(c.text);
			return 0;
		}
	}
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? 2 * cs->cap : 256;
		struct scen_class *n = realloc(cs->c, sizeof(*n) * cap);

		if (!n)
			goto nomem;
		cs->c = n;
		cs->cap = cap;
	}
	cs->c[cs->n] = c;
	cs->table[h] = (uint32_t)++cs->n;
	*added = 1;
	return 0;
nomem:
	free(c.text);
	return FORS_ENOMEM;
}

static struct fors_scenario *parse_class(const struct scen_class *c)
{
	struct fors_scenario *sc = NULL;
	struct fors_error e;
	FILE *in = fmemopen(c->text, c->len, "r");

	if (in) {
		fors_scenario_read(in, "class", &sc, &e);
		fclose(in);
	}
	return sc;
}

/* Every routable extension of class i by one more failed cable. */
static int extend(struct classes *cs, size_t i)
{
	struct fors_scenario *sc = parse_class(&cs->c[i]);
	uint32_t f = cs->c[i].failures + 1, j;
	int r = sc ? 0 : FORS_ENOMEM;

	for (j = 0; !r && j < sc->m1 * sc->q; j++) {
		struct fors_fabric *fb;
		struct fors_error e;
		int added;

		if (!sc->live[j])
			continue;
		sc->live[j] = 0;
		if (!fors_scenario_fabric(sc, &fb, &e)) {
			int cx = fb->m > fb->f;

			fors_fabric_free(fb);
			r = add_class(cs, sc, f, &added);
			if (added)
				cs->c[cs->n - 1].complex = cx;
		}
		sc->live[j] = 1;
	}
	fors_scenario_free(sc);
	return r;
}

static int enumerate(struct classes *cs, const struct fors_scenario *healthy,
		     uint32_t k)
{
	size_t lo = 0, hi, i;
	uint32_t lvl;
	int added, r = add_class(cs, healthy, 0, &added);

	for (lvl = 1; !r && lvl <= k; lvl++) {
		hi = cs->n;
		for (i = lo; !r && i < hi; i++)
			r = extend(cs, i);
		lo = hi;
	}
	return r;
}

static void free_classes(struct classes *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		free(cs->c[i].text);
	free(cs->c);
	free(cs->table);
}

struct totals {
	uint32_t done, skipped, failed, disagree, unknown;
	uint32_t phases, hits, solved, infeasible, split_native, split_ilp;
	double solver_s, max_s, scen_s, native_s;
};

/* One precompute run, shared by its workers under lock. */
struct precompute_state {
	const struct ilp_precompute *cfg;
	struct ilp_store store;
	const struct scen_class **job;
	size_t njobs, next;
	size_t population;	/* classes the jobs were sampled from */
	pthread_mutex_t lock;
	struct totals t;
	uint64_t *keys;		/* plan: first attempts met, open addressing */
	size_t nkeys, kcap;
	int zero;		/* plan: the key 0, which marks a free slot */
	uint32_t kcached;	/* plan: of the keys, those in the cache */
	double kcached_s;	/* plan: their recorded solver time */
	FILE *out;
	double t0_ms;		/* fors_clock_ms() when the workers started */
	int failed;		/* an error that stops every worker */
	struct fors_error err;
};

/* The native solver's sub-phases per phase, and its time. */
static int native(const struct fors_scenario *sc, uint32_t **subs,
		  uint32_t *nph, double *secs, struct fors_error *err)
{
	struct fors_assign_info info = { 0 };
	struct fors_schedule *s = NULL, *pl = NULL;
	struct fors_fabric *fb = NULL;
	double t0 = fors_clock_ms();
	int r = ilp_scenario_schedule(sc, &fb, &s, err);

	*subs = NULL;
	if (!r) {
		*nph = s->nphases;
		info.subs = *subs = calloc(s->nphases + 1, sizeof(uint32_t));
		r = *subs ? fors_assign_planes(fb, s, &pl, &info, err) :
		    FORS_ENOMEM;
	}
	*secs = (fors_clock_ms() - t0) / 1000;
	fors_schedule_free(pl);
	fors_schedule_free(s);
	fors_fabric_free(fb);
	return r;
}

static void report_disagreement(struct precompute_state *pc,
				const struct scen_class *c, uint32_t p,
				uint32_t kn, uint32_t ki)
{
	fprintf(pc->out, "disagreement: scenario %016llx phase %u: native %u sub-phase(s), ILP %u\n",
		(unsigned long long)c->hash, p, kn, ki);
}

/* Route class c through the ILP and natively; the totals under the lock. */
static int run_class(struct precompute_state *pc, const struct scen_class *c,
		     struct fors_error *err)
{
	struct fors_scenario *sc = parse_class(c);
	struct ilp_stats st = { 0 };
	struct fors_schedule *s = NULL;
	uint32_t *kn = NULL, nph = 0, p, bad = 0, sn = 0, si = 0;
	double nt = 0;
	char sum[160];
	int r = sc ? native(sc, &kn, &nph, &nt, err) : FORS_ENOMEM;

	if (!r)
		st.subs = calloc(nph + 1, sizeof(uint32_t));
	if (!r && !st.subs)
		r = FORS_ENOMEM;
	if (!r)
		r = fors_ilp_route(&pc->cfg->o, sc, &s, &st, err);
	pthread_mutex_lock(&pc->lock);
	for (p = 0; !r && p < nph; p++) {
		sn += kn[p] - 1;
		si += st.subs[p] - 1;
		if (kn[p] != st.subs[p]) {
			report_disagreement(pc, c, p, kn[p], st.subs[p]);
			bad++;
		}
	}
	pc->t.disagree += bad;
	pc->t.unknown += st.unknown;
	pc->t.phases += st.phases;
	pc->t.hits += st.hits;
	pc->t.solved += st.solved;
	pc->t.infeasible += st.infeasible;
	pc->t.solver_s += st.solver_s;
	pc->t.max_s = st.max_s > pc->t.max_s ? st.max_s : pc->t.max_s;
	pc->t.scen_s += st.solver_s + st.stored_s;
	pc->t.native_s += nt;
	pc->t.split_native += sn;
	pc->t.split_ilp += si;
	pthread_mutex_unlock(&pc->lock);
	snprintf(sum, sizeof(sum), "phases %u split %u solver-seconds %.3f native-seconds %.6f",
		 nph, si, st.solver_s + st.stored_s, nt);
	if (!r)
		r = ilp_store_put_scenario(&pc->store, c->hash, c->text, sum,
					   err);
	fors_schedule_free(s);
	fors_scenario_free(sc);
	free(kn);
	free(st.subs);
	return r;
}

/* 1 when key h is new to the plan, 0 when met before, -1 out of memory. */
static int plan_key(struct precompute_state *pc, uint64_t h)
{
	size_t i;

	if (!h)
		return pc->zero ? 0 : (pc->zero = 1);
	if (2 * (pc->nkeys + 1) > pc->kcap) {
		size_t cap = pc->kcap ? 2 * pc->kcap : 4096, j;
		uint64_t *k = calloc(cap, sizeof(uint64_t));

		if (!k)
			return -1;
		for (j = 0; j < pc->kcap; j++) {
			uint64_t v = pc->keys[j];

			if (!v)
				continue;
			for (i = v & (cap - 1); k[i]; i = (i + 1) & (cap - 1))
				;
			k[i] = v;
		}
		free(pc->keys);
		pc->keys = k;
		pc->kcap = cap;
	}
	for (i = h & (pc->kcap - 1); pc->keys[i]; i = (i + 1) & (pc->kcap - 1))
		if (pc->keys[i] == h)
			return 0;
	pc->keys[i] = h;
	pc->nkeys++;
	return 1;
}

struct planning {
	struct precompute_state *pc;
	struct fors_error *err;
};

/* One phase of the plan: counted, and looked up in the cache when new. */
static int plan_phase(const struct ilp_phase *ph, void *arg)
{
	struct planning *pl = arg;
	struct precompute_state *pc = pl->pc;
	struct ilp_entry e = { .seconds = 0 };
	uint32_t *colour = NULL;
	int r;

	pthread_mutex_lock(&pc->lock);
	pc->t.phases++;
	r = plan_key(pc, ph->hash);
	pthread_mutex_unlock(&pc->lock);
	if (r <= 0 || !pc->store.dir) {
		if (r < 0)
			fors_error_set(pl->err, "out of memory");
		return r < 0 ? FORS_ENOMEM : 0;
	}
	colour = malloc(sizeof(uint32_t) * (ph->n + 1));
	if (!colour) {
		fors_error_set(pl->err, "out of memory");
		return FORS_ENOMEM;
	}
	r = ilp_store_get(&pc->store, ph, &e, colour, pl->err);
	free(colour);
	if (r != ILP_HIT)
		return r == ILP_MISS ? 0 : r;
	pthread_mutex_lock(&pc->lock);
	pc->kcached++;
	pc->kcached_s += e.seconds;
	pthread_mutex_unlock(&pc->lock);
	return 0;
}

static int plan_class(struct precompute_state *pc, const struct scen_class *c,
		      struct fors_error *err)
{
	struct fors_scenario *sc = parse_class(c);
	struct planning pl = { pc, err };
	int r;

	if (!sc) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	r = ilp_scenario_phases(sc, plan_phase, &pl, err);
	fors_scenario_free(sc);
	return r;
}

/* What the progress counts: distinct phases met, or phases solved. */
static size_t work(const struct precompute_state *pc)
{
	return pc->cfg->plan ? pc->nkeys + (size_t)pc->zero : pc->t.solved;
}

static const char *done_word(const struct precompute_state *pc)
{
	return pc->cfg->plan ? "distinct phases" : "phases solved";
}

static void progress(struct precompute_state *pc)
{
	size_t n = pc->t.done + pc->t.skipped + pc->t.failed, w = 30, i;
	double el = (fors_clock_ms() - pc->t0_ms) / 1000;
	double eta = pc->t.done ? el / pc->t.done * (double)(pc->njobs - n) : 0;

	if (!pc->cfg->progress) {
		if (n == pc->njobs || n % 10 == 0)
			fprintf(stderr, "fors ilp: %zu/%zu scenarios, %zu %s, %.0f s\n",
				n, pc->njobs, work(pc), done_word(pc), el);
		return;
	}
	fputs("\r[", stderr);
	for (i = 0; i < w; i++)
		fputc(i < w * n / (pc->njobs ? pc->njobs : 1) ? '#' : '.',
		      stderr);
	fprintf(stderr, "] %zu/%zu scenarios, %zu %s, %.0f s, eta %.0f s ",
		n, pc->njobs, work(pc), done_word(pc), el, eta);
	if (n == pc->njobs)
		fputc('\n', stderr);
}

static void *worker(void *arg)
{
	struct precompute_state *pc = arg;
	struct fors_error err;

	for (;;) {
		const struct scen_class *c;
		int r, done;

		pthread_mutex_lock(&pc->lock);
		c = pc->failed || pc->next == pc->njobs ? NULL :
		    pc->job[pc->next++];
		pthread_mutex_unlock(&pc->lock);
		if (!c)
			return NULL;
		done = pc->store.dir &&
		       ilp_store_has_scenario(&pc->store, c->hash, c->text,
					      &err) == ILP_HIT;
		if (pc->cfg->plan)
			r = plan_class(pc, c, &err);
		else
			r = done ? 0 : run_class(pc, c, &err);
		pthread_mutex_lock(&pc->lock);
		if (r) {
			fprintf(pc->out, "scenario %016llx: %s\n",
				(unsigned long long)c->hash, err.msg);
			pc->t.failed++;
			if (r == FORS_ENOMEM || r == FORS_EIO ||
			    r == FORS_ILP_EXIT_UNSAFE) {
				pc->failed = 1;
				pc->err = err;
			}
		} else if (done) {
			pc->t.skipped++;
		} else {
			pc->t.done++;
		}
		progress(pc);
		pthread_mutex_unlock(&pc->lock);
	}
}

static int healthy(const char *path, struct fors_scenario **sc,
		   struct fors_error *err)
{
	struct fors_topology *t;
	struct fors_fabric *fb;
	int r = fors_topology_read_file(path, &t, err);

	if (r)
		return r;
	r = fors_fabric_analyse(t, NULL, &fb, err);
	fors_topology_free(t);
	if (r)
		return r;
	*sc = fors_scenario_of(fb);
	fors_fabric_free(fb);
	if (!*sc) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	return 0;
}

/* The complex classes of this shard, in enumeration order. */
static int select_jobs(struct precompute_state *pc, const struct classes *cs,
		       uint32_t *per_level)
{
	const struct ilp_precompute *cfg = pc->cfg;
	size_t i, k = 0;

	pc->job = malloc(sizeof(*pc->job) * (cs->n + 1));
	if (!pc->job)
		return FORS_ENOMEM;
	for (i = 0; i < cs->n; i++) {
		if (!cs->c[i].complex)
			continue;
		per_level[cs->c[i].failures]++;
		if (cfg->sample && cs->c[i].failures != cfg->max_failures)
			continue;
		if (k++ % cfg->nshards == cfg->shard)
			pc->job[pc->njobs++] = &cs->c[i];
	}
	pc->population = pc->njobs;
	if (cfg->sample && cfg->sample < pc->njobs) {
		for (i = 0; i < cfg->sample; i++)
			pc->job[i] = pc->job[i * pc->njobs / cfg->sample];
		pc->njobs = cfg->sample;
	}
	return 0;
}

static int run_jobs(struct precompute_state *pc)
{
	pc->t0_ms = fors_clock_ms();
	if (!fors_threads_run(pc->cfg->jobs ? pc->cfg->jobs : 1, worker, pc)) {
		fors_error_set(&pc->err, "cannot start a worker thread");
		pc->failed = 1;
	}
	return pc->failed ? FORS_EIO : 0;
}

static void report_classes(const struct precompute_state *pc,
			   const struct classes *cs, const uint32_t *per_level)
{
	uint32_t k;

	fprintf(pc->out, "classes up to %u failed cables, up to plane permutation: %zu routable\n",
		pc->cfg->max_failures, cs->n - 1);
	for (k = 1; k <= pc->cfg->max_failures; k++)
		fprintf(pc->out, "  %u failed: %u complex (m > f)\n", k,
			per_level[k]);
}

static void report_plan(const struct precompute_state *pc)
{
	const struct totals *t = &pc->t;
	size_t d = pc->nkeys + (size_t)pc->zero;

	fprintf(pc->out, "plan, shard %u/%u: %zu scenarios (%u already complete in the cache, %u failed), %u phases with inter-leaf transfers\n",
		pc->cfg->shard, pc->cfg->nshards, pc->njobs, t->skipped,
		t->failed, t->phases);
	fprintf(pc->out, "distinct phases (first attempts, one sub-phase): %zu; in the cache: %u, %.1f s of solver time recorded\n",
		d, pc->kcached, pc->kcached_s);
	if (pc->kcached)
		fprintf(pc->out, "to solve: %zu phases, about %.0f s of solver time at the cache's mean of %.3f s a phase\n",
			d - pc->kcached,
			(double)(d - pc->kcached) * pc->kcached_s / pc->kcached,
			pc->kcached_s / pc->kcached);
	else
		fprintf(pc->out, "to solve: %zu phases (no solved phase in the cache to estimate the time from)\n",
			d);
	fprintf(pc->out, "not counted: the retries with more sub-phases of phases the solver finds infeasible\n");
}

static void report(const struct precompute_state *pc)
{
	const struct ilp_precompute *cfg = pc->cfg;
	const struct totals *t = &pc->t;
	uint32_t d = t->done ? t->done : 1;

	fprintf(pc->out, "shard %u/%u: %zu scenarios, %u routed now, %u already complete, %u failed\n",
		cfg->shard, cfg->nshards, pc->njobs, t->done, t->skipped,
		t->failed);
	fprintf(pc->out, "phases routed %u: %u from the cache, %u solved by %s now (%u infeasible verdicts, %u without verdict)\n",
		t->phases, t->hits, t->solved, cfg->o.solver, t->infeasible,
		t->unknown);
	if (t->solved)
		fprintf(pc->out, "solver time per phase: mean %.3f s, max %.3f s, total %.1f s\n",
			t->solver_s / t->solved, t->max_s, t->solver_s);
	if (t->done)
		fprintf(pc->out, "per scenario (its distinct phases solved once): solver %.2f s mean, against 29.72 s with Gurobi in the FORS paper; native %.2f ms mean\n",
			t->scen_s / d, t->native_s / d * 1e3);
	if (cfg->sample && t->done)
		fprintf(pc->out, "sample of %zu of %zu scenarios with %u failed cables: estimated solver time for all of them %.0f s\n",
			pc->njobs, pc->population, cfg->max_failures,
			t->scen_s / d * (double)pc->population);
	fprintf(pc->out, "sub-phases added: native %u, ILP %u\n",
		t->split_native, t->split_ilp);
	fprintf(pc->out, "the cache holds %u distinct phases, %u complete scenarios\n",
		ilp_store_count(&pc->store, "phases"),
		ilp_store_count(&pc->store, "scenarios"));
	fprintf(pc->out, "native/ILP disagreements: %u\n", t->disagree);
}

int fors_ilp_precompute(const struct ilp_precompute *cfg, FILE *out,
			struct fors_error *err)
{
	struct precompute_state pc = { .cfg = cfg, .out = out };
	struct classes cs = { 0 };
	struct fors_scenario *h = NULL;
	uint32_t per_level[65] = { 0 };
	int r;

	if (cfg->max_failures > 64 || !cfg->nshards ||
	    cfg->shard >= cfg->nshards || !cfg->o.solver ||
	    (!cfg->plan && !cfg->o.cache)) {
		fors_error_set(err, "bad precompute parameters");
		return FORS_EINVAL;
	}
	r = healthy(cfg->reference, &h, err);
	if (!r && cfg->o.cache &&
	    ilp_store_open(&pc.store, cfg->o.cache, !cfg->plan,
			   cfg->o.also, err))
		r = FORS_EINVAL;
	if (!r && (enumerate(&cs, h, cfg->max_failures) ||
		   select_jobs(&pc, &cs, per_level))) {
		fors_error_set(err, "out of memory");
		r = FORS_ENOMEM;
	}
	if (!r) {
		pthread_mutex_init(&pc.lock, NULL);
		r = run_jobs(&pc);
		pthread_mutex_destroy(&pc.lock);
		if (r)
			*err = pc.err;
		report_classes(&pc, &cs, per_level);
		if (cfg->plan)
			report_plan(&pc);
		else
			report(&pc);
	}
	if (!r && (pc.t.disagree || pc.t.failed || pc.t.unknown)) {
		fors_error_set(err, "%u disagreements, %u scenarios failed, %u phases without verdict",
			       pc.t.disagree, pc.t.failed, pc.t.unknown);
		r = FORS_EVERIFY;
	}
	ilp_store_close(&pc.store);
	fors_scenario_free(h);
	free_classes(&cs);
	free(pc.job);
	free(pc.keys);
	return r;
}
