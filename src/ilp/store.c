// SPDX-License-Identifier: MIT
/*
 * The entry checksum catches truncation and bit rot, not an attacker: one
 * who may write the cache could write valid entries too. Against that the
 * store trusts only what root or our own user owns and nobody else may
 * write, as OpenSSH's StrictModes does, and every solution read is
 * checked against its instance before it is used.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/atomic.h"
#include "sys/slurp.h"
#include "sys/trust.h"
#include "ilp/model.h"
#include "ilp/store.h"

#define ENTRY_MAX (8u << 20)

static char *join(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 3;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");
	return p;
}

int ilp_store_open(struct ilp_store *st, const char *dir, int create,
		   uint32_t also, struct fors_error *err)
{
	static const char *const sub[] = { "phases", "scenarios" };
	int i, r;

	st->dir = strdup(dir);
	st->also = also;
	if (!st->dir) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	r = fors_trust_dir(dir, "the cache", create, also, err);
	for (i = 0; !r && i < 2; i++) {
		char *p = join(dir, sub[i], NULL);

		r = p ? fors_trust_dir(p, "the cache", create, also, err) :
			FORS_ENOMEM;
		free(p);
	}
	if (r)
		ilp_store_close(st);
	return r;
}

void ilp_store_close(struct ilp_store *st)
{
	free(st->dir);
	st->dir = NULL;
}

/*
 * The whole entry, or ILP_MISS when there is none. Its owner and mode are
 * those of the descriptor read, so a file swapped in between cannot pass.
 */
static int read_entry(const struct ilp_store *st, const char *path,
		      struct fors_slurp *f, struct fors_error *err)
{
	int r = fors_slurp_file(path, ENTRY_MAX, f, err);

	if (r == FORS_ENOENT)
		return ILP_MISS;
	if (!r)
		r = fors_trust_mode(path, f->uid, f->mode, 0, st->also, err);
	if (r) {
		free(f->text);
		f->text = NULL;
	}
	return r;
}

static int corrupt(struct fors_error *err, const char *path, const char *what)
{
	fors_error_set(err, "%s: corrupt entry: %s", path, what);
	return FORS_EFORMAT;
}

/* The checksum line closes the entry and covers every byte before it. */
static int checksum(const char *buf, size_t len, const char *path,
		    size_t *body, struct fors_error *err)
{
	const char *c;
	char tail[40];

	if (len < 26 || buf[len - 1] != '\n')
		return corrupt(err, path, "truncated");
	c = buf + len - 26;
	if (strncmp(c, "checksum ", 9))
		return corrupt(err, path, "no checksum line at the end");
	snprintf(tail, sizeof(tail), "checksum %016" PRIx64 "\n",
		 ilp_hash(buf, (size_t)(c - buf), ILP_HASH_INIT));
	if (strcmp(c, tail))
		return corrupt(err, path, "checksum mismatch");
	*body = (size_t)(c - buf);
	return 0;
}

/* A phase entry's header, pointing into its buffer. */
struct entry_fields {
	const char *instance;	/* into the buffer */
	size_t ilen;
	struct ilp_entry e;
	const char *colours;
	uint64_t key;
};

/* The entry's header lines up to its instance. */
static int fields(char *b, size_t body, struct entry_fields *pe)
{
	char verdict[16], *nl;
	unsigned long long key;
	size_t ilen;
	int used = 0;

	if (strncmp(b, "fors-ilp-phase 1\n", 17))
		return -1;
	b += 17;
	if (sscanf(b, "key %16llx\nsolver %15s seconds %lf\nverdict %15s\n%n",
		   &key, pe->e.solver, &pe->e.seconds, verdict, &used) != 4 ||
	    !used)
		return -1;
	pe->key = key;
	b += used;
	if (!strcmp(verdict, "feasible"))
		pe->e.verdict = ILP_FEASIBLE;
	else if (!strcmp(verdict, "infeasible"))
		pe->e.verdict = ILP_INFEASIBLE;
	else
		return -1;
	if (strncmp(b, "colours ", 8) || !(nl = strchr(b, '\n')))
		return -1;
	pe->colours = b + 8;
	*nl = 0;
	b = nl + 1;
	if (sscanf(b, "instance %zu\n%n", &ilen, &used) != 1 || !used)
		return -1;
	b += used;
	pe->instance = b;
	pe->ilen = ilen;
	return ilen > body ? -1 : 0;
}

