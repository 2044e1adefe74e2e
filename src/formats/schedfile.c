// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sys/atomic.h"
#include "formats/schedfile.h"
#include "formats/schedruns.h"
#include "formats/io.h"

/* Reasonable ceiling on phases: far above any real schedule. */
#define MAX_PHASES (1u << 22)

static void put_num(FILE *out, int32_t v)
{
	if (v < 0)
		fputs(" -", out);
	else
		fprintf(out, " %d", v);
}

/* v in decimal, or '-' when negative, ending just before end. */
static char *put_field(char *end, int64_t v)
{
	if (v < 0) {
		*--end = '-';
		return end;
	}
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

/* A transfer line built by hand: printf would be most of the file's cost. */
static void put_xfer(FILE *out, const struct fors_xfer *x)
{
	char buf[48], *b = buf + sizeof(buf);

	*--b = '\n';
	b = put_field(b, fors_xfer_dlid(x));
	*--b = ' ';
	b = put_field(b, fors_xfer_plane(x));
	*--b = ' ';
	b = put_field(b, x->dst);
	*--b = ' ';
	b = put_field(b, x->src);
	fwrite(b, 1, (size_t)(buf + sizeof(buf) - b), out);
}

static void put_desc(FILE *out, const char *d)
{
	fputc('"', out);
	for (; *d; d++) {
		if (*d == '"' || *d == '\\')
			fputc('\\', out);
		fputc(*d, out);
	}
	fputc('"', out);
}

/* Lines 1 to the last host line, as version v has them. */
static void put_head(FILE *out, const struct fors_schedule *s,
		     const struct fors_kv *more, size_t nmore, int v)
{
	size_t i;

	fprintf(out, "fors-schedule %d\n", v);
	fprintf(out, "fabric hosts-per-leaf %u leaves %u planes %u reduction %u impacted %u lmc",
		s->m0, s->m1, s->q, s->f, s->m);
	put_num(out, s->lmc);
	fprintf(out, " phases %u", s->nphases);
	for (i = 0; i < s->nextra; i++)
		fprintf(out, " %s %s", s->extra[i].key, s->extra[i].value);
	for (i = 0; i < nmore; i++)
		fprintf(out, " %s %s", more[i].key, more[i].value);
	fputc('\n', out);
	for (i = 0; i < s->nhosts; i++) {
		const struct fors_host *h = &s->hosts[i];

		fprintf(out, "host %u 0x%016llx %u ", h->sid,
			(unsigned long long)h->guid, h->lid);
		put_desc(out, h->desc ? h->desc : "");
		fprintf(out, " %u\n", h->port);
	}
}

static int cmp_src(const void *a, const void *b)
{
	const struct fors_xfer *x = *(const struct fors_xfer *const *)a;
	const struct fors_xfer *y = *(const struct fors_xfer *const *)b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Phase p's transfers by source, the order the compact form reads back in,
 * so that both forms give one text (tmp holds a phase's pointers).
 */
static void put_phase(FILE *out, const struct fors_schedule *s, uint32_t p,
		      const struct fors_xfer **tmp)
{
	size_t i, n = s->start[p + 1] - s->start[p];

	for (i = 0; i < n; i++)
		tmp[i] = &s->xfers[s->start[p] + i];
	for (i = 1; i < n && tmp[i - 1]->src < tmp[i]->src; i++)
		;
	if (i < n)
		qsort(tmp, n, sizeof(*tmp), cmp_src);
	fprintf(out, "phase %u %zu\n", p, n);
	for (i = 0; i < n; i++)
		put_xfer(out, tmp[i]);
}

int fors_schedule_write(FILE *out, const struct fors_schedule *s)
{
	return fors_schedule_write_keys(out, s, NULL, 0);
}

int fors_schedule_write_keys(FILE *out, const struct fors_schedule *s,
			     const struct fors_kv *more, size_t nmore)
{
	const struct fors_xfer **tmp;
	size_t most = 0;
	uint32_t p;

	for (p = 0; p < s->nphases; p++)
		if (s->start[p + 1] - s->start[p] > most)
			most = s->start[p + 1] - s->start[p];
	tmp = malloc(sizeof(*tmp) * (most + 1));
	if (!tmp)
		return FORS_ENOMEM;
	put_head(out, s, more, nmore, 1);
	for (p = 0; p < s->nphases; p++)
		put_phase(out, s, p, tmp);
	free(tmp);
	fprintf(out, "end %zu\n", s->nxfers);
	return ferror(out) ? FORS_EIO : FORS_OK;
}

/* The compact form's body after its head: the runs and the `end` line. */
static int put_runs(FILE *out, const struct fors_schedule *s,
		    const struct fors_runs *r)
{
	uint64_t h;
	int e;

	fprintf(out, "runs %zu %zu\n", fors_runs_count(r), fors_runs_bytes(r));
	e = fors_runs_write(r, out, &h);
	fprintf(out, "\nend %zu %016llx\n", s->nxfers, (unsigned long long)h);
	return e || ferror(out) ? FORS_EIO : FORS_OK;
}

/* The compact form: its head, then the runs and the `end` line. */
static int put_compact(FILE *out, const struct fors_schedule *s,
		       const struct fors_kv *more, size_t nmore,
		       const struct fors_runs *r)
{
	put_head(out, s, more, nmore, 2);
	return put_runs(out, s, r);
}

/* s's runs, or one line saying why the compact form cannot hold s. */
static int encode(const struct fors_schedule *s, struct fors_runs **r,
		  struct fors_error *err)
{
	int e;

	*r = NULL;
	if (s->nxfers > fors_runs_max_transfers(s)) {
		fors_error_set(err, "%zu transfers, more than the hosts have pairs: the compact form cannot hold the schedule",
			       s->nxfers);
		return FORS_EVERIFY;
	}
	e = fors_runs_encode(s, r);

	if (e == FORS_EVERIFY)
		fors_error_set(err, "%s", "a host sends twice in one phase: the compact form cannot hold the schedule");
	else if (e)
		fors_error_set(err, "%s", "out of memory encoding the schedule");
	return e;
}

int fors_schedule_write_compact(FILE *out, const struct fors_schedule *s,
				const struct fors_kv *more, size_t nmore,
				struct fors_error *err)
{
	struct fors_runs *r;
	int e = encode(s, &r, err);

	if (e)
		return e;
	e = put_compact(out, s, more, nmore, r);
	fors_runs_free(r);
	if (e)
		fors_error_set(err, "%s", "cannot write the schedule");
	return e;
}

struct sched_out {
	const struct fors_schedule *s;
	const struct fors_kv *more;
	size_t nmore;
	const struct fors_runs *runs;	/* NULL: the text form */
};

static int write_cb(FILE *out, const void *arg)
{
	const struct sched_out *o = arg;

	if (!o->runs)
		return fors_schedule_write_keys(out, o->s, o->more, o->nmore);
	return put_compact(out, o->s, o->more, o->nmore, o->runs);
}

int fors_schedule_write_file(const char *path, const struct fors_schedule *s,
			     enum fors_sched_form form, struct fors_error *err)
{
	return fors_schedule_write_file_keys(path, s, NULL, 0, form, err);
}

int fors_schedule_write_file_keys(const char *path,
				  const struct fors_schedule *s,
				  const struct fors_kv *more, size_t nmore,
				  enum fors_sched_form form,
				  struct fors_error *err)
{
	struct sched_out o = { s, more, nmore, NULL };
	struct fors_runs *r = NULL;
	int e = 0;

	if (form == FORS_SCHED_COMPACT)
		e = encode(s, &r, err);
	if (e)
		return e;
	o.runs = r;
	e = fors_write_atomic(path, write_cb, &o, err);
	fors_runs_free(r);
	return e;
}

/*
 * A word folded into h (a multiply and a shift, not FNV's byte at a time):
 * the digest only tells one schedule from the next.
 */
static uint64_t fold(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fors_runs_fnv(h, s ? s : "", (s ? strlen(s) : 0) + 1);
}

/* A transfer and its place, mixed (MurmurHash3's finaliser). */
static uint64_t mix(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	return v ^ (v >> 33);
}

/*
 * The transfers, each mixed with its phase and summed: no step waits for
 * the one before, so four million take a few milliseconds, and a phase's
 * order does not count (the compact form reads a phase back by source). A
 * transfer is read as its hosts' and plane's four bytes and its DLID,
 * every bit a field's (schedule.h): a digest is only ever compared with
 * one this build computed, of the file at start or of the last schedule
 * written.
 */
static uint64_t xfers_digest(const struct fors_schedule *s)
{
	uint64_t h = 0;
	uint32_t p;
	size_t i;

	for (p = 0; p < s->nphases; p++)
		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			uint32_t w;

			memcpy(&w, &s->xfers[i], sizeof(w));
			h += mix((w | (uint64_t)s->xfers[i].dlid << 32) ^
				 (p * 0x9e3779b97f4a7c15ull));
		}
	return h;
}

uint64_t fors_schedule_digest(const struct fors_schedule *s, const char *skip)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const uint32_t head[] = { s->m0, s->m1, s->q, s->f, s->m,
				  (uint32_t)s->lmc, s->nphases };
	size_t i;

	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		h = fold(h, head[i]);
	for (i = 0; i < s->nextra; i++)
		if ((!skip || strcmp(s->extra[i].key, skip)) &&
		    strcmp(s->extra[i].key, "bound") &&
		    strcmp(s->extra[i].key, "usable"))
			h = fnv_str(fnv_str(h, s->extra[i].key), s->extra[i].value);
	for (i = 0; i < s->nhosts; i++) {
		const struct fors_host *x = &s->hosts[i];

		h = fold(fold(fold(fold(h, x->sid), x->guid),
				    x->lid), x->port);
		h = fnv_str(h, x->desc);
	}
	for (i = 0; i <= s->nphases; i++)
		h = fold(h, s->start[i]);
	return fold(h, xfers_digest(s));
}

/* ---- reader ---- */

struct sched_reader {
	FILE *in;
	const char *name;
	char *line;
	size_t cap;
	unsigned long lineno;
	char **tok;
	int ntok, toks;		/* fields, capacity */
	struct fors_schedule *s;
	struct fors_error *err;
	int code;		/* first error; later ones keep its message */
	int version;		/* 1: text, 2: compact */
	struct fors_runs **keep;	/* the runs kept, not expanded; NULL:
					   expanded into the transfers */
};

static int bad(struct sched_reader *r, const char *fmt, const char *what)
{
	char msg[256];

	if (r->code)
		return r->code;
	snprintf(msg, sizeof(msg), fmt, what);
	fors_error_set(r->err, "%s:%lu: %s", r->name, r->lineno, msg);
	r->code = FORS_EFORMAT;
	return r->code;
}

/* A double-quoted field; escapes \" and \\ are undone in place. */
static char *quoted(char **cur)
{
	char *p = *cur + 1, *o = p, *start = p;

	for (; *p && *p != '"'; p++) {
		if (*p == '\\') {
			p++;
			if (*p != '"' && *p != '\\')
				return NULL;
		}
		*o++ = *p;
	}
	if (*p != '"' || (p[1] && p[1] != ' ' && p[1] != '\t'))
		return NULL;
	*o = '\0';
	*cur = p + 1;
	return start;
}

static int more_fields(struct sched_reader *r)
{
	int n = r->toks ? 2 * r->toks : 16;
	char **t = realloc(r->tok, sizeof(*t) * n);

	if (!t)
		return -1;
	r->tok = t;
	r->toks = n;
	return 0;
}

/* Split the line into fields; 0 for a comment, -1 for a broken field. */
static int split(struct sched_reader *r)
{
	char *cur = r->line;

	r->ntok = 0;
	cur[strcspn(cur, "\n")] = '\0';
	for (;;) {
		cur += strspn(cur, " \t");
		if (!*cur || (r->ntok == 0 && *cur == '#'))
			break;
		if (r->ntok == r->toks && more_fields(r))
			return -2;
		if (*cur == '"') {
			r->tok[r->ntok] = quoted(&cur);
			if (!r->tok[r->ntok++])
				return -1;
			if (*cur)
				*cur++ = '\0';
			continue;
		}
		r->tok[r->ntok++] = cur;
		cur += strcspn(cur, " \t");
		if (*cur)
			*cur++ = '\0';
	}
	return r->ntok;
}

/* Next line with content; 0 at end of file or after an error. */
static int next(struct sched_reader *r)
{
	int n;

	do {
		if (r->code || getline(&r->line, &r->cap, r->in) < 0)
			return 0;
		r->lineno++;
		n = split(r);
		if (n == -2) {
			r->code = FORS_ENOMEM;
			return 0;
		}
		if (n < 0) {
			bad(r, "%s", "malformed quoted field");
			return 0;
		}
	} while (n == 0);
	return 1;
}

/* Decimal, or hexadecimal with 0x; no sign, no trailing characters. */
static int num(const char *t, uint64_t max, uint64_t *v)
{
	return parse_u64(&t, 0, v) || *t || *v > max ? -1 : 0;
}

static int field(struct sched_reader *r, int i, uint64_t max, uint64_t *v,
		 const char *what)
{
	if (num(r->tok[i], max, v))
		return bad(r, "expected %s", what);
	return 0;
}

static int opt_field(struct sched_reader *r, int i, uint64_t max, int32_t *v,
		     const char *what)
{
	uint64_t x;

	if (!strcmp(r->tok[i], "-")) {
		*v = -1;
		return 0;
	}
	if (field(r, i, max, &x, what))
		return FORS_EFORMAT;
	*v = (int32_t)x;
	return 0;
}

static int header(struct sched_reader *r)
{
	if (!next(r))
		return bad(r, "%s", "empty file: expected 'fors-schedule 1' or 'fors-schedule 2'");
	if (r->ntok != 2 || strcmp(r->tok[0], "fors-schedule"))
		return bad(r, "%s", "expected 'fors-schedule 1' or 'fors-schedule 2'");
	if (strcmp(r->tok[1], "1") && strcmp(r->tok[1], "2"))
		return bad(r, "unsupported schedule version '%s' (this reader knows 1 and 2)",
			   r->tok[1]);
	r->version = r->tok[1][0] - '0';
	return 0;
}

static const char *const fabric_keys[] = {
	"hosts-per-leaf", "leaves", "planes", "reduction", "impacted", "lmc",
	"phases",
};

#define NKEYS (sizeof(fabric_keys) / sizeof(fabric_keys[0]))

/*
 * Other keys are written back unquoted: only a field that then reads back
 * the same (not empty, no blank, no leading quote) may be kept.
 */
static int plain(const char *t)
{
	return *t && *t != '"' && !t[strcspn(t, " \t")];
}

static int fabric_key(struct sched_reader *r, int i, uint64_t *vals, int *have)
{
	const char *k = r->tok[i], *v = r->tok[i + 1];
	size_t j;

	for (j = 0; j < NKEYS && strcmp(k, fabric_keys[j]); j++)
		;
	if (j == NKEYS) {
		if (!plain(k) || !plain(v))
			return bad(r, "%s", "fabric line: a key or value that is not a plain field");
		return fors_schedule_add_key(r->s, k, v);
	}
	if (have[j])
		return bad(r, "key '%s' given twice", k);
	have[j] = 1;
	if (j == 5 && !strcmp(v, "-")) {
		vals[j] = UINT64_MAX;
		return 0;
	}
	if (num(v, j == 5 ? 16 : UINT32_MAX, &vals[j]))
		return bad(r, "bad value for key '%s'", k);
	return 0;
}

static int fabric_check(struct sched_reader *r, const uint64_t *v,
			const int *have)
{
	struct fors_schedule *s = r->s;
	size_t j;

	for (j = 0; j < NKEYS; j++)
		if (!have[j])
			return bad(r, "fabric line lacks key '%s'",
				   fabric_keys[j]);
	s->m0 = (uint32_t)v[0];
	s->m1 = (uint32_t)v[1];
	s->q = (uint32_t)v[2];
	s->f = (uint32_t)v[3];
	s->m = (uint32_t)v[4];
	s->lmc = v[5] == UINT64_MAX ? -1 : (int)v[5];
	s->nphases = (uint32_t)v[6];
	if (s->m0 < 1 || s->m1 < 1 ||
	    (uint64_t)s->m0 * s->m1 > FORS_MAX_HOSTS)
		return bad(r, "%s", "hosts-per-leaf x leaves out of range");
	if (s->f >= s->m0)
		return bad(r, "%s", "reduction must be below hosts-per-leaf");
	if (s->q > FORS_MAX_PLANES)
		return bad(r, "%s", "planes above 1023");
	if (s->nphases > MAX_PHASES)
		return bad(r, "%s", "too many phases");
	s->start = calloc(s->nphases + 1, sizeof(size_t));
	return s->start ? 0 : FORS_ENOMEM;
}

static int fabric(struct sched_reader *r)
{
	uint64_t vals[NKEYS];
	int have[NKEYS] = { 0 }, i, e;

	if (!next(r) || strcmp(r->tok[0], "fabric"))
		return bad(r, "%s", "expected the 'fabric' line");
	if (r->ntok % 2 == 0)
		return bad(r, "%s", "fabric line: a key without a value");
	for (i = 1; i < r->ntok; i += 2) {
		e = fabric_key(r, i, vals, have);
		if (e)
			return e;
	}
	return fabric_check(r, vals, have);
}

static int host(struct sched_reader *r)
{
	struct fors_schedule *s = r->s;
	struct fors_host h = { 0 }, *nh;
	uint64_t sid, lid, port;
	const char *g = r->tok[2];

	if (r->ntok != 6)
		return bad(r, "%s",
			   "expected 'host <sid> <port-guid> <base-lid> \"<description>\" <port-num>'");
	if (field(r, 1, (uint64_t)s->m0 * s->m1 - 1, &sid, "a host id below hosts-per-leaf x leaves"))
		return FORS_EFORMAT;
	if (strncmp(g, "0x", 2) || strlen(g) != 18 ||
	    strspn(g + 2, "0123456789abcdefABCDEF") != 16)
		return bad(r, "%s", "expected a port GUID of 0x and 16 hex digits");
	if (field(r, 3, 0xffff, &lid, "a base LID") ||
	    field(r, 5, 255, &port, "a port number"))
		return FORS_EFORMAT;
	h.sid = (uint32_t)sid;
	h.guid = strtoull(g + 2, NULL, 16);
	h.lid = (uint32_t)lid;
	h.port = (uint32_t)port;
	nh = realloc(s->hosts, sizeof(*nh) * (s->nhosts + 1));
	if (!nh)
		return FORS_ENOMEM;
	s->hosts = nh;
	h.desc = strdup(r->tok[4]);
	if (!h.desc)
		return FORS_ENOMEM;
	s->hosts[s->nhosts++] = h;
	return 0;
}

static int xfer(struct sched_reader *r, struct fors_xfer *x)
{
	const struct fors_schedule *s = r->s;
	uint64_t hi = (uint64_t)s->m0 * s->m1 - 1, v;
	int32_t plane, dlid;

	if (r->ntok != 4)
		return bad(r, "%s", "expected '<src-sid> <dst-sid> <plane> <dlid>'");
	if (field(r, 0, hi, &v, "a source host id in range"))
		return FORS_EFORMAT;
	x->src = (uint16_t)v;
	if (field(r, 1, hi, &v, "a destination host id in range"))
		return FORS_EFORMAT;
	x->dst = (uint16_t)v;
	if (opt_field(r, 2, s->q ? s->q - 1 : 0, &plane,
		      "a plane below 'planes' or '-'") ||
	    opt_field(r, 3, FORS_NO_DLID - 1, &dlid, "a DLID or '-'"))
		return FORS_EFORMAT;
	fors_xfer_set_plane(x, plane);
	x->dlid = dlid < 0 ? FORS_NO_DLID : (uint16_t)dlid;
	return 0;
}

static int grow(struct sched_reader *r, size_t need, size_t *cap)
{
	struct fors_schedule *s = r->s;
	struct fors_xfer *x;
	size_t n = *cap ? *cap : 1024;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	x = realloc(s->xfers, sizeof(*x) * n);
	if (!x)
		return FORS_ENOMEM;
	s->xfers = x;
	*cap = n;
	return 0;
}

static int phase_head(struct sched_reader *r, uint32_t p, uint64_t *n)
{
	uint64_t v, hosts = (uint64_t)r->s->m0 * r->s->m1;
	char what[64];

	snprintf(what, sizeof(what), "'phase %u <n>'", p);
	if (r->ntok != 3 || strcmp(r->tok[0], "phase"))
		return bad(r, "expected %s", what);
	if (num(r->tok[1], UINT32_MAX, &v) || v != p)
		return bad(r, "expected %s: phases are numbered in order",
			   what);
	return field(r, 2, hosts, n, "a transfer count of at most one per host");
}

static int phases(struct sched_reader *r, int have_line)
{
	struct fors_schedule *s = r->s;
	size_t cap = 0;
	uint64_t n, i;
	uint32_t p;
	int e;

	for (p = 0; p < s->nphases; p++) {
		if (!have_line && !next(r))
			return bad(r, "%s", "truncated file: missing phases and 'end'");
		have_line = 0;
		e = phase_head(r, p, &n);
		if (!e)
			e = grow(r, s->nxfers + n, &cap);
		for (i = 0; !e && i < n; i++) {
			if (!next(r))
				return bad(r, "%s", "truncated file: missing transfers and 'end'");
			e = xfer(r, &s->xfers[s->nxfers++]);
		}
		if (e)
			return e;
		s->start[p + 1] = s->nxfers;
	}
	return have_line ? 1 : 0;
}

/* The most bytes a read of the runs asks for before they have come. */
#define RUNS_CHUNK ((size_t)1 << 20)

/*
 * The len bytes of runs after the `runs` line into *out, and the newline
 * after them. The buffer grows as the bytes come, so a file that claims
 * more than it holds costs what it holds, not what it claims.
 */
static int payload(struct sched_reader *r, unsigned char **out, uint64_t len)
{
	size_t cap = len < RUNS_CHUNK ? (size_t)len + 1 : RUNS_CHUNK, got = 0;
	unsigned char *buf = malloc(cap), *nb;

	while (buf && got < len) {
		size_t want = (size_t)(len - got) < cap - got ?
			      (size_t)(len - got) : cap - got;
		size_t n = fread(buf + got, 1, want, r->in);

		got += n;
		if (n < want || got == len)
			break;
		cap = 2 * cap > len + 1 ? (size_t)len + 1 : 2 * cap;
		nb = realloc(buf, cap);
		if (!nb)
			free(buf);
		buf = nb;
	}
	*out = buf;
	if (!buf)
		return FORS_ENOMEM;
	if (got != len || getc(r->in) != '\n')
		return bad(r, "%s", "truncated file: runs shorter than the 'runs' line says");
	r->lineno++;
	return 0;
}

/* `end <pairs> <digest>`: the count into *pairs, the runs' FNV-1a checked. */
static int end_line(struct sched_reader *r, const unsigned char *buf,
		    uint64_t len, uint64_t *pairs)
{
	uint64_t h;
	const char *t;

	if (!next(r))
		return bad(r, "%s", "truncated file: no 'end' line");
	if (r->ntok != 3 || strcmp(r->tok[0], "end"))
		return bad(r, "%s", "expected 'end <pairs> <digest>' after the runs");
	t = r->tok[2];
	if (num(r->tok[1], SIZE_MAX, pairs) || strlen(t) != 16 ||
	    parse_u64(&t, 16, &h) || *t)
		return bad(r, "%s", "expected 'end <pairs> <digest>' after the runs");
	if (h != fors_runs_fnv(0xcbf29ce484222325ull, buf, len))
		return bad(r, "%s", "the runs do not match the 'end' digest: the file is corrupt");
	return 0;
}

/* The runs parsed and kept with their bytes, for a reader that looks up. */
static int keep_runs(struct sched_reader *r, unsigned char *buf, uint64_t len,
		     uint64_t n, const char *where)
{
	int e = fors_runs_parse(r->s, buf, len, n, where, r->err, r->keep);

	if (!e)
		fors_runs_keep(*r->keep, buf);
	return e;
}

/*
 * The compact form after its host lines: `runs <count> <bytes>`, the runs,
 * `end <pairs> <digest>`. The digest is checked before a run is read.
 */
static int runs(struct sched_reader *r, int have_line)
{
	uint64_t n, len, pairs;
	unsigned char *buf;
	char where[96];
	int e;

	if (!have_line && !next(r))
		return bad(r, "%s", "truncated file: no 'runs' line");
	if (r->ntok != 3 || strcmp(r->tok[0], "runs"))
		return bad(r, "%s", "expected 'runs <count> <bytes>' after the host lines");
	if (field(r, 1, UINT32_MAX, &n, "a run count") ||
	    field(r, 2, (uint64_t)1 << 34, &len, "a byte count of at most 16 GiB"))
		return FORS_EFORMAT;
	snprintf(where, sizeof(where), "%.64s:%lu", r->name, r->lineno);
	e = payload(r, &buf, len);
	if (!e)
		e = end_line(r, buf, len, &pairs);
	if (!e && r->keep)
		e = keep_runs(r, buf, len, n, where);
	else if (!e)
		e = fors_runs_decode(r->s, buf, len, n, where, r->err);
	if (!r->keep || !*r->keep)
		free(buf);
	if (e == FORS_EFORMAT)
		r->code = e;
	if (!e && pairs != (r->keep ? fors_runs_transfers(*r->keep) :
			    r->s->nxfers))
		return bad(r, "%s", "'end' count differs from the number of transfers the runs hold");
	if (!e && next(r))
		return bad(r, "%s", "content after 'end'");
	return e;
}

static int tail(struct sched_reader *r, int have_line)
{
	uint64_t n;

	if (!have_line && !next(r))
		return bad(r, "%s", "truncated file: no 'end' line");
	if (r->ntok != 2 || strcmp(r->tok[0], "end"))
		return bad(r, "%s", r->s->nphases ?
			   "expected 'end <pairs>' after the last phase" :
			   "expected 'end <pairs>'");
	if (num(r->tok[1], SIZE_MAX, &n) || n != r->s->nxfers)
		return bad(r, "%s", "'end' count differs from the number of transfer lines");
	if (next(r))
		return bad(r, "%s", "content after 'end'");
	return 0;
}

static int body(struct sched_reader *r)
{
	int e, have = 0;

	e = header(r);
	if (!e)
		e = fabric(r);
	while (!e) {
		if (!next(r)) {
			have = 0;
			break;
		}
		have = 1;
		if (strcmp(r->tok[0], "host"))
			break;
		e = host(r);
	}
	if (e)
		return e;
	if (r->version == 2)
		return runs(r, have);
	e = phases(r, have);
	if (e < 0)
		return e;
	return tail(r, e == 1);
}

/* The reader, the runs kept in *keep (when not NULL) or expanded. */
static int read_with(FILE *in, const char *name, struct fors_schedule **out,
		     struct fors_runs **keep, int *version,
		     struct fors_error *err)
{
	struct sched_reader r = { .in = in, .name = name, .err = err,
				  .keep = keep };
	int e;

	*out = NULL;
	r.s = calloc(1, sizeof(*r.s));
	if (!r.s) {
		fors_error_set(err, "%s: out of memory", name);
		return FORS_ENOMEM;
	}
	e = body(&r);
	if (!e)
		e = r.code;
	if (!e && ferror(in)) {
		fors_error_set(err, "%s: read error", name);
		e = FORS_EIO;
	}
	if (e == FORS_ENOMEM)
		fors_error_set(err, "%s:%lu: out of memory", name, r.lineno);
	free(r.line);
	free(r.tok);
	if (e) {
		fors_schedule_free(r.s);
		if (keep) {
			fors_runs_free(*keep);
			*keep = NULL;
		}
		return e;
	}
	*out = r.s;
	if (version)
		*version = r.version;
	return FORS_OK;
}

int fors_schedule_read(FILE *in, const char *name, struct fors_schedule **out,
		       struct fors_error *err)
{
	return read_with(in, name, out, NULL, NULL, err);
}

int fors_schedule_read_runs(FILE *in, const char *name,
			    struct fors_schedule **out, struct fors_runs **runs,
			    struct fors_error *err)
{
	*runs = NULL;
	return read_with(in, name, out, runs, NULL, err);
}

static int read_cb(FILE *in, const char *name, void *out,
		   struct fors_error *err)
{
	return fors_schedule_read(in, name, out, err);
}

int fors_schedule_read_file(const char *path, struct fors_schedule **out,
			    struct fors_error *err)
{
	*out = NULL;
	return read_path(path, read_cb, out, err);
}

/* Where fors_schedule_read_file_form's reader puts what it read. */
struct sched_in {
	struct fors_schedule *s;
	int version;
};

static int read_form_cb(FILE *in, const char *name, void *out,
			struct fors_error *err)
{
	struct sched_in *o = out;

	return read_with(in, name, &o->s, NULL, &o->version, err);
}

int fors_schedule_read_file_form(const char *path, struct fors_schedule **out,
				 enum fors_sched_form *form,
				 struct fors_error *err)
{
	struct sched_in o = { NULL, 0 };
	int e = read_path(path, read_form_cb, &o, err);

	*out = o.s;
	*form = o.version == 2 ? FORS_SCHED_COMPACT : FORS_SCHED_TEXT;
	return e;
}