static int colours(const char *s, const struct ilp_phase *ph, uint32_t *c)
{
	uint32_t e;

	for (e = 0; e < ph->n; e++) {
		char *end;
		unsigned long v;

		if (*s != ' ' && e)
			return -1;
		while (*s == ' ')
			s++;
		if (*s < '0' || *s > '9')
			return -1;
		v = strtoul(s, &end, 10);
		if (v >= (unsigned long)ph->k * ph->q)
			return -1;
		c[e] = (uint32_t)v;
		s = end;
	}
	return *s ? -1 : 0;
}

/* DIR/SUB/<key>: sub is "phases" or "scenarios". */
static char *entry_path(const struct ilp_store *st, const char *sub,
			uint64_t hash)
{
	char key[17];

	snprintf(key, sizeof(key), "%016" PRIx64, hash);
	return join(st->dir, sub, key);
}

/* Parse buf (NUL at len) as the entry of ph: its instance must be ph's. */
static int parse_entry(char *buf, size_t len, const char *path,
		       const struct ilp_phase *ph, struct ilp_entry *e,
		       uint32_t *colour, struct fors_error *err)
{
	struct entry_fields pe = { 0 };
	size_t body;
	int r = checksum(buf, len, path, &body, err);

	if (r)
		return r;
	buf[body] = 0;
	if (fields(buf, body, &pe) ||
	    (size_t)(pe.instance - buf) + pe.ilen != body)
		return corrupt(err, path, "malformed");
	if (pe.key != ph->hash || pe.ilen != ph->len ||
	    memcmp(pe.instance, ph->text, ph->len))
		return corrupt(err, path, "it solves another phase");
	*e = pe.e;
	if (e->verdict == ILP_INFEASIBLE)
		return strcmp(pe.colours, "-") ?
		       corrupt(err, path, "an infeasible phase with planes") :
		       ILP_HIT;
	if (colours(pe.colours, ph, colour))
		return corrupt(err, path, "bad plane list");
	r = ilp_colouring_check(ph, colour, err);
	if (r) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return corrupt(err, path, why);
	}
	return ILP_HIT;
}

int ilp_store_get(const struct ilp_store *st, const struct ilp_phase *ph,
		  struct ilp_entry *e, uint32_t *colour,
		  struct fors_error *err)
{
	char *path = entry_path(st, "phases", ph->hash);
	struct fors_slurp f;
	int r;

	if (!path) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	r = read_entry(st, path, &f, err);
	if (!r)
		r = parse_entry(f.text, f.len, path, ph, e, colour, err);
	free(f.text);
	free(path);
	return r;
}

/* The body, then the checksum line that closes every entry. */
static int frame(FILE *out, char *buf, size_t len)
{
	int r = fwrite(buf, 1, len, out) != len ||
		fprintf(out, "checksum %016" PRIx64 "\n",
			ilp_hash(buf, len, ILP_HASH_INIT)) < 0;

	free(buf);
	return r ? -1 : 0;
}

/* What write_phase writes, through fors_write_atomic's one argument. */
struct phase_put {
	const struct ilp_phase *ph;
	const struct ilp_entry *e;
	const uint32_t *colour;
};

static int write_phase(FILE *out, const void *arg)
{
	const struct phase_put *p = arg;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -1;
	fprintf(m, "fors-ilp-phase 1\nkey %016" PRIx64 "\nsolver %s seconds %.6f\nverdict %s\ncolours",
		p->ph->hash, p->e->solver, p->e->seconds,
		p->e->verdict == ILP_FEASIBLE ? "feasible" : "infeasible");
	if (p->e->verdict != ILP_FEASIBLE)
		fputs(" -", m);
	for (i = 0; p->e->verdict == ILP_FEASIBLE && i < p->ph->n; i++)
		fprintf(m, " %u", p->colour[i]);
	fprintf(m, "\ninstance %zu\n", p->ph->len);
	fwrite(p->ph->text, 1, p->ph->len, m);
	if (fclose(m)) {
		free(buf);
		return -1;
	}
	return frame(out, buf, len);
}

int ilp_store_put(const struct ilp_store *st, const struct ilp_phase *ph,
		  const struct ilp_entry *e, const uint32_t *colour,
		  struct fors_error *err)
{
	struct phase_put p = { ph, e, colour };
	char *path = entry_path(st, "phases", ph->hash);
	int r;

	if (e->verdict == ILP_UNKNOWN) {
		fors_error_set(err, "an unknown verdict is not stored");
		return FORS_EINVAL;
	}
	if (e->verdict == ILP_FEASIBLE && ilp_colouring_check(ph, colour, err))
		return FORS_EVERIFY;
	if (!path) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	r = fors_write_atomic(path, write_phase, &p, err);
	free(path);
	return r;
}

/* The scenario entry in buf: its instance must be text, when given. */
static int parse_scenario(char *buf, size_t len, const char *path,
			  uint64_t hash, const char *text,
			  struct fors_error *err)
{
	unsigned long long key;
	size_t body, ilen;
	int used = 0, r = checksum(buf, len, path, &body, err);
	char *nl;

	if (r)
		return r;
	buf[body] = 0;
	if (strncmp(buf, "fors-ilp-scenario 1\n", 20) ||
	    sscanf(buf + 20, "key %16llx\n%n", &key, &used) != 1 || !used)
		return corrupt(err, path, "malformed");
	nl = buf + 20 + used;
	if (strncmp(nl, "summary ", 8) || !(nl = strchr(nl, '\n')))
		return corrupt(err, path, "malformed");
	used = 0;
	if (sscanf(nl + 1, "instance %zu\n%n", &ilen, &used) != 1 || !used ||
	    (size_t)(nl + 1 + used - buf) + ilen != body)
		return corrupt(err, path, "malformed");
	nl += 1 + used;
	if (key != hash ||
	    ilp_hash(nl, ilen, ILP_HASH_INIT) != hash ||
	    (text && (strlen(text) != ilen || memcmp(nl, text, ilen))))
		return corrupt(err, path, "it holds another scenario");
	return ILP_HIT;
}

int ilp_store_has_scenario(const struct ilp_store *st, uint64_t hash,
			   const char *text, struct fors_error *err)
{
	char *path = entry_path(st, "scenarios", hash);
	struct fors_slurp f;
	int r;

	if (!path) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	r = read_entry(st, path, &f, err);
	if (!r)
		r = parse_scenario(f.text, f.len, path, hash, text, err);
	free(f.text);
	free(path);
	return r;
}

/* What write_scenario writes, likewise. */
struct scenario_put {
	uint64_t hash;
	const char *text, *summary;
};

static int write_scenario(FILE *out, const void *arg)
{
	const struct scenario_put *p = arg;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -1;
	fprintf(m, "fors-ilp-scenario 1\nkey %016" PRIx64 "\nsummary %s\ninstance %zu\n%s",
		p->hash, p->summary, strlen(p->text), p->text);
	if (fclose(m)) {
		free(buf);
		return -1;
	}
	return frame(out, buf, len);
}

int ilp_store_put_scenario(const struct ilp_store *st, uint64_t hash,
			   const char *text, const char *summary,
			   struct fors_error *err)
{
	struct scenario_put p = { hash, text, summary };
	char *path = entry_path(st, "scenarios", hash);
	int r;

	if (!path) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	r = fors_write_atomic(path, write_scenario, &p, err);
	free(path);
	return r;
}

int ilp_entry_check(char *buf, size_t len, const char *name,
		    enum ilp_verdict *v, struct fors_error *err)
{
	struct entry_fields pe = { 0 };
	struct ilp_phase ph;
	struct ilp_entry e;
	uint32_t *colour;
	size_t body;
	char *copy;
	int r = checksum(buf, len, name, &body, err);

	if (r)
		return r;
	copy = malloc(body + 1);
	if (!copy)
		return FORS_ENOMEM;
	memcpy(copy, buf, body);
	copy[body] = 0;
	if (fields(copy, body, &pe) ||
	    (size_t)(pe.instance - copy) + pe.ilen != body ||
	    ilp_phase_parse(&ph, pe.instance, pe.ilen)) {
		free(copy);
		return corrupt(err, name, "malformed");
	}
	free(copy);
	colour = malloc(sizeof(uint32_t) * (ph.n + 1));
	r = colour ? parse_entry(buf, len, name, &ph, &e, colour, err) :
		     FORS_ENOMEM;
	if (r == ILP_HIT)
		*v = e.verdict;
	free(colour);
	ilp_phase_clear(&ph);
	return r;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct listing {
	char **line;
	size_t n, cap;
	uint32_t bad;
	FILE *errs;
};

static int add_line(struct listing *ls, const char *kind, const char *key,
		    const char *what)
{
	size_t n = strlen(kind) + strlen(key) + strlen(what) + 3;

	if (ls->n == ls->cap) {
		size_t cap = ls->cap ? 2 * ls->cap : 256;
		char **l = realloc(ls->line, sizeof(char *) * cap);

		if (!l)
			return FORS_ENOMEM;
		ls->line = l;
		ls->cap = cap;
	}
	ls->line[ls->n] = malloc(n);
	if (!ls->line[ls->n])
		return FORS_ENOMEM;
	snprintf(ls->line[ls->n++], n, "%s %s %s", kind, key, what);
	return 0;
}

/* One entry of sub: its verdict, or counted bad with the reason. */
static int list_one(const struct ilp_store *st, struct listing *ls, int scen,
		    const char *name)
{
	char *path = join(st->dir, scen ? "scenarios" : "phases", name);
	struct fors_error e;
	enum ilp_verdict v = ILP_UNKNOWN;
	unsigned long long key = 0;
	struct fors_slurp f;
	int r;

	if (!path)
		return FORS_ENOMEM;
	r = read_entry(st, path, &f, &e);
	if (!r && (strlen(name) != 16 || sscanf(name, "%16llx", &key) != 1))
		r = corrupt(&e, path, "not named by a key");
	if (!r && scen)
		r = parse_scenario(f.text, f.len, path, key, NULL, &e);
	else if (!r)
		r = ilp_entry_check(f.text, f.len, path, &v, &e);
	if (!r && !scen && strncmp(f.text + 21, name, 16))
		r = corrupt(&e, path, "stored under another key");
	free(f.text);
	free(path);
	if (r == FORS_ENOMEM)
		return r;
	if (r) {
		ls->bad++;
		fprintf(ls->errs, "fors ilp: %s\n", e.msg);
		return 0;
	}
	return add_line(ls, scen ? "scenario" : "phase", name,
			scen ? "complete" : v == ILP_FEASIBLE ? "feasible" :
			"infeasible");
}

static int list_dir(const struct ilp_store *st, struct listing *ls, int scen,
		    struct fors_error *err)
{
	char *path = join(st->dir, scen ? "scenarios" : "phases", NULL);
	DIR *d = path ? opendir(path) : NULL;
	struct dirent *de;
	int r = 0;

	if (!d) {
		fors_error_set(err, "cannot list %s: %s", path ? path : st->dir,
			       strerror(errno));
		free(path);
		return FORS_EIO;
	}
	while (!r && (de = readdir(d)))
		if (!strchr(de->d_name, '.'))
			r = list_one(st, ls, scen, de->d_name);
	closedir(d);
	free(path);
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory");
	return r;
}

int ilp_store_list(const struct ilp_store *st, FILE *out, FILE *errs,
		   uint32_t *bad, struct fors_error *err)
{
	struct listing ls = { .errs = errs };
	size_t i;
	int r = list_dir(st, &ls, 0, err);

	if (!r)
		r = list_dir(st, &ls, 1, err);
	if (!r) {
		qsort(ls.line, ls.n, sizeof(char *), cmp_line);
		for (i = 0; i < ls.n; i++)
			fprintf(out, "%s\n", ls.line[i]);
	}
	for (i = 0; i < ls.n; i++)
		free(ls.line[i]);
	free(ls.line);
	*bad = ls.bad;
	return r;
}

uint32_t ilp_store_count(const struct ilp_store *st, const char *sub)
{
	char *path = join(st->dir, sub, NULL);
	DIR *d = path ? opendir(path) : NULL;
	struct dirent *de;
	uint32_t n = 0;

	while (d && (de = readdir(d)))
		n += !strchr(de->d_name, '.');
	if (d)
		closedir(d);
	free(path);
	return n;
}

int fors_ilp_list(const char *cache, uint32_t also, FILE *out,
		  uint32_t *bad, struct fors_error *err)
{
	struct ilp_store st;
	int r = ilp_store_open(&st, cache, 0, also, err);

	*bad = 0;
	if (r)
		return r;
	r = ilp_store_list(&st, out, stderr, bad, err);
	ilp_store_close(&st);
	return r;
}
